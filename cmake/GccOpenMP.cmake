# Build OpenMP programs with gcc (libgomp ABI: GOMP_* entry points), while
# the project itself is compiled with clang.
#
#   ompext_add_gcc_openmp_executable(<name> <source>...
#     [INCLUDES <dir>...]        # -I directories
#     [DEFINES <NAME[=value]>...] # -D definitions
#     [OPTIONS <flag>...]        # extra compile flags (e.g. -Wall, -march=native)
#     [LIBS <lib-or-flag>...]    # link items, e.g. -ldl -lm, or full paths
#     [DEPENDS <target-or-file>...] # extra build dependencies
#     [OUTPUT_VARIABLE <var>])   # receives the path of the executable
#
# Every source is compiled with `gcc -O2 -fopenmp -std=c11` into an object
# (header dependencies tracked through a depfile), then linked with
# `gcc -fopenmp` into ${OMPEXT_BIN_DIR}/<name>. A custom target <name>, part
# of ALL, builds it; its OMPEXT_EXECUTABLE property holds the output path, so
# tests can use $<TARGET_PROPERTY:<name>,OMPEXT_EXECUTABLE>.
#
# The program links libgomp.so.1; running it with
# LD_LIBRARY_PATH=${OMPEXT_STOCK_LIB_DIR} (or ${OMPEXT_EXT_LIB_DIR}) makes it
# use libomp's libgomp.so.1 alias instead.
include_guard(GLOBAL)

find_program(OMPEXT_GCC NAMES gcc REQUIRED
  DOC "GNU C compiler used for the gcc-built OpenMP programs")

function(ompext_add_gcc_openmp_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG
    "" "OUTPUT_VARIABLE" "INCLUDES;DEFINES;OPTIONS;LIBS;DEPENDS")
  set(sources ${ARG_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "ompext_add_gcc_openmp_executable(${name}): no sources")
  endif()
  if(NOT OMPEXT_BIN_DIR)
    message(FATAL_ERROR "ompext_add_gcc_openmp_executable: OMPEXT_BIN_DIR is not set")
  endif()

  set(out "${OMPEXT_BIN_DIR}/${name}")
  set(obj_dir "${CMAKE_CURRENT_BINARY_DIR}/gcc-openmp/${name}")
  file(MAKE_DIRECTORY "${obj_dir}")

  set(cflags -O2 -fopenmp -std=c11)
  foreach(d IN LISTS ARG_INCLUDES)
    get_filename_component(d "${d}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND cflags "-I${d}")
  endforeach()
  foreach(d IN LISTS ARG_DEFINES)
    list(APPEND cflags "-D${d}")
  endforeach()
  list(APPEND cflags ${ARG_OPTIONS})

  # Keep target-level DEPENDS separate from file-level ones.
  set(dep_targets "")
  set(dep_files "")
  foreach(d IN LISTS ARG_DEPENDS)
    if(TARGET "${d}")
      list(APPEND dep_targets "${d}")
    else()
      get_filename_component(d "${d}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND dep_files "${d}")
    endif()
  endforeach()

  set(objects "")
  set(counter 0)
  foreach(src IN LISTS sources)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(base "${src}" NAME_WE)
    # Prefix with an index so equal basenames from different dirs don't clash.
    set(obj "${obj_dir}/${counter}-${base}.o")
    math(EXPR counter "${counter} + 1")
    file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${src}")
    add_custom_command(
      OUTPUT "${obj}"
      COMMAND "${OMPEXT_GCC}" ${cflags} -MMD -MF "${obj}.d" -MT "${obj}"
              -c "${src}" -o "${obj}"
      DEPENDS "${src}" ${dep_files}
      DEPFILE "${obj}.d"
      COMMENT "Building C object ${rel} with gcc -fopenmp (${name})"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()

  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${OMPEXT_BIN_DIR}"
    COMMAND "${OMPEXT_GCC}" -O2 -fopenmp ${ARG_OPTIONS} ${objects} -o "${out}" ${ARG_LIBS}
    DEPENDS ${objects}
    COMMENT "Linking gcc OpenMP executable ${name}"
    COMMAND_EXPAND_LISTS
    VERBATIM)

  add_custom_target(${name} ALL DEPENDS "${out}")
  if(dep_targets)
    add_dependencies(${name} ${dep_targets})
  endif()
  set_target_properties(${name} PROPERTIES OMPEXT_EXECUTABLE "${out}")
  if(ARG_OUTPUT_VARIABLE)
    set(${ARG_OUTPUT_VARIABLE} "${out}" PARENT_SCOPE)
  endif()
endfunction()
