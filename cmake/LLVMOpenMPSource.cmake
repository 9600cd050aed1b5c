# Locate the pristine LLVM 16.0.6 sources that both libomp variants build from.
#
# Cache variables:
#   OMPEXT_LLVM_SOURCE_DIR  an existing llvm-project 16.0.6 tree (checkout or
#                           release tarball); when set, nothing is downloaded.
#   OMPEXT_LLVM_CACHE_DIR   where cmake/fetch-llvm-source.sh keeps the
#                           downloaded Debian orig tarball and the unpacked
#                           subset of it (default: <repo>/.cache/llvm).
#
# Sets (normal variables):
#   OMPEXT_LLVM_ROOT        top of the LLVM tree (has openmp/, cmake/, llvm/)
#   OMPEXT_LLVM_OPENMP_SRC  ${OMPEXT_LLVM_ROOT}/openmp (never modified)
include_guard(GLOBAL)

set(OMPEXT_LLVM_SOURCE_DIR "" CACHE PATH
  "Existing llvm-project 16.0.6 source tree; skips downloading the Debian source package")
set(OMPEXT_LLVM_CACHE_DIR "${PROJECT_SOURCE_DIR}/.cache/llvm" CACHE PATH
  "Download/unpack cache for the LLVM 16.0.6 sources")

set(_ompext_llvm_expected_version "16.0.6")

# Reads the LLVM version of a tree as cheaply as possible; empty if unknown.
function(_ompext_llvm_tree_version root out_var)
  set(_ver "")
  if(EXISTS "${root}/llvm/utils/lit/lit/__init__.py")
    file(STRINGS "${root}/llvm/utils/lit/lit/__init__.py" _line
      REGEX "^__versioninfo__[ \t]*=" LIMIT_COUNT 1)
    if(_line MATCHES "\\(([0-9]+),[ \t]*([0-9]+),[ \t]*([0-9]+)\\)")
      set(_ver "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
    endif()
  endif()
  if(_ver STREQUAL "" AND EXISTS "${root}/llvm/CMakeLists.txt")
    file(STRINGS "${root}/llvm/CMakeLists.txt" _lines
      REGEX "set\\(LLVM_VERSION_(MAJOR|MINOR|PATCH) [0-9]+\\)")
    foreach(_part MAJOR MINOR PATCH)
      string(REGEX MATCH "LLVM_VERSION_${_part} ([0-9]+)" _m "${_lines}")
      set(_${_part} "${CMAKE_MATCH_1}")
    endforeach()
    if(NOT _MAJOR STREQUAL "" AND NOT _MINOR STREQUAL "" AND NOT _PATCH STREQUAL "")
      set(_ver "${_MAJOR}.${_MINOR}.${_PATCH}")
    endif()
  endif()
  set(${out_var} "${_ver}" PARENT_SCOPE)
endfunction()

if(OMPEXT_LLVM_SOURCE_DIR)
  get_filename_component(_root "${OMPEXT_LLVM_SOURCE_DIR}" ABSOLUTE)
  if(NOT EXISTS "${_root}/openmp/runtime/src/kmp.h")
    message(FATAL_ERROR
      "OMPEXT_LLVM_SOURCE_DIR=${OMPEXT_LLVM_SOURCE_DIR} is not an llvm-project "
      "tree: ${_root}/openmp/runtime/src/kmp.h does not exist. Point it at the "
      "top of an llvm-project 16.0.6 checkout, or leave it empty to download "
      "the sources automatically.")
  endif()
  if(NOT EXISTS "${_root}/cmake/Modules")
    message(FATAL_ERROR
      "OMPEXT_LLVM_SOURCE_DIR=${OMPEXT_LLVM_SOURCE_DIR}: ${_root}/cmake/Modules "
      "is missing; the standalone openmp build needs the top-level cmake/ "
      "directory of llvm-project next to openmp/.")
  endif()
  _ompext_llvm_tree_version("${_root}" _ver)
  if(_ver STREQUAL "")
    message(WARNING
      "Could not determine the LLVM version of ${_root}; omp-ext expects "
      "${_ompext_llvm_expected_version} and its patches may not apply.")
  elseif(NOT _ver STREQUAL _ompext_llvm_expected_version)
    message(WARNING
      "${_root} is LLVM ${_ver}, omp-ext expects "
      "${_ompext_llvm_expected_version}; its patches may not apply.")
  endif()
  message(STATUS "omp-ext: LLVM sources (user-provided): ${_root}")
else()
  get_filename_component(_cache "${OMPEXT_LLVM_CACHE_DIR}" ABSOLUTE
    BASE_DIR "${CMAKE_BINARY_DIR}")
  set(_root "${_cache}/llvm-toolchain-16_16.0.6")
  if(NOT EXISTS "${_root}.extracted" OR NOT EXISTS "${_root}/openmp/runtime/src/kmp.h")
    find_program(OMPEXT_BASH bash REQUIRED)
    message(STATUS "omp-ext: fetching the LLVM 16.0.6 sources into ${_cache}")
    execute_process(
      COMMAND "${OMPEXT_BASH}" "${CMAKE_CURRENT_LIST_DIR}/fetch-llvm-source.sh" "${_cache}"
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "omp-ext: no LLVM sources (see the message above).")
    endif()
  endif()
  message(STATUS "omp-ext: LLVM sources: ${_root}")
endif()

set(OMPEXT_LLVM_ROOT "${_root}")
set(OMPEXT_LLVM_OPENMP_SRC "${_root}/openmp")
unset(_root)
unset(_cache)
unset(_ver)
unset(_rc)
