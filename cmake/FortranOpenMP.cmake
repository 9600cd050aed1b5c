# Build Fortran OpenMP programs twice: by gfortran (libgomp's entry points:
# on stock and ext through libomp's libgomp.so.1, and on libgomp itself) and
# by LLVM's flang (libomp's entry points, as clang).  flang links libomp.so
# by that name, so its link takes the stock runtime's directory, and a run
# picks the runtime by LD_LIBRARY_PATH like every other program.
#
#   ompext_add_fortran_openmp_executable(<name> <source>...)
#
# (modules before the sources that use them; every program takes
# tests/fortran/count_argument.f90, its argument's reader, first)
# builds ${OMPEXT_BIN_DIR}/<name>-gfortran and <name>-flang (custom targets
# <name>_gfortran and <name>_flang, part of ALL), each with its own module
# directory, and sets <name>_gfortran and <name>_flang to their paths in the
# caller's scope.
include_guard(GLOBAL)

find_program(OMPEXT_GFORTRAN gfortran REQUIRED DOC "GNU Fortran (gfortran)")
find_program(OMPEXT_FLANG NAMES flang-new-19 flang-19 REQUIRED
  DOC "LLVM's Fortran compiler (flang-19)")

set(OMPEXT_FORTRAN_COUNT_ARGUMENT
  ${PROJECT_SOURCE_DIR}/tests/fortran/count_argument.f90)

function(ompext_add_fortran_openmp_executable name)
  set(src ${OMPEXT_FORTRAN_COUNT_ARGUMENT})
  foreach(source IN LISTS ARGN)
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND src ${source})
  endforeach()
  foreach(fc gfortran flang)
    set(out ${OMPEXT_BIN_DIR}/${name}-${fc})
    set(mods ${CMAKE_CURRENT_BINARY_DIR}/mod-${name}-${fc})
    file(MAKE_DIRECTORY ${mods})
    if(fc STREQUAL "gfortran")
      set(cmd ${OMPEXT_GFORTRAN} -O2 -fopenmp -J ${mods} ${src} -o ${out})
      set(deps ${src})
    else()
      set(cmd ${OMPEXT_FLANG} -O2 -fopenmp -module-dir ${mods} ${src}
              -L${OMPEXT_STOCK_LIB_DIR} -o ${out})
      set(deps ${src} libomp-stock)
    endif()
    add_custom_command(OUTPUT ${out} COMMAND ${cmd} DEPENDS ${deps}
      COMMENT "Building ${name}-${fc}" VERBATIM)
    add_custom_target(${name}_${fc} ALL DEPENDS ${out})
    set(${name}_${fc} ${out} PARENT_SCOPE)
  endforeach()
endfunction()
