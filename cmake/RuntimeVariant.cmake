# Build variants of the LLVM OpenMP runtime (libomp) with ExternalProject and
# stage them for use through LD_LIBRARY_PATH.
#
#   ompext_add_runtime_variant(<variant>
#     TARGET <target>            # e.g. libomp-stock
#     [PATCH_SERIES <file>])     # quilt-style series; patches live next to it
#
# Without PATCH_SERIES the runtime is built straight from the pristine tree
# ${OMPEXT_LLVM_OPENMP_SRC}, which is never modified. With PATCH_SERIES a copy
# of the pristine openmp/ tree is made in
# ${CMAKE_BINARY_DIR}/<variant>-src-<release>/ and the patches are applied to
# it in series order (patch -p1 --fuzz=0, relative to the LLVM top
# directory), so that any drift of the upstream context fails loudly. A patch
# <name> listed in the series is read from <series dir>/<release>/<name> when
# that file exists (the per-release override, for the places where releases
# truly diverge), otherwise from <series dir>/<name>. The copy is re-made
# whenever the series file or any file in its directory changes; only files
# whose contents changed are rewritten, so the runtime build stays
# incremental.
#
# Layout (in ${CMAKE_BINARY_DIR}):
#   runtime-<variant>-<release>/   the runtime's own CMake/Ninja build
#                          directory (one per release, so switching
#                          OMPEXT_LLVM_VERSION keeps both builds)
#   <variant>/lib/         libomp.so (copy) and the symlinks libomp.so.5,
#                          libgomp.so.1, libiomp5.so -> libomp.so
#
# The common runtime configuration comes from these variables, set before the
# call (see the top-level CMakeLists.txt):
#   OMPEXT_LLVM_ROOT, OMPEXT_LLVM_OPENMP_SRC,
#   OMPEXT_LLVM_RELEASE                        (cmake/LLVMOpenMPSource.cmake)
#   OMPEXT_RUNTIME_COMMON_ARGS                 (list of -D... arguments)
#
# Each variant <variant> sets OMPEXT_<VARIANT>_RUNTIME_BUILD_DIR and
# OMPEXT_<VARIANT>_LIBOMP (the staged libomp.so) in the caller's scope.
#
# This file doubles as a CMake script (cmake -P) that applies the patches;
# the build calls it that way.

