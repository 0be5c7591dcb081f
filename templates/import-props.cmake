# import-props.cmake -- what `cugen import` has CMake record beside its
# File API reply: included as CMAKE_PROJECT_INCLUDE, it waits for the end
# of the top directory and writes, for every target of the project, the
# properties the File API does not give (the arch list as written,
# separable compilation, output name, versions, link items as written, the
# usage requirements dependents see), the top directory's build type and
# flags (as set there, not only in the cache), and for the imported targets they
# link what each puts on a link line, to CUGEN_IMPORT_DUMP, one
# "KEY<tab>VALUE" line each.
get_property(_cugen_import_armed GLOBAL PROPERTY _CUGEN_IMPORT_ARMED)
if(NOT _cugen_import_armed)
  set_property(GLOBAL PROPERTY _CUGEN_IMPORT_ARMED 1)
  function(_cugen_import_walk dir)
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    set_property(GLOBAL APPEND PROPERTY _CUGEN_IMPORT_TARGETS ${targets})
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
      _cugen_import_walk("${sub}")
    endforeach()
  endfunction()
  function(_cugen_import_dump)
    _cugen_import_walk("${CMAKE_SOURCE_DIR}")
    get_property(targets GLOBAL PROPERTY _CUGEN_IMPORT_TARGETS)
    set(text "project\t${CMAKE_PROJECT_NAME}\nversion\t${CMAKE_PROJECT_VERSION}\n")
    # the top directory's build type and flags as its targets see them
    # (a project sets them in CMakeLists.txt as often as in the cache)
    foreach(lang CUDA CXX C)
      foreach(suffix "" _DEBUG _RELEASE _RELWITHDEBINFO _MINSIZEREL)
        list(APPEND vars CMAKE_${lang}_FLAGS${suffix})
      endforeach()
    endforeach()
    foreach(v CMAKE_BUILD_TYPE ${vars})
      if(DEFINED ${v})
        string(REPLACE "\n" " " val "${${v}}")
        string(APPEND text "var\t${v}=${val}\n")
      endif()
    endforeach()
    set(imported "")
    foreach(t IN LISTS targets)
      string(APPEND text "target\t${t}\n")
      get_target_property(links "${t}" LINK_LIBRARIES)
      get_target_property(ilinks "${t}" INTERFACE_LINK_LIBRARIES)
      foreach(item IN LISTS links ilinks)
        if(TARGET "${item}")
          get_target_property(is_imported "${item}" IMPORTED)
          if(is_imported)
            list(APPEND imported "${item}")
          endif()
        endif()
      endforeach()
      foreach(p TYPE OUTPUT_NAME VERSION SOVERSION PREFIX SUFFIX CUDA_ARCHITECTURES
                CUDA_SEPARABLE_COMPILATION CUDA_RESOLVE_DEVICE_SYMBOLS
                INTERPROCEDURAL_OPTIMIZATION CUDA_RUNTIME_LIBRARY
                POSITION_INDEPENDENT_CODE LINK_LIBRARIES INTERFACE_LINK_LIBRARIES
                INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_DEFINITIONS)
        get_target_property(v "${t}" ${p})
        if(NOT v STREQUAL "v-NOTFOUND")
          string(REPLACE "\n" " " v "${v}")
          string(APPEND text "${p}\t${v}\n")
        endif()
      endforeach()
    endforeach()
    # the imported targets they link: what each puts on a link line
    list(REMOVE_DUPLICATES imported)
    string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
    foreach(t IN LISTS imported)
      string(APPEND text "imported\t${t}\n")
      foreach(p TYPE IMPORTED_LOCATION IMPORTED_LOCATION_${config} IMPORTED_LOCATION_RELEASE
                IMPORTED_LOCATION_NOCONFIG INTERFACE_LINK_LIBRARIES ALIASED_TARGET)
        get_target_property(v "${t}" ${p})
        if(v AND NOT v STREQUAL "v-NOTFOUND")
          string(REPLACE "\n" " " v "${v}")
          string(APPEND text "${p}\t${v}\n")
        endif()
      endforeach()
    endforeach()
    file(WRITE "${CUGEN_IMPORT_DUMP}" "${text}")
  endfunction()
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _cugen_import_dump)
endif()
