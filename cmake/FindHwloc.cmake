# Find the Portable Hardware Locality library (hwloc).
#
#   find_package(Hwloc [<version>] [REQUIRED])
#
# Result:
#   Hwloc_FOUND, Hwloc_VERSION, Hwloc_INCLUDE_DIRS, Hwloc_LIBRARIES
#   imported target Hwloc::hwloc
#
# pkg-config (hwloc.pc, from libhwloc-dev) is used when available for hints
# and the version; plain find_path/find_library otherwise. HWLOC_ROOT or
# Hwloc_ROOT may point at a custom installation.
include(FindPackageHandleStandardArgs)

find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_HWLOC QUIET hwloc)
endif()

find_path(Hwloc_INCLUDE_DIR
  NAMES hwloc.h
  HINTS ${PC_HWLOC_INCLUDEDIR} ${PC_HWLOC_INCLUDE_DIRS} ENV HWLOC_ROOT
  PATH_SUFFIXES include)
find_library(Hwloc_LIBRARY
  NAMES hwloc
  HINTS ${PC_HWLOC_LIBDIR} ${PC_HWLOC_LIBRARY_DIRS} ENV HWLOC_ROOT
  PATH_SUFFIXES lib lib64)

set(Hwloc_VERSION "")
if(PC_HWLOC_FOUND AND PC_HWLOC_VERSION)
  set(Hwloc_VERSION "${PC_HWLOC_VERSION}")
elseif(Hwloc_INCLUDE_DIR AND EXISTS "${Hwloc_INCLUDE_DIR}/hwloc/autogen/config.h")
  file(STRINGS "${Hwloc_INCLUDE_DIR}/hwloc/autogen/config.h" _hwloc_ver
    REGEX "^#define[ \t]+HWLOC_VERSION[ \t]+\"[^\"]+\"")
  if(_hwloc_ver MATCHES "\"([^\"]+)\"")
    set(Hwloc_VERSION "${CMAKE_MATCH_1}")
  endif()
  unset(_hwloc_ver)
endif()

find_package_handle_standard_args(Hwloc
  REQUIRED_VARS Hwloc_LIBRARY Hwloc_INCLUDE_DIR
  VERSION_VAR Hwloc_VERSION)

if(Hwloc_FOUND)
  set(Hwloc_INCLUDE_DIRS "${Hwloc_INCLUDE_DIR}")
  set(Hwloc_LIBRARIES "${Hwloc_LIBRARY}")
  if(NOT TARGET Hwloc::hwloc)
    add_library(Hwloc::hwloc UNKNOWN IMPORTED)
    set_target_properties(Hwloc::hwloc PROPERTIES
      IMPORTED_LOCATION "${Hwloc_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${Hwloc_INCLUDE_DIR}")
  endif()
endif()

mark_as_advanced(Hwloc_INCLUDE_DIR Hwloc_LIBRARY)
