# Locate the pristine LLVM sources that both libomp variants build from.
#
# Cache variables:
#   OMPEXT_LLVM_VERSION     the LLVM release to build: 19.1.7 (default) or
#                           16.0.6.  Selects the Debian source package, its
#                           version, tarball, checksum and top directory.
#   OMPEXT_LLVM_SOURCE_DIR  an existing llvm-project tree (checkout or release
#                           tarball); when set, nothing is downloaded and the
#                           release is read from the tree (it must be one of
#                           the supported ones; OMPEXT_LLVM_VERSION is then
#                           ignored).
#   OMPEXT_LLVM_CACHE_DIR   where cmake/fetch-llvm-source.sh keeps the
#                           downloaded Debian orig tarballs and the unpacked
#                           subsets of them (default: <repo>/.cache/llvm).
#
# Sets (normal variables):
#   OMPEXT_LLVM_ROOT        top of the LLVM tree (has openmp/, cmake/, llvm/)
#   OMPEXT_LLVM_OPENMP_SRC  ${OMPEXT_LLVM_ROOT}/openmp (never modified)
#   OMPEXT_LLVM_RELEASE     the release both runtimes are built from, "19.1.7"
#   OMPEXT_LLVM_RELEASE_MAJOR, _MINOR, _PATCH   its three numbers
include_guard(GLOBAL)

# The supported releases, newest first: the first is the default.
set(OMPEXT_LLVM_SUPPORTED_VERSIONS 19.1.7 16.0.6)

# _ompext_llvm_release_facts(<release>): the Debian source package of a
# supported release (_deb_pkg, _deb_version, _tarball, _sha256, _topdir).
function(_ompext_llvm_release_facts release)
  if(release STREQUAL "19.1.7")
    set(pkg llvm-toolchain-19)
    set(ver 1:19.1.7-3~deb12u1)
    set(sha ae498f3bc58ae2d9f64ef5f0c035c4240152bf015a5b7738b15c22e93bdc97ce)
  elseif(release STREQUAL "16.0.6")
    set(pkg llvm-toolchain-16)
    set(ver 1:16.0.6-15~deb12u1)
    set(sha 5ab98480d3bc9f1896de1a1afafb46c318a9baa02bf21a4f6830c644d06c1cc0)
  else()
    message(FATAL_ERROR "_ompext_llvm_release_facts: ${release} is not supported")
  endif()
  set(_deb_pkg "${pkg}" PARENT_SCOPE)
  set(_deb_version "${ver}" PARENT_SCOPE)
  set(_tarball "${pkg}_${release}.orig.tar.xz" PARENT_SCOPE)
  set(_sha256 "${sha}" PARENT_SCOPE)
  set(_topdir "${pkg}_${release}" PARENT_SCOPE)
endfunction()

list(GET OMPEXT_LLVM_SUPPORTED_VERSIONS 0 _ompext_llvm_default)
set(OMPEXT_LLVM_VERSION "${_ompext_llvm_default}" CACHE STRING
  "LLVM release both libomp runtimes are built from (${OMPEXT_LLVM_SUPPORTED_VERSIONS})")
set_property(CACHE OMPEXT_LLVM_VERSION PROPERTY STRINGS ${OMPEXT_LLVM_SUPPORTED_VERSIONS})
set(OMPEXT_LLVM_SOURCE_DIR "" CACHE PATH
  "Existing llvm-project source tree of a supported release; skips downloading the Debian source package")
set(OMPEXT_LLVM_CACHE_DIR "${PROJECT_SOURCE_DIR}/.cache/llvm" CACHE PATH
  "Download/unpack cache for the LLVM sources")

string(REPLACE ";" ", " _ompext_llvm_supported_text "${OMPEXT_LLVM_SUPPORTED_VERSIONS}")

