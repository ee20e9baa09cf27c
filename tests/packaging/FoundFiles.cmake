# SPDX-License-Identifier: MIT
# Lists every file outside the tree that configure found, for the build-dependency guard
# (scripts/check-deps): one "<what found it><TAB><path>" line each, written at the end of configure.
#
# Sources: the cache's PATH and FILEPATH entries (find_program, find_library, find_path, the
# <Package>_DIR of every find_package and find_dependency, with the config files in them) and the
# locations, include directories and linked files of every imported target.

function(_dpu_found_add var path)
  if(NOT IS_ABSOLUTE "${path}" OR NOT EXISTS "${path}")
    return()
  endif()
  cmake_path(IS_PREFIX CMAKE_SOURCE_DIR "${path}" NORMALIZE _in_source)
  cmake_path(IS_PREFIX CMAKE_BINARY_DIR "${path}" NORMALIZE _in_build)
  if(_in_source OR _in_build)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY _DPU_FOUND_LINES "${var}\t${path}")
endfunction()

function(_dpu_found_targets dir)
  get_property(_targets DIRECTORY "${dir}" PROPERTY IMPORTED_TARGETS)
  foreach(t IN LISTS _targets)
    # A subdirectory's own imported targets are out of reach from here; what found them
    # (find_package, pkg_check_modules) left its paths in the cache, listed above.
    if(NOT TARGET ${t})
      continue()
    endif()
    get_target_property(_aliased ${t} ALIASED_TARGET)
    if(_aliased)
      continue()
    endif()
    get_target_property(_configs ${t} IMPORTED_CONFIGURATIONS)
    set(_props IMPORTED_LOCATION IMPORTED_IMPLIB INTERFACE_INCLUDE_DIRECTORIES
               INTERFACE_SYSTEM_INCLUDE_DIRECTORIES INTERFACE_LINK_LIBRARIES INTERFACE_LINK_DIRECTORIES)
    if(_configs)
      foreach(c IN LISTS _configs)
        list(APPEND _props IMPORTED_LOCATION_${c} IMPORTED_IMPLIB_${c})
      endforeach()
    endif()
    foreach(p IN LISTS _props)
      get_target_property(_values ${t} ${p})
      if(NOT _values)
        continue()
      endif()
      foreach(v IN LISTS _values)
        # Paths inside generator expressions ($<$<CONFIG:..>:/usr/...>) are left out: they need
        # a configuration to evaluate, and the plain entries name the same packages.
        if(NOT v MATCHES "[$<>]")
          _dpu_found_add("${t} ${p}" "${v}")
        endif()
      endforeach()
    endforeach()
  endforeach()
  get_property(_subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(d IN LISTS _subdirs)
    _dpu_found_targets("${d}")
  endforeach()
endfunction()

function(dpu_write_found_files out)
  set_property(GLOBAL PROPERTY _DPU_FOUND_LINES "")
  get_cmake_property(_cache CACHE_VARIABLES)
  foreach(var IN LISTS _cache)
    get_property(_type CACHE ${var} PROPERTY TYPE)
    # The launcher (ccache) and the install prefix are the user's choice, not something found.
    if(NOT _type MATCHES "^(FILE)?PATH$" OR var MATCHES "_COMPILER_LAUNCHER$|^CMAKE_INSTALL_")
      continue()
    endif()
    set(_value "$CACHE{${var}}")
    foreach(v IN LISTS _value)
      _dpu_found_add("${var}" "${v}")
      if(var MATCHES "^(.+)_DIR$" AND IS_DIRECTORY "${v}")
        # The package's own config file first, then the others beside it (Qt's config files
        # include every plugin config in their folder).
        string(TOLOWER "${CMAKE_MATCH_1}" _lower)
        foreach(c "${CMAKE_MATCH_1}Config.cmake" "${_lower}-config.cmake")
          _dpu_found_add("${var}" "${v}/${c}")
        endforeach()
        file(GLOB _configs "${v}/*Config.cmake" "${v}/*-config.cmake" "${v}/*ConfigVersion.cmake"
                           "${v}/*-config-version.cmake")
        foreach(c IN LISTS _configs)
          _dpu_found_add("${var}" "${c}")
        endforeach()
      endif()
    endforeach()
  endforeach()
  _dpu_found_targets("${CMAKE_SOURCE_DIR}")
  get_property(_lines GLOBAL PROPERTY _DPU_FOUND_LINES)
  list(REMOVE_DUPLICATES _lines)
  list(JOIN _lines "\n" _text)
  file(WRITE "${out}" "${_text}\n")
endfunction()
