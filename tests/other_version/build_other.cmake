# cmake -P script: configure and build omp-ext on another LLVM release.
# Inputs: SOURCE_DIR, BINARY_DIR, RELEASE, CACHE_DIR, C_COMPILER,
# CXX_COMPILER, BUILD_TYPE.
cmake_minimum_required(VERSION 3.20)
foreach(v SOURCE_DIR BINARY_DIR RELEASE CACHE_DIR C_COMPILER CXX_COMPILER)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "build_other.cmake: ${v} not set")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()

execute_process(
  COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BINARY_DIR}" -G Ninja
          "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
          "-DCMAKE_C_COMPILER=${C_COMPILER}"
          "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
          "-DOMPEXT_LLVM_VERSION=${RELEASE}"
          "-DOMPEXT_LLVM_SOURCE_DIR="
          "-DOMPEXT_LLVM_CACHE_DIR=${CACHE_DIR}"
          -DOMPEXT_TEST_OTHER_VERSION=OFF
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring omp-ext on LLVM ${RELEASE} failed (${rc})")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} --build "${BINARY_DIR}" --parallel 2
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building omp-ext on LLVM ${RELEASE} failed (${rc})")
endif()