# Reads the LLVM release of a tree as cheaply as possible; empty if unknown.
# The top-level cmake/Modules/LLVMVersion.cmake (LLVM 18 on), then
# llvm/CMakeLists.txt (up to LLVM 17), then lit's own version.
function(_ompext_llvm_tree_version root out_var)
  set(_ver "")
  foreach(_file "${root}/cmake/Modules/LLVMVersion.cmake" "${root}/llvm/CMakeLists.txt")
    if(NOT _ver STREQUAL "" OR NOT EXISTS "${_file}")
      continue()
    endif()
    file(STRINGS "${_file}" _lines
      REGEX "set\\(LLVM_VERSION_(MAJOR|MINOR|PATCH) [0-9]+\\)")
    foreach(_part MAJOR MINOR PATCH)
      set(_${_part} "")
      if(_lines MATCHES "LLVM_VERSION_${_part} ([0-9]+)")
        set(_${_part} "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    if(NOT _MAJOR STREQUAL "" AND NOT _MINOR STREQUAL "" AND NOT _PATCH STREQUAL "")
      set(_ver "${_MAJOR}.${_MINOR}.${_PATCH}")
    endif()
  endforeach()
  if(_ver STREQUAL "" AND EXISTS "${root}/llvm/utils/lit/lit/__init__.py")
    file(STRINGS "${root}/llvm/utils/lit/lit/__init__.py" _line
      REGEX "^__versioninfo__[ \t]*=" LIMIT_COUNT 1)
    if(_line MATCHES "\\(([0-9]+),[ \t]*([0-9]+),[ \t]*([0-9]+)\\)")
      set(_ver "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3}")
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
      "top of an llvm-project checkout of one of ${_ompext_llvm_supported_text}, "
      "or leave it empty to download the sources automatically.")
  endif()
  if(NOT EXISTS "${_root}/cmake/Modules")
    message(FATAL_ERROR
      "OMPEXT_LLVM_SOURCE_DIR=${OMPEXT_LLVM_SOURCE_DIR}: ${_root}/cmake/Modules "
      "is missing; the standalone openmp build needs the top-level cmake/ "
      "directory of llvm-project next to openmp/.")
  endif()
  _ompext_llvm_tree_version("${_root}" _ver)
  if(_ver STREQUAL "")
    message(FATAL_ERROR
      "OMPEXT_LLVM_SOURCE_DIR=${OMPEXT_LLVM_SOURCE_DIR}: cannot tell which LLVM "
      "release this tree is (no LLVM_VERSION_MAJOR/MINOR/PATCH in "
      "cmake/Modules/LLVMVersion.cmake or llvm/CMakeLists.txt). omp-ext "
      "supports ${_ompext_llvm_supported_text}.")
  endif()
  if(NOT _ver IN_LIST OMPEXT_LLVM_SUPPORTED_VERSIONS)
    message(FATAL_ERROR
      "OMPEXT_LLVM_SOURCE_DIR=${OMPEXT_LLVM_SOURCE_DIR} is LLVM ${_ver}; omp-ext "
      "supports ${_ompext_llvm_supported_text} only (its patches are applied "
      "without fuzz and are not made for other releases). Point it at a tree "
      "of a supported release, or leave it empty to download one.")
  endif()
  if(NOT _ver STREQUAL OMPEXT_LLVM_VERSION)
    message(STATUS "omp-ext: OMPEXT_LLVM_VERSION=${OMPEXT_LLVM_VERSION} is "
                   "ignored: OMPEXT_LLVM_SOURCE_DIR is LLVM ${_ver}")
  endif()
  set(OMPEXT_LLVM_RELEASE "${_ver}")
  message(STATUS "omp-ext: LLVM ${_ver} sources (user-provided): ${_root}")
else()
  if(NOT OMPEXT_LLVM_VERSION IN_LIST OMPEXT_LLVM_SUPPORTED_VERSIONS)
    message(FATAL_ERROR
      "OMPEXT_LLVM_VERSION=${OMPEXT_LLVM_VERSION} is not supported; choose one "
      "of ${_ompext_llvm_supported_text}.")
  endif()
  set(OMPEXT_LLVM_RELEASE "${OMPEXT_LLVM_VERSION}")
  _ompext_llvm_release_facts("${OMPEXT_LLVM_RELEASE}")
  get_filename_component(_cache "${OMPEXT_LLVM_CACHE_DIR}" ABSOLUTE
    BASE_DIR "${CMAKE_BINARY_DIR}")
  set(_root "${_cache}/${_topdir}")
  if(NOT EXISTS "${_root}.extracted" OR NOT EXISTS "${_root}/openmp/runtime/src/kmp.h")
    find_program(OMPEXT_BASH bash REQUIRED)
    message(STATUS "omp-ext: fetching the LLVM ${OMPEXT_LLVM_RELEASE} sources into ${_cache}")
    execute_process(
      COMMAND "${OMPEXT_BASH}" "${CMAKE_CURRENT_LIST_DIR}/fetch-llvm-source.sh"
              "${_cache}" "${OMPEXT_LLVM_RELEASE}" "${_deb_pkg}" "${_deb_version}"
              "${_tarball}" "${_sha256}" "${_topdir}"
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "omp-ext: no LLVM sources (see the message above).")
    endif()
  endif()
  message(STATUS "omp-ext: LLVM ${OMPEXT_LLVM_RELEASE} sources: ${_root}")
endif()

string(REPLACE "." ";" _parts "${OMPEXT_LLVM_RELEASE}")
list(GET _parts 0 OMPEXT_LLVM_RELEASE_MAJOR)
list(GET _parts 1 OMPEXT_LLVM_RELEASE_MINOR)
list(GET _parts 2 OMPEXT_LLVM_RELEASE_PATCH)

set(OMPEXT_LLVM_ROOT "${_root}")
set(OMPEXT_LLVM_OPENMP_SRC "${_root}/openmp")
foreach(_v _root _cache _ver _rc _parts _deb_pkg _deb_version _tarball _sha256 _topdir)
  unset(${_v})
endforeach()
