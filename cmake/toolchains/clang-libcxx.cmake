# Native build with clang and LLVM's libc++ (the libcxx preset of CMakePresets.json;
# scripts/test first installs a clang-N with libc++-N-dev whose runtime apt also offers).
# The compiler is $LIBCXX_CLANGXX if set, else the clang++-N of the libc++ headers installed
# (/usr/lib/llvm-N/include/c++/v1: Debian installs one libc++-N-dev at a time). A configured
# tree keeps its compiler: this file is only consulted before the first configure.
if(NOT CMAKE_CXX_COMPILER)
  if(NOT "$ENV{LIBCXX_CLANGXX}" STREQUAL "")
    set(CMAKE_CXX_COMPILER "$ENV{LIBCXX_CLANGXX}")
  else()
    set(_bifrons_libcxx_version 0)
    file(GLOB _bifrons_libcxx_headers "/usr/lib/llvm-*/include/c++/v1/__config")
    foreach(_bifrons_header IN LISTS _bifrons_libcxx_headers)
      if(_bifrons_header MATCHES "/llvm-([0-9]+)/" AND CMAKE_MATCH_1 GREATER _bifrons_libcxx_version)
        find_program(_bifrons_clang "clang++-${CMAKE_MATCH_1}" NO_CACHE)
        if(_bifrons_clang)
          set(_bifrons_libcxx_version "${CMAKE_MATCH_1}")
          set(CMAKE_CXX_COMPILER "${_bifrons_clang}")
        endif()
        unset(_bifrons_clang)
      endif()
    endforeach()
    if(NOT CMAKE_CXX_COMPILER)
      message(FATAL_ERROR "no clang++-N with libc++ headers in /usr/lib/llvm-N (Debian: apt-get install clang-N libc++-N-dev libc++abi-N-dev)")
    endif()
  endif()
endif()
set(CMAKE_CXX_FLAGS_INIT "-stdlib=libc++")
