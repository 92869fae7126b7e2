# Installation (docs/library.md), included at the end of CMakeLists.txt.
# `cmake --install build --prefix P` writes
#   P/bin/pascal                              the command (its launcher)
#   P/libexec/pascal/pascal-core              the program it runs
#   P/LIBDIR/libpascal.a                      the library, static
#   P/LIBDIR/libpascal.so.MAJOR.MINOR[.PATCH] the same, shared (PASCAL_SHARED)
#   P/LIBDIR/libpascal_model.a, .so           the model alone: no third-party library
#   P/include/pascal/*.h                      the public headers
#   P/LIBDIR/cmake/pascal/                    find_package(pascal): pascal::pascal,
#                                             pascal::model, and their _shared
#   P/LIBDIR/pkgconfig/pascal.pc, pascal-model.pc
#   P/share/pascal/                           configs/: device profiles, example
#                                             specs, calibration reference sets
#   P/share/man/man1/pascal.1                 from --help by help2man, when found
#   P/share/bash-completion/completions/pascal
# and the test install_consumer builds programs against that tree
# (tests/install/).
include(CMakePackageConfigHelpers)

option(PASCAL_SHARED "Also build the shared libraries (libpascal.so, libpascal_model.so)" ON)

# The public API (docs/library.md): include/pascal/*.h and the generated
# version.h, installed as <pascal/...>.  A public header includes only
# public headers and compiles on its own (the install test checks both);
# everything else (workspace layouts, the sinks' insides, the report, the
# kernels, the commands) stays private.
file(GLOB PASCAL_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/pascal/*.h)
list(APPEND PASCAL_PUBLIC_HEADERS ${CMAKE_BINARY_DIR}/include/pascal/version.h)

# The installed libraries, made from the objects the source tree links
# (CMakeLists.txt):
#   libpascal_model.a / .so   common/ and model/: libc and libm only
#   libpascal.a / .so         everything, libpascal_model included
# Each static library is one relocatable object (ld -r) whose hidden
# symbols are then made local, so that it exports what the shared library
# does: the PASCAL_API names of the public headers (the symbols test checks
# both against the headers).  OpenMP's named critical sections are made
# local too: their locks are the library's own.
set(PASCAL_MODEL_OBJECTS $<TARGET_OBJECTS:pascal_common_objs> $<TARGET_OBJECTS:pascal_model_objs>)
set(PASCAL_ALL_OBJECTS ${PASCAL_MODEL_OBJECTS} $<TARGET_OBJECTS:pascal_core_objs>
  $<TARGET_OBJECTS:pascal_output_objs>)
function(pascal_public_archive name)
  set(out ${CMAKE_BINARY_DIR}/lib${name}.a)
  set(obj ${CMAKE_BINARY_DIR}/CMakeFiles/lib${name}-prelinked.o)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_LINKER} -r -d -o ${obj} ${ARGN}
    COMMAND ${CMAKE_OBJCOPY} --localize-hidden --wildcard --localize-symbol=.gomp_critical_user_* ${obj}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${out}
    COMMAND ${CMAKE_AR} qc ${out} ${obj}
    COMMAND ${CMAKE_RANLIB} ${out}
    DEPENDS ${ARGN}
    COMMAND_EXPAND_LISTS
    COMMENT "Public archive lib${name}.a")
  add_custom_target(${name}_archive ALL DEPENDS ${out})
  # The objects are another target's: without this an incremental parallel
  # build may pack them before they are rebuilt.
  add_dependencies(${name}_archive pascal_common_objs pascal_model_objs pascal_core_objs
                   pascal_output_objs)
endfunction()
pascal_public_archive(pascal_model ${PASCAL_MODEL_OBJECTS})
pascal_public_archive(pascal ${PASCAL_ALL_OBJECTS})

# The shared libraries.  While the version is 0.x every minor release may
# change the ABI, so the SONAME carries MAJOR.MINOR.  The version script
# keeps to the pascal_ names what visibility already limits to the API.
if(PASCAL_SHARED)
  foreach(lib pascal_model pascal)
    if(lib STREQUAL "pascal")
      add_library(${lib}_shared SHARED ${PASCAL_ALL_OBJECTS})
      target_link_libraries(${lib}_shared PRIVATE ${PASCAL_DEPS})
    else()
      add_library(${lib}_shared SHARED ${PASCAL_MODEL_OBJECTS})
      target_link_libraries(${lib}_shared PRIVATE m)
    endif()
    set_target_properties(${lib}_shared PROPERTIES OUTPUT_NAME ${lib}
      VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
      LINK_DEPENDS ${CMAKE_SOURCE_DIR}/cmake/libpascal.map)
    target_link_options(${lib}_shared PRIVATE
      -Wl,--version-script=${CMAKE_SOURCE_DIR}/cmake/libpascal.map -Wl,--no-undefined)
  endforeach()
endif()

# The installed command keeps the run path to libraries outside the system
# folders it was linked with (the CUDA runtime under /usr/local/cuda).  The
# one in the build tree has that same run path: else CMake pads the build
# tree's run path with ':' so that install can rewrite it in place, and each
# empty entry is the current folder, searched for all 50 libraries at
# startup (a library there would be loaded).
set_target_properties(pascal PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE
                                        BUILD_WITH_INSTALL_RPATH TRUE)
# bin/pascal is the launcher (programs/launch.c); the program proper is
# libexec/pascal/pascal-core, where the launcher looks for it.
install(TARGETS pascal_launcher RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS pascal RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/pascal)
install(FILES ${CMAKE_BINARY_DIR}/libpascal.a ${CMAKE_BINARY_DIR}/libpascal_model.a
  DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(PASCAL_SHARED)
  install(TARGETS pascal_shared pascal_model_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(FILES ${PASCAL_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pascal)

# What the static libpascal needs at link time, for the CMake package: the
# packages it finds again (libyaml, zlib, GSL, ISA-L, Nettle), and HDF5 (C
# and HL) and the OpenMP runtime as the very libraries this build used, so
# that a consumer gets the same HDF5 flavour (serial or MPI) and needs
# neither FindHDF5 nor FindOpenMP, which want a C compiler in a C++ project.
set(PASCAL_CONFIG_LINK)
foreach(target hdf5::hdf5_hl hdf5::hdf5)
  get_target_property(location ${target} IMPORTED_LOCATION)
  list(APPEND PASCAL_CONFIG_LINK ${location})
endforeach()
list(APPEND PASCAL_CONFIG_LINK ${OpenMP_C_LIBRARIES} m)
set(PASCAL_CONFIG_SHARED ${PASCAL_SHARED})
set(PASCAL_CONFIG_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})

# The CMake package: pascal::pascal, pascal::model (static), and
# pascal::pascal_shared, pascal::model_shared when built.
set(PASCAL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pascal)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/pascalConfig.cmake.in
  ${CMAKE_BINARY_DIR}/pascalConfig.cmake INSTALL_DESTINATION ${PASCAL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_DATADIR)
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
configure_file(${CMAKE_SOURCE_DIR}/cmake/pascal-model.pc.in ${CMAKE_BINARY_DIR}/pascal-model.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pascal.pc ${CMAKE_BINARY_DIR}/pascal-model.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

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
