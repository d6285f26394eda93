# Shared part of the cross toolchain files in this directory: a Debian cross
# compiler (package g++-<triple>) and qemu-user to run the test executables.
#
# The including file sets, before include():
#   BIFRONS_CROSS_TRIPLE     GNU triple, e.g. s390x-linux-gnu
#   BIFRONS_CROSS_PROCESSOR  CMAKE_SYSTEM_PROCESSOR value, e.g. s390x
#   BIFRONS_CROSS_QEMU       qemu-user program, e.g. qemu-s390x
#   BIFRONS_CROSS_ELF_CLASS  ELF class of the executables (1: 32-bit, 2: 64-bit)
#   BIFRONS_CROSS_ELF_DATA   ELF data (1: little-endian, 2: big-endian); both
#                            checked by the cross.elf_header test
#
# Debian installs the target's libc/libstdc++ under /usr/<triple>; qemu's -L
# makes the emulated dynamic loader find them there. ctest runs every test
# (and gtest_discover_tests lists them) through CMAKE_CROSSCOMPILING_EMULATOR.
#
# No GoogleTest library exists for the target: configure with
# -DBIFRONS_GTEST_SOURCE_DIR=/usr/src/googletest (Debian package `googletest`)
# to build it from source in the same tree. The cross-* presets of
# CMakePresets.json do all this (scripts/test installs the packages).

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR "${BIFRONS_CROSS_PROCESSOR}")

# g++-<triple> provides <triple>-g++; g++-12-<triple> only <triple>-g++-12.
# The C compiler (a dependency of the C++ one) is only for the C checks of
# projects that enable C, such as GoogleTest's FindThreads.
# Try-compile projects re-read this file: keep values found once.
foreach(_bifrons_lang CXX C)
  if(_bifrons_lang STREQUAL CXX)
    set(_bifrons_names "${BIFRONS_CROSS_TRIPLE}-g++" "${BIFRONS_CROSS_TRIPLE}-g++-12")
  else()
    set(_bifrons_names "${BIFRONS_CROSS_TRIPLE}-gcc" "${BIFRONS_CROSS_TRIPLE}-gcc-12")
  endif()
  if(NOT CMAKE_${_bifrons_lang}_COMPILER)
    find_program(_bifrons_cross_compiler NAMES ${_bifrons_names} NO_CACHE)
    if(NOT _bifrons_cross_compiler)
      message(FATAL_ERROR "none of ${_bifrons_names} found "
        "(Debian: apt-get install g++-${BIFRONS_CROSS_TRIPLE})")
    endif()
    set(CMAKE_${_bifrons_lang}_COMPILER "${_bifrons_cross_compiler}")
    unset(_bifrons_cross_compiler)
  endif()
endforeach()

set(CMAKE_FIND_ROOT_PATH "/usr/${BIFRONS_CROSS_TRIPLE}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(_bifrons_cross_qemu NAMES "${BIFRONS_CROSS_QEMU}" NO_CACHE)
if(NOT _bifrons_cross_qemu)
  message(FATAL_ERROR "no ${BIFRONS_CROSS_QEMU} found (Debian: apt-get install qemu-user)")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR "${_bifrons_cross_qemu};-L;/usr/${BIFRONS_CROSS_TRIPLE}")
