# Shared part of the cross toolchain files in this directory: a Debian cross
# compiler (package g++-<triple>) and qemu-user to run the test executables.
#
# The including file sets, before include():
#   BIFRONS_CROSS_TRIPLE     GNU triple, e.g. s390x-linux-gnu
#   BIFRONS_CROSS_PROCESSOR  CMAKE_SYSTEM_PROCESSOR value, e.g. s390x
#   BIFRONS_CROSS_QEMU       qemu-user program, e.g. qemu-s390x
#
# Debian installs the target's libc/libstdc++ under /usr/<triple>; qemu's -L
# makes the emulated dynamic loader find them there. ctest runs every test
# (and gtest_discover_tests lists them) through CMAKE_CROSSCOMPILING_EMULATOR.
#
# No GoogleTest library exists for the target: configure with
# -DBIFRONS_GTEST_SOURCE_DIR=/usr/src/googletest (Debian package `googletest`)
# to build it from source in the same tree. scripts/cross-test does all this.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR "${BIFRONS_CROSS_PROCESSOR}")

# g++-<triple> provides <triple>-g++; g++-12-<triple> only <triple>-g++-12.
# Try-compile projects re-read this file: keep a value found once.
if(NOT CMAKE_CXX_COMPILER)
  find_program(_bifrons_cross_cxx
    NAMES "${BIFRONS_CROSS_TRIPLE}-g++" "${BIFRONS_CROSS_TRIPLE}-g++-12"
    NO_CACHE)
  if(NOT _bifrons_cross_cxx)
    message(FATAL_ERROR "no ${BIFRONS_CROSS_TRIPLE}-g++ found "
      "(Debian: apt-get install g++-${BIFRONS_CROSS_TRIPLE})")
  endif()
  set(CMAKE_CXX_COMPILER "${_bifrons_cross_cxx}")
endif()

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
