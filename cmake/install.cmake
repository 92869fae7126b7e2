# Installation (docs/library.md), included at the end of CMakeLists.txt.
# `cmake --install build --prefix P` writes
#   P/bin/pascal                              the CLI (libpascal linked in)
#   P/LIBDIR/libpascal.a                      the core library
#   P/LIBDIR/libpascal.so.MAJOR.MINOR[.PATCH] the same, shared (PASCAL_SHARED)
#   P/include/pascal/<module>/*.h             the public headers, below
#   P/LIBDIR/cmake/pascal/                    find_package(pascal): pascal::pascal
#                                             (static), pascal::pascal_shared
#   P/LIBDIR/pkgconfig/pascal.pc              pkg-config (--static for libpascal.a)
#   P/share/pascal/                           configs/: device profiles, example
#                                             specs, calibration reference sets
#   P/share/man/man1/pascal.1                 from --help by help2man, when found
#   P/share/bash-completion/completions/pascal
# and the test install_consumer builds a program against that tree both
# ways (tests/install/).
if(NOT TARGET pascal) # a build narrowed by PASCAL_MODULES installs nothing
  return()
endif()
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

option(PASCAL_SHARED "Also build libpascal as a shared library (libpascal.so)" ON)

# The public API: what a C or C++ program that embeds the model, parses
# specs, runs sweeps or reads their files includes, as
# <pascal/model/static.h> and so on.  Each must compile on its own in the
# installed tree (the test checks), so a public header may include only
# public headers.  Everything else (workspace layouts, the sinks' insides,
# the report, the kernels, the CLI) stays private.  The installed copies
# include each other as <pascal/module/name.h> (cmake/public_header.cmake
# rewrites the source tree's "module/name.h").
set(PASCAL_PUBLIC_HEADERS
  common/error.h common/version.h
  model/static.h model/static_multi.h model/streams.h model/phases.h model/replay.h
  model/replay_streams.h model/progress.h model/dynamic.h model/workload.h model/lab.h
  vocab/params.h devices/profile.h sweeps/spec.h sweeps/workload.h
  engine/eval.h engine/eval_workload.h engine/run.h calibrate/calibrate.h validate/validate.h
  output/sink.h output/calibration.h
  engine/plan.h
  model/sim.h devices/sim_timing.h engine/simrefs.h
  sweeps/search.h sweeps/sample.h engine/size.h)

# Installed consumers include <pascal/...> from the include folder, and
# link (only) what the static library needs: libyaml, zlib, GSL and ISA-L as packages,
# and HDF5 (C and HL) and the OpenMP runtime as the very libraries this
# build used, so that a consumer gets the same HDF5 flavour (serial or MPI)
# and needs neither FindHDF5 nor FindOpenMP, which want a C compiler in a
# C++ project.
set(install_link "$<LINK_ONLY:PkgConfig::YAML>" "$<LINK_ONLY:ZLIB::ZLIB>" "$<LINK_ONLY:GSL::gsl>"
  "$<LINK_ONLY:PkgConfig::ISAL>" "$<LINK_ONLY:PkgConfig::NETTLE>")
foreach(target hdf5::hdf5_hl hdf5::hdf5)
  get_target_property(location ${target} IMPORTED_LOCATION)
  list(APPEND install_link ${location})
endforeach()
list(APPEND install_link ${OpenMP_C_LIBRARIES} m)
target_include_directories(libpascal INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(libpascal INTERFACE "$<INSTALL_INTERFACE:${install_link}>")
set(installed_headers)
foreach(header ${PASCAL_PUBLIC_HEADERS})
  set(out ${CMAKE_BINARY_DIR}/include/pascal/${header})
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${CMAKE_SOURCE_DIR}/${header} -DOUT=${out}
            -P ${CMAKE_SOURCE_DIR}/cmake/public_header.cmake
    DEPENDS ${CMAKE_SOURCE_DIR}/${header} ${CMAKE_SOURCE_DIR}/cmake/public_header.cmake
    COMMENT "Public header pascal/${header}")
  list(APPEND installed_headers ${out})
endforeach()
add_custom_target(pascal_public_headers ALL DEPENDS ${installed_headers})

