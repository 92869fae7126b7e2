# The MPI variant (docs/scale.md): build/pascal-mpi, the same program compiled
# a second time against MPI and the parallel HDF5, so that
# `mpirun -n P pascal-mpi run SPEC -o OUT.h5` writes one file collectively.
# Included at the end of CMakeLists.txt, once libpascal's objects exist.
#
# The serial build/pascal stays as it is.  Two HDF5 flavours live side by side
# (Debian: /usr/include/hdf5/serial and /usr/include/hdf5/openmpi) and an
# object compiled against one's headers cannot be linked with the other's
# library, so output/ (the only folder that includes HDF5) is compiled a
# second time, against the parallel HDF5 found here through pkg-config
# (find_package(HDF5) caches the first flavour it finds, so it cannot be
# asked again for the other in the same project).  The rest of the library
# is the serial build's objects; the MPI-only files (*_mpi.c, engine/mpi/)
# are built here alone.
#
# PASCAL_MPI: AUTO builds pascal-mpi when MPI and a parallel HDF5 are found,
# ON requires them, OFF never builds it.  PASCAL_HDF5_MPI_MODULES lists the
# pkg-config modules tried for the parallel HDF5, first found wins.
set_property(CACHE PASCAL_MPI PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${PASCAL_MPI}" pascal_mpi_mode)
if(NOT pascal_mpi_mode MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "PASCAL_MPI: expected AUTO, ON or OFF, got \"${PASCAL_MPI}\"")
endif()
set(PASCAL_HDF5_MPI_MODULES "hdf5-openmpi;hdf5-mpi;hdf5-mpich" CACHE STRING
    "pkg-config modules tried, in order, for the parallel HDF5 of pascal-mpi")
set(PASCAL_MPI_ENABLED OFF)
if(pascal_mpi_mode STREQUAL "OFF" OR NOT TARGET pascal)
  message(STATUS "pascal: no MPI variant (PASCAL_MPI=${PASCAL_MPI})")
  return()
endif()

find_package(MPI COMPONENTS C QUIET)
set(pascal_mpi_why "")
if(NOT MPI_C_FOUND)
  set(pascal_mpi_why "no MPI C compiler or library (Debian: libopenmpi-dev)")
else()
  pkg_search_module(PHDF5 QUIET IMPORTED_TARGET ${PASCAL_HDF5_MPI_MODULES})
  if(NOT PHDF5_FOUND)
    string(REPLACE ";" ", " pascal_mods "${PASCAL_HDF5_MPI_MODULES}")
    set(pascal_mpi_why
        "no parallel HDF5 among the pkg-config modules ${pascal_mods} (Debian: libhdf5-openmpi-dev)")
  else()
    # A module of that name could still be a serial build: ask its headers.
    find_file(PASCAL_PHDF5_CONF H5pubconf.h PATHS ${PHDF5_INCLUDE_DIRS} NO_DEFAULT_PATH)
    if(PASCAL_PHDF5_CONF)
      file(STRINGS ${PASCAL_PHDF5_CONF} pascal_phdf5_par REGEX "^#define H5_HAVE_PARALLEL 1")
    endif()
    if(NOT pascal_phdf5_par)
      set(pascal_mpi_why "the HDF5 of pkg-config module ${PHDF5_MODULE_NAME} is not parallel")
    endif()
  endif()
endif()
if(pascal_mpi_why)
  if(pascal_mpi_mode STREQUAL "ON")
    message(FATAL_ERROR "PASCAL_MPI=ON but ${pascal_mpi_why}; use PASCAL_MPI=AUTO or OFF")
  endif()
  message(STATUS "pascal: no MPI variant: ${pascal_mpi_why}")
  return()
endif()
set(PASCAL_MPI_ENABLED ON)
message(STATUS "pascal: MPI variant pascal-mpi (MPI ${MPI_C_VERSION}; "
               "parallel HDF5 ${PHDF5_VERSION} from ${PHDF5_MODULE_NAME})")

# The high-level library of the same HDF5 (the /cube view's dimension
# scales, output/h5_cube.c), beside the parallel HDF5 itself.
find_library(PASCAL_PHDF5_HL NAMES hdf5_hl hdf5_openmpi_hl PATHS ${PHDF5_LIBRARY_DIRS}
             NO_DEFAULT_PATH)
if(NOT PASCAL_PHDF5_HL)
  if(pascal_mpi_mode STREQUAL "ON")
    message(FATAL_ERROR "PASCAL_MPI=ON but no hdf5_hl beside the parallel HDF5 in "
                        "${PHDF5_LIBRARY_DIRS}; use PASCAL_MPI=AUTO or OFF")
  endif()
  message(STATUS "pascal: no MPI variant: no hdf5_hl in ${PHDF5_LIBRARY_DIRS}")
  set(PASCAL_MPI_ENABLED OFF)
  return()
endif()

# output/ against the parallel HDF5, and the MPI-only sources.
file(GLOB pascal_mpi_output CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/output/*.c
     ${CMAKE_SOURCE_DIR}/output/fs/*.c)
file(GLOB pascal_mpi_only CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/common/*_mpi.c
     ${CMAKE_SOURCE_DIR}/engine/mpi/*.c)
set(pascal_mpi_deps PkgConfig::YAML ${PASCAL_PHDF5_HL} PkgConfig::PHDF5 MPI::MPI_C ZLIB::ZLIB
    OpenMP::OpenMP_C m GSL::gsl PkgConfig::ISAL PkgConfig::NETTLE)
function(pascal_mpi_library name)  # NAME [PASCAL_TEST_HOOKS]
  add_library(${name} STATIC ${pascal_mpi_output} ${pascal_mpi_only}
    $<TARGET_OBJECTS:pascal_common_objs> $<TARGET_OBJECTS:pascal_model_objs>
    $<TARGET_OBJECTS:pascal_core_objs>)
  target_compile_definitions(${name} PUBLIC PASCAL_MPI=1 ${ARGN})
  target_compile_options(${name} PRIVATE ${PASCAL_WARNINGS})
  target_link_libraries(${name} PUBLIC pascal_flags ${pascal_mpi_deps})
endfunction()
pascal_mpi_library(libpascal_mpi)

# The executable: the same commands; `run` starts MPI (programs/run_mpi.c).
# As build/pascal it links the report and the kernels' library:
# pascal_kernels needs only common/ and is linked as it is; pascal_report
# is built over libpascal, whose serial HDF5 cannot share a program with the
# parallel one, so its objects are linked here over libpascal_mpi instead.
# Its GPU commands run as in build/pascal.  The tests' pascal-mpi-hooked
# has the test hooks (CMakeLists.txt: pascal-hooked).
file(GLOB pascal_cli_all CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/programs/*.c)
list(FILTER pascal_cli_all EXCLUDE REGEX ".*/programs/(testhooks|launch)\\.c$")
add_executable(pascal-mpi ${pascal_cli_all} $<TARGET_OBJECTS:pascal_report>)
target_compile_options(pascal-mpi PRIVATE ${PASCAL_WARNINGS})
target_link_libraries(pascal-mpi PRIVATE libpascal_mpi pascal_kernels)
if(PASCAL_TESTS)
  pascal_mpi_library(libpascal_mpi_hooked PASCAL_TEST_HOOKS=1)
  add_executable(pascal-mpi-hooked ${pascal_cli_all} ${CMAKE_SOURCE_DIR}/programs/testhooks.c
    $<TARGET_OBJECTS:pascal_report>)
  set_target_properties(pascal-mpi-hooked PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  target_compile_options(pascal-mpi-hooked PRIVATE ${PASCAL_WARNINGS})
  target_link_libraries(pascal-mpi-hooked PRIVATE libpascal_mpi_hooked pascal_kernels)
endif()

# What the tests need to run it: mpirun, and the flags CI needs (root in a
# container; more ranks than cores on a 2-core machine).
find_program(PASCAL_MPIRUN NAMES ${MPIEXEC_EXECUTABLE} mpirun mpiexec)
# Waiting ranks yield the core: on a machine shared with other work a rank
# that spins in a collective takes the core from one that computes.
set(PASCAL_MPIRUN_FLAGS "--allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1"
    CACHE STRING "Flags the MPI tests pass to mpirun")
# A build with AddressSanitizer (.ci/run's build-asan) checks the ranks for
# leaks too; Open MPI keeps allocations of its own until exit, so the ranks
# ignore leaks whose stack passes through its libraries, and only those
# (tests/sanitizers/openmpi-lsan.supp; the slow unwinder lets a stack reach
# into them).  PASCAL_MPI_RANK_ENV goes into every app context of a test's
# mpirun line: a -x before the first context reaches that context only.
set(pascal_mpirun_sanitizer "")
if(CMAKE_C_FLAGS MATCHES "-fsanitize=[^ ]*address")
  set(pascal_mpirun_sanitizer " -x LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tests/sanitizers/openmpi-lsan.supp:fast_unwind_on_malloc=0")
endif()
# Only the MPI tests' source is told (so a change of flags recompiles it
# alone).
if(PASCAL_TESTS AND TARGET pascal_tests AND PASCAL_MPIRUN)
  set_property(SOURCE ${CMAKE_SOURCE_DIR}/tests/mpi_run_test.cc APPEND PROPERTY
    COMPILE_DEFINITIONS PASCAL_MPI_CLI="$<TARGET_FILE:pascal-mpi>"
    PASCAL_MPI_CLI_HOOKED="$<TARGET_FILE:pascal-mpi-hooked>"
    PASCAL_MPIRUN="${PASCAL_MPIRUN} ${PASCAL_MPIRUN_FLAGS}"
    PASCAL_MPI_RANK_ENV="${pascal_mpirun_sanitizer}")
  add_dependencies(pascal_tests pascal-mpi pascal-mpi-hooked)
endif()
