# 32-bit little-endian Linux (i686): Debian's g++-i686-linux-gnu, run under qemu-i386.
# See linux-gnu-cross.cmake; scripts/cross-test uses this file.
set(BIFRONS_CROSS_TRIPLE i686-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR i686)
set(BIFRONS_CROSS_QEMU qemu-i386)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