# libpascal.so: the static library's sources, definitions and options,
# compiled again as position-independent code.  It exports the pascal_*
# names only (cmake/libpascal.map).  While the version is 0.x every minor
# release may change the ABI, so the SONAME carries MAJOR.MINOR.
if(PASCAL_SHARED)
  get_target_property(shared_sources libpascal SOURCES)
  list(FILTER shared_sources EXCLUDE REGEX "TARGET_OBJECTS")
  get_target_property(shared_definitions libpascal COMPILE_DEFINITIONS)
  get_target_property(shared_options libpascal COMPILE_OPTIONS)
  foreach(v shared_definitions shared_options)
    if(NOT ${v})
      set(${v} "")
    endif()
  endforeach()
  add_library(libpascal_shared SHARED ${shared_sources} ${PASCAL_COMMON_SOURCES})
  set_target_properties(libpascal_shared PROPERTIES OUTPUT_NAME pascal EXPORT_NAME pascal_shared
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
    LINK_DEPENDS ${CMAKE_SOURCE_DIR}/cmake/libpascal.map)
  target_compile_definitions(libpascal_shared PRIVATE ${shared_definitions})
  target_compile_options(libpascal_shared PRIVATE ${shared_options}
    $<$<C_COMPILER_ID:GNU,Clang>:-fno-semantic-interposition>)
  target_include_directories(libpascal_shared PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(libpascal_shared PRIVATE ${PASCAL_DEPS})
  target_link_options(libpascal_shared PRIVATE
    -Wl,--version-script=${CMAKE_SOURCE_DIR}/cmake/libpascal.map -Wl,--no-undefined)
endif()

# The installed command keeps the run path to libraries outside the system
# folders it was linked with (the CUDA runtime under /usr/local/cuda).
set_target_properties(pascal PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS pascal RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS libpascal EXPORT pascalTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(PASCAL_SHARED)
  install(TARGETS libpascal_shared EXPORT pascalTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
foreach(header ${PASCAL_PUBLIC_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${CMAKE_BINARY_DIR}/include/pascal/${header}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pascal/${dir})
endforeach()

# The CMake package.
set(PASCAL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pascal)
install(EXPORT pascalTargets NAMESPACE pascal:: DESTINATION ${PASCAL_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/pascalConfig.cmake.in
  ${CMAKE_BINARY_DIR}/pascalConfig.cmake INSTALL_DESTINATION ${PASCAL_CMAKE_DIR})
# 0.x: a different minor version may differ in API and ABI.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/pascalConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/pascalConfig.cmake ${CMAKE_BINARY_DIR}/pascalConfigVersion.cmake
  DESTINATION ${PASCAL_CMAKE_DIR})

# pkg-config.  Relocatable: the prefix is found from the .pc file's own
# folder.  Libs.private lists what the static library needs beyond the
# Requires.private packages: HDF5 (Debian's plain `hdf5` package name may
# mean the MPI flavour, so the libraries this build found are named), the
# OpenMP runtime and libm.
set(PASCAL_PC_LIBS_PRIVATE)
set(pc_dirs)
set(pc_libs)
set(pc_paths)
foreach(target hdf5::hdf5_hl hdf5::hdf5)
  get_target_property(location ${target} IMPORTED_LOCATION)
  if(location)
    list(APPEND pc_paths ${location})
  endif()
endforeach()
foreach(name ${OpenMP_C_LIB_NAMES})
  if(OpenMP_${name}_LIBRARY AND NOT name STREQUAL "pthread")
    list(APPEND pc_paths ${OpenMP_${name}_LIBRARY})
  endif()
endforeach()
foreach(path ${pc_paths})
  get_filename_component(dir ${path} DIRECTORY)
  get_filename_component(name ${path} NAME_WE)
  string(REGEX REPLACE "^lib" "" name ${name})
  list(APPEND pc_dirs "-L${dir}")
  list(APPEND pc_libs "-l${name}")
endforeach()
list(REMOVE_DUPLICATES pc_dirs)
list(APPEND pc_libs -lpthread -lm)
list(JOIN pc_dirs " " pc_dirs)
list(JOIN pc_libs " " pc_libs)
set(PASCAL_PC_LIBS_PRIVATE "${pc_dirs} ${pc_libs}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(PASCAL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(PASCAL_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH to_prefix "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" to_prefix "${to_prefix}")
  set(PASCAL_PC_PREFIX "\${pcfiledir}/${to_prefix}")
  set(PASCAL_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
foreach(kind INCLUDEDIR DATADIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(PASCAL_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(PASCAL_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
string(APPEND PASCAL_PC_DATADIR "/pascal")
configure_file(${CMAKE_SOURCE_DIR}/cmake/pascal.pc.in ${CMAKE_BINARY_DIR}/pascal.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pascal.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The shipped configs, laid out as in the source tree, so that a spec's
# relative device path (devices/gb10.yaml) still resolves.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/pascal)

# Bash completion: the script asks the installed binary for its commands
# and flags (pascal --complete).
install(FILES ${CMAKE_SOURCE_DIR}/programs/completion.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME pascal)

# The man page, generated from the binary's own help when help2man is
# there (scripts/setup.sh installs it); the build goes on without it.
find_program(PASCAL_HELP2MAN help2man)
if(PASCAL_HELP2MAN)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/pascal.1
    COMMAND ${CMAKE_COMMAND} -DPASCAL=$<TARGET_FILE:pascal> -DHELP2MAN=${PASCAL_HELP2MAN}
            -DOUT=${CMAKE_BINARY_DIR}/pascal.1 -DWORK=${CMAKE_BINARY_DIR}
            -P ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
    DEPENDS pascal ${CMAKE_SOURCE_DIR}/cmake/manpage.cmake
    COMMENT "Man page pascal.1 from pascal --help (help2man)")
  add_custom_target(pascal_man ALL DEPENDS ${CMAKE_BINARY_DIR}/pascal.1)
  install(FILES ${CMAKE_BINARY_DIR}/pascal.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "pascal: help2man not found: no man page (scripts/setup.sh installs help2man)")
endif()

# The installed tree, tested: a consumer built with find_package and with
# pkg-config (shared and static), every public header on its own, the
# completion and the man page (tests/install/install_test.sh).
if(PASCAL_TESTS)
  add_test(NAME install_consumer
    COMMAND bash ${CMAKE_SOURCE_DIR}/tests/install/install_test.sh
            --build ${CMAKE_BINARY_DIR} --source ${CMAKE_SOURCE_DIR}
            --work ${CMAKE_BINARY_DIR}/install-test --version ${PROJECT_VERSION}
            --cmake ${CMAKE_COMMAND} --cc ${CMAKE_C_COMPILER} --cxx ${CMAKE_CXX_COMPILER}
            --shared $<IF:$<BOOL:${PASCAL_SHARED}>,1,0>
            --man $<IF:$<BOOL:${PASCAL_HELP2MAN}>,1,0>
            # The consumers are built with the library's flags (a sanitized
            # library needs its runtime); "x" keeps an empty value an argument.
            --cflags "x${CMAKE_C_FLAGS}" --ldflags "x${CMAKE_EXE_LINKER_FLAGS}")
  set_tests_properties(install_consumer PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()
