# 32-bit little-endian Linux (i686): Debian's g++-i686-linux-gnu, run under qemu-i386,
# or, without it, the host's g++ -m32 (i686-multilib.cmake).
# See linux-gnu-cross.cmake; the cross-* presets use these files.
set(BIFRONS_CROSS_TRIPLE i686-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR i686)
set(BIFRONS_CROSS_QEMU qemu-i386)
set(BIFRONS_CROSS_ELF_CLASS 1)
set(BIFRONS_CROSS_ELF_DATA 1)
find_program(_bifrons_i686_gxx NAMES i686-linux-gnu-g++ i686-linux-gnu-g++-12 NO_CACHE)
if(_bifrons_i686_gxx)
  include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
else()
  include("${CMAKE_CURRENT_LIST_DIR}/i686-multilib.cmake")
endif()
