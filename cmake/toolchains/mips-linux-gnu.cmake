# 32-bit big-endian Linux (mips): Debian's g++-mips-linux-gnu, run under qemu-mips.
# See linux-gnu-cross.cmake; scripts/cross-test uses this file.
set(BIFRONS_CROSS_TRIPLE mips-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR mips)
set(BIFRONS_CROSS_QEMU qemu-mips)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
