# Spot-check kernels and their runner (docs/kernels.md), included from the
# top-level CMakeLists.txt so that the CUDA language is enabled at the top
# directory, before any CUDA target.
#
# PASCAL_CUDA: AUTO builds the CUDA pieces when nvcc is found, ON requires
# it, OFF never builds them.  Whatever the choice, the `pascal` executable
# links pascal_kernels: the ncu report parser (kernels/*.c, no CUDA, tested
# everywhere), the measuring session (kernels/runner) and the CUDA runner,
# or a stub whose commands explain why nothing can be measured and exit
# with status 2.  pascal_kernels needs only common/ (not libpascal): the
# host-side driver that uses the engine is spot/.  CUPTI is
# optional: without it the runner counts fills through ncu.

set_property(CACHE PASCAL_CUDA PROPERTY STRINGS AUTO ON OFF)
string(TOUPPER "${PASCAL_CUDA}" pascal_cuda_mode)
if(NOT pascal_cuda_mode MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "PASCAL_CUDA: expected AUTO, ON or OFF, got \"${PASCAL_CUDA}\"")
endif()

set(PASCAL_CUDA_ENABLED OFF)
if(NOT pascal_cuda_mode STREQUAL "OFF")
  include(CheckLanguage)
  # check_language looks on PATH only; the toolkit's usual home counts too.
  find_program(PASCAL_NVCC nvcc HINTS /usr/local/cuda/bin)
  if(PASCAL_NVCC AND NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    set(ENV{CUDACXX} ${PASCAL_NVCC})
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # H100/H200 (sm_90a) and GB10 (sm_121a, exactly: sm_120a cubins do not
    # load there).  Set before enable_language, which would pick a default.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "90a;121a")
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(PASCAL_CUDA_ENABLED ON)
  elseif(pascal_cuda_mode STREQUAL "ON")
    message(FATAL_ERROR "PASCAL_CUDA=ON but no CUDA compiler (nvcc) was found; "
                        "set CMAKE_CUDA_COMPILER or use PASCAL_CUDA=AUTO")
  endif()
endif()

file(GLOB PASCAL_KERNELS_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/*.c
     ${CMAKE_SOURCE_DIR}/kernels/runner/*.c)
if(PASCAL_CUDA_ENABLED)
  file(GLOB PASCAL_CUDA_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/cuda/*.cu
       ${CMAKE_SOURCE_DIR}/kernels/cuda/*.c)
  add_library(pascal_kernels STATIC ${PASCAL_KERNELS_SOURCES} ${PASCAL_CUDA_SOURCES})
  # The runtime only: never the driver stub, which cannot load without a
  # driver (the executable must start on machines without a GPU).
  target_link_libraries(pascal_kernels PUBLIC CUDA::cudart)
  if(TARGET CUDA::cupti)
    target_sources(pascal_kernels PRIVATE ${CMAKE_SOURCE_DIR}/kernels/cuda/meter_cupti.cpp)
    target_compile_definitions(pascal_kernels PRIVATE PASCAL_HAVE_CUPTI=1)
    target_link_libraries(pascal_kernels PRIVATE CUDA::cupti)
    message(STATUS "pascal: CUDA spot-check kernels for ${CMAKE_CUDA_ARCHITECTURES}, CUPTI meter")
  else()
    message(STATUS "pascal: CUDA spot-check kernels for ${CMAKE_CUDA_ARCHITECTURES}; "
                   "CUPTI not found, fills are counted through ncu")
  endif()
else()
  add_library(pascal_kernels STATIC ${PASCAL_KERNELS_SOURCES}
              ${CMAKE_SOURCE_DIR}/kernels/none/gpu_none.c)
  message(STATUS "pascal: no CUDA spot-check kernels (PASCAL_CUDA=${PASCAL_CUDA})")
endif()
target_link_libraries(pascal_kernels PUBLIC pascal_flags)
target_sources(pascal_kernels PRIVATE $<TARGET_OBJECTS:pascal_common_objs>)
target_compile_definitions(pascal_kernels PRIVATE _POSIX_C_SOURCE=200809L _DEFAULT_SOURCE)
target_compile_options(pascal_kernels PRIVATE ${PASCAL_WARNINGS})
target_link_libraries(pascal_cli PUBLIC pascal_kernels)
if(TARGET pascal-hooked)
  target_link_libraries(pascal-hooked PRIVATE pascal_kernels)
endif()
if(TARGET pascal_tests)
  target_link_libraries(pascal_tests PRIVATE pascal_kernels)
endif()