if(CMAKE_SCRIPT_MODE_FILE AND OMPEXT_APPLY_PATCHES)
  # --------------------------------------------------------------------------
  # Script mode: make <DEST>/openmp = pristine openmp + patches.
  # Inputs: LLVM_ROOT, RELEASE, SERIES, DEST, STAMP, PATCH_PROGRAM
  # --------------------------------------------------------------------------
  cmake_minimum_required(VERSION 3.20)
  foreach(_v LLVM_ROOT RELEASE SERIES DEST STAMP PATCH_PROGRAM)
    if(NOT DEFINED ${_v})
      message(FATAL_ERROR "RuntimeVariant.cmake: ${_v} not set")
    endif()
  endforeach()

  get_filename_component(_patch_dir "${SERIES}" DIRECTORY)
  set(_stage "${DEST}/.staging")
  set(_live "${DEST}/openmp")

  # Fresh pristine copy (file(COPY) keeps timestamps and permissions).
  file(REMOVE_RECURSE "${_stage}")
  file(MAKE_DIRECTORY "${_stage}")
  file(COPY "${LLVM_ROOT}/openmp" DESTINATION "${_stage}")

  # Parse the series: one patch per line, '#' starts a comment.
  set(_patches "")
  if(EXISTS "${SERIES}")
    file(STRINGS "${SERIES}" _lines)
    foreach(_line IN LISTS _lines)
      string(REGEX REPLACE "#.*$" "" _line "${_line}")
      string(STRIP "${_line}" _line)
      if(_line STREQUAL "")
        continue()
      endif()
      # Only the first word names the patch (quilt allows options after it).
      string(REGEX REPLACE "[ \t].*$" "" _name "${_line}")
      list(APPEND _patches "${_name}")
    endforeach()
  endif()

  list(LENGTH _patches _npatches)
  set(_applied "")
  foreach(_name IN LISTS _patches)
    set(_file "${_patch_dir}/${_name}")
    if(EXISTS "${_patch_dir}/${RELEASE}/${_name}")
      set(_file "${_patch_dir}/${RELEASE}/${_name}")
    endif()
    if(NOT EXISTS "${_file}")
      file(REMOVE_RECURSE "${_stage}")
      message(FATAL_ERROR
        "omp-ext: patch '${_name}' is listed in ${SERIES} but ${_file} does "
        "not exist. The ext runtime was not built.")
    endif()
    execute_process(
      COMMAND "${PATCH_PROGRAM}" -p1 --fuzz=0 --forward --batch
              --no-backup-if-mismatch --reject-file=- -i "${_file}"
      WORKING_DIRECTORY "${_stage}"
      RESULT_VARIABLE _rc
      OUTPUT_VARIABLE _out
      ERROR_VARIABLE _out)
    if(NOT _rc EQUAL 0)
      file(REMOVE_RECURSE "${_stage}")
      message(FATAL_ERROR
        "omp-ext: patch '${_name}' (${_file}) does not apply to the pristine "
        "LLVM ${RELEASE} openmp tree (patches are applied with patch -p1 "
        "--fuzz=0 from the LLVM top directory, in the order of ${SERIES}; a "
        "release that diverges takes an override of the same name in "
        "${_patch_dir}/${RELEASE}/). The ext runtime was not built. patch "
        "said:\n${_out}")
    endif()
    file(RELATIVE_PATH _rel "${_patch_dir}" "${_file}")
    list(APPEND _applied "${_rel}")
  endforeach()

  # Sync the staging tree into the live tree: rewrite (and touch) only files
  # whose content differs, so Ninja rebuilds exactly what the patches changed,
  # including files that went back to pristine when a patch was dropped.
  file(GLOB_RECURSE _new RELATIVE "${_stage}/openmp" LIST_DIRECTORIES false
    "${_stage}/openmp/*")
  set(_old "")
  if(IS_DIRECTORY "${_live}")
    file(GLOB_RECURSE _old RELATIVE "${_live}" LIST_DIRECTORIES false "${_live}/*")
  endif()
  if(_old STREQUAL "")
    file(REMOVE_RECURSE "${_live}")
    file(RENAME "${_stage}/openmp" "${_live}")
    set(_nchanged "all")
  else()
    set(_nchanged 0)
    foreach(_f IN LISTS _new)
      set(_src "${_stage}/openmp/${_f}")
      set(_dst "${_live}/${_f}")
      if(EXISTS "${_dst}")
        file(SHA256 "${_src}" _h1)
        file(SHA256 "${_dst}" _h2)
        if(_h1 STREQUAL _h2)
          continue()
        endif()
      endif()
      get_filename_component(_dir "${_dst}" DIRECTORY)
      file(COPY "${_src}" DESTINATION "${_dir}")
      file(TOUCH_NOCREATE "${_dst}")
      math(EXPR _nchanged "${_nchanged} + 1")
    endforeach()
    foreach(_f IN LISTS _new)
      set("_in_new:${_f}" 1)
    endforeach()
    foreach(_f IN LISTS _old)
      if(NOT DEFINED "_in_new:${_f}")
        file(REMOVE "${_live}/${_f}")
        math(EXPR _nchanged "${_nchanged} + 1")
      endif()
    endforeach()
  endif()
  file(REMOVE_RECURSE "${_stage}")

  # The standalone openmp build looks for ../cmake (and LLVM bits in ../llvm).
  foreach(_sib cmake llvm)
    file(REMOVE "${DEST}/${_sib}")
    file(CREATE_LINK "${LLVM_ROOT}/${_sib}" "${DEST}/${_sib}" SYMBOLIC)
  endforeach()

  message(STATUS "omp-ext: ${_npatches} patch(es) applied to ${_live} "
                 "(LLVM ${RELEASE}; ${_nchanged} file(s) updated)")
  file(WRITE "${STAMP}" "${_applied}\n")
  return()
