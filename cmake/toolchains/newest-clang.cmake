# Native build with the newest clang++-<N> on PATH (the asan preset of
# CMakePresets.json; scripts/test first installs the newest clang Debian
# offers). $CLANGXX, if set, names the compiler instead. A configured tree
# keeps its compiler: this file is only consulted before the first configure.
if(NOT CMAKE_CXX_COMPILER)
  if(NOT "$ENV{CLANGXX}" STREQUAL "")
    set(CMAKE_CXX_COMPILER "$ENV{CLANGXX}")
  else()
    set(_bifrons_clang_version 0)
    string(REPLACE ":" ";" _bifrons_path "$ENV{PATH}")
    foreach(_bifrons_dir IN LISTS _bifrons_path)
      file(GLOB _bifrons_found "${_bifrons_dir}/clang++-*")
      foreach(_bifrons_clang IN LISTS _bifrons_found)
        if(_bifrons_clang MATCHES "/clang\\+\\+-([0-9]+)$"
           AND CMAKE_MATCH_1 GREATER _bifrons_clang_version)
          set(_bifrons_clang_version "${CMAKE_MATCH_1}")
          set(CMAKE_CXX_COMPILER "${_bifrons_clang}")
        endif()
      endforeach()
    endforeach()
    if(NOT CMAKE_CXX_COMPILER)
      find_program(CMAKE_CXX_COMPILER NAMES clang++ NO_CACHE)
    endif()
    if(NOT CMAKE_CXX_COMPILER)
      message(FATAL_ERROR "no clang++-<N> or clang++ on PATH (Debian: apt-get install clang)")
    endif()
  endif()
endif()
