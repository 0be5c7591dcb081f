# import-props.cmake -- what `cugen import` has CMake record beside its
# File API reply: included as CMAKE_PROJECT_INCLUDE, it waits for the end
# of the top directory and writes, for every target of the project, the
# properties the File API does not give (the arch list as written,
# separable compilation, output name, versions, link items as written, the
# usage requirements dependents see) to CUGEN_IMPORT_DUMP, one
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
    foreach(t IN LISTS targets)
      string(APPEND text "target\t${t}\n")
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
    file(WRITE "${CUGEN_IMPORT_DUMP}" "${text}")
  endfunction()
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _cugen_import_dump)
endif()
