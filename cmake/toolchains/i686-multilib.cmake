# 32-bit little-endian Linux (i686) with the host's g++ -m32 (Debian's
# g++-multilib): the fallback of i686-linux-gnu.cmake when g++-i686-linux-gnu
# is not installed.
# The i386 libc/libstdc++ of the multilib packages live in the host's own
# /lib and /usr/lib32, so qemu-i386 needs no -L.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
if(NOT CMAKE_CXX_COMPILER)
  set(CMAKE_CXX_COMPILER g++)
endif()
if(NOT CMAKE_C_COMPILER)
  set(CMAKE_C_COMPILER gcc)
endif()
# A CMAKE_CXX_FLAGS/CMAKE_C_FLAGS given on the command line replaces these;
# the cross presets pass their flags as CMAKE_CXX_FLAGS_CROSS instead.
set(CMAKE_CXX_FLAGS_INIT -m32)
set(CMAKE_C_FLAGS_INIT -m32)
set(CMAKE_EXE_LINKER_FLAGS_INIT -m32)
set(CMAKE_SHARED_LINKER_FLAGS_INIT -m32)
set(CMAKE_LIBRARY_ARCHITECTURE i386-linux-gnu)
set(BIFRONS_CROSS_ELF_CLASS 1)
set(BIFRONS_CROSS_ELF_DATA 1)
find_program(_bifrons_cross_qemu NAMES qemu-i386 NO_CACHE)
if(NOT _bifrons_cross_qemu)
  message(FATAL_ERROR "no qemu-i386 found (Debian: apt-get install qemu-user)")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR "${_bifrons_cross_qemu}")