endif()

if(CMAKE_SCRIPT_MODE_FILE AND OMPEXT_STAGE_RUNTIME)
  # --------------------------------------------------------------------------
  # Script mode: stage BUILT_LIB as STAGE_DIR/libomp.so plus the alias links.
  # Replaces files atomically (rename) and only when they changed, so that
  # programs running from the staged directory are never disturbed.
  # --------------------------------------------------------------------------
  cmake_minimum_required(VERSION 3.20)
  set(_dst "${STAGE_DIR}/libomp.so")
  file(MAKE_DIRECTORY "${STAGE_DIR}")
  set(_same FALSE)
  if(EXISTS "${_dst}" AND NOT IS_SYMLINK "${_dst}")
    file(SHA256 "${BUILT_LIB}" _h1)
    file(SHA256 "${_dst}" _h2)
    if(_h1 STREQUAL _h2)
      set(_same TRUE)
    endif()
  endif()
  if(NOT _same)
    set(_tmp "${STAGE_DIR}/.staging")
    file(REMOVE_RECURSE "${_tmp}")
    file(COPY "${BUILT_LIB}" DESTINATION "${_tmp}")
    get_filename_component(_name "${BUILT_LIB}" NAME)
    file(RENAME "${_tmp}/${_name}" "${_dst}")
    file(REMOVE_RECURSE "${_tmp}")
    message(STATUS "omp-ext: staged ${_dst}")
  endif()
  foreach(_l libomp.so.5 libgomp.so.1 libiomp5.so)
    set(_link "${STAGE_DIR}/${_l}")
    if(IS_SYMLINK "${_link}")
      file(READ_SYMLINK "${_link}" _target)
      if(_target STREQUAL "libomp.so")
        continue()
      endif()
    endif()
    file(REMOVE "${_link}.tmp")
    file(CREATE_LINK "libomp.so" "${_link}.tmp" SYMBOLIC)
    file(RENAME "${_link}.tmp" "${_link}")
  endforeach()
  return()
endif()

# ----------------------------------------------------------------------------
# Include mode.
# ----------------------------------------------------------------------------
include_guard(GLOBAL)
include(ExternalProject)

set(_ompext_runtime_variant_file "${CMAKE_CURRENT_LIST_FILE}")

function(ompext_add_runtime_variant variant)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TARGET;PATCH_SERIES" "")
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "ompext_add_runtime_variant(${variant}): TARGET missing")
  endif()
  if(NOT OMPEXT_LLVM_OPENMP_SRC)
    message(FATAL_ERROR "ompext_add_runtime_variant: include LLVMOpenMPSource first")
  endif()

  set(build_dir "${CMAKE_BINARY_DIR}/runtime-${variant}-${OMPEXT_LLVM_RELEASE}")
  set(stage_dir "${CMAKE_BINARY_DIR}/${variant}/lib")
  set(depends "")

  if(ARG_PATCH_SERIES)
    get_filename_component(series "${ARG_PATCH_SERIES}" ABSOLUTE)
    get_filename_component(patch_dir "${series}" DIRECTORY)
    set(src_root "${CMAKE_BINARY_DIR}/${variant}-src-${OMPEXT_LLVM_RELEASE}")
    set(source_dir "${src_root}/openmp")
    set(stamp "${src_root}/patched.stamp")
    file(MAKE_DIRECTORY "${src_root}")

    find_program(OMPEXT_PATCH_PROGRAM patch REQUIRED)

    # Any file appearing, disappearing or changing in the patch directory
    # or in its override for this release (series included) re-makes the
    # patched copy.
    file(GLOB patch_files CONFIGURE_DEPENDS LIST_DIRECTORIES false
      "${patch_dir}/*" "${patch_dir}/${OMPEXT_LLVM_RELEASE}/*")
    # Re-make it too when the pristine tree moves (OMPEXT_LLVM_SOURCE_DIR).
    set(origin "${src_root}/origin.txt")
    file(CONFIGURE OUTPUT "${origin}" CONTENT "${OMPEXT_LLVM_ROOT}\n")

    add_custom_command(
      OUTPUT "${stamp}"
      COMMAND "${CMAKE_COMMAND}"
              -DOMPEXT_APPLY_PATCHES=ON
              "-DLLVM_ROOT=${OMPEXT_LLVM_ROOT}"
              "-DRELEASE=${OMPEXT_LLVM_RELEASE}"
              "-DSERIES=${series}"
              "-DDEST=${src_root}"
              "-DSTAMP=${stamp}"
              "-DPATCH_PROGRAM=${OMPEXT_PATCH_PROGRAM}"
              -P "${_ompext_runtime_variant_file}"
      DEPENDS ${patch_files} "${origin}" "${_ompext_runtime_variant_file}"
      COMMENT "Applying the patches of ${series} to a copy of the openmp sources (${variant})"
      VERBATIM)
    add_custom_target(${ARG_TARGET}-source DEPENDS "${stamp}")
    list(APPEND depends ${ARG_TARGET}-source)
  else()
    set(source_dir "${OMPEXT_LLVM_OPENMP_SRC}")
  endif()

  set(jobs_args "")
  if(OMPEXT_RUNTIME_JOBS)
    set(jobs_args --parallel ${OMPEXT_RUNTIME_JOBS})
  endif()

  set(built_lib "${build_dir}/runtime/src/libomp.so")
  set(staged "${stage_dir}/libomp.so")
  set(links libomp.so.5 libgomp.so.1 libiomp5.so)
  set(byproducts "${staged}")
  foreach(l IN LISTS links)
    list(APPEND byproducts "${stage_dir}/${l}")
  endforeach()

  # __FILE__ strings (assertion messages) name "openmp/..." instead of the
  # variant's source location, so that both variants compile to the same
  # bytes unless the patches change something.
  set(path_map "-ffile-prefix-map=${source_dir}=openmp")
  set(variant_args
    "-DCMAKE_C_FLAGS=${path_map}"
    "-DCMAKE_CXX_FLAGS=${path_map}")

  ExternalProject_Add(${ARG_TARGET}
    PREFIX "${build_dir}/ep"
    SOURCE_DIR "${source_dir}"
    BINARY_DIR "${build_dir}"
    DOWNLOAD_COMMAND ""
    UPDATE_COMMAND ""
    PATCH_COMMAND ""
    DEPENDS ${depends}
    CMAKE_GENERATOR Ninja
    # "|" separates the items of a list inside one -D argument.
    LIST_SEPARATOR "|"
    CMAKE_ARGS ${variant_args} ${OMPEXT_RUNTIME_COMMON_ARGS}
    # Only the runtime library itself; staging is part of the build step so
    # that the staged files are proper byproducts others can depend on.
    BUILD_COMMAND "${CMAKE_COMMAND}" --build "${build_dir}" --target omp ${jobs_args}
          COMMAND "${CMAKE_COMMAND}" -DOMPEXT_STAGE_RUNTIME=ON
                  "-DBUILT_LIB=${built_lib}" "-DSTAGE_DIR=${stage_dir}"
                  -P "${_ompext_runtime_variant_file}"
    BUILD_BYPRODUCTS ${byproducts}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    TEST_COMMAND ""
    # The console pool runs one runtime build at a time, each using all
    # cores through its own Ninja, and shows its progress live.
    USES_TERMINAL_CONFIGURE ON
    USES_TERMINAL_BUILD ON
    LOG_CONFIGURE OFF
    LOG_BUILD OFF)

  string(TOUPPER "${variant}" V)
  set(OMPEXT_${V}_RUNTIME_BUILD_DIR "${build_dir}" PARENT_SCOPE)
  set(OMPEXT_${V}_RUNTIME_SOURCE_DIR "${source_dir}" PARENT_SCOPE)
  set(OMPEXT_${V}_LIBOMP "${staged}" PARENT_SCOPE)
endfunction()
