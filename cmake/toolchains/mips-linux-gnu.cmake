# 32-bit big-endian Linux (mips): Debian's g++-mips-linux-gnu, run under qemu-mips.
# See linux-gnu-cross.cmake; the cross-* presets use these files.
set(BIFRONS_CROSS_TRIPLE mips-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR mips)
set(BIFRONS_CROSS_QEMU qemu-mips)
set(BIFRONS_CROSS_ELF_CLASS 1)
set(BIFRONS_CROSS_ELF_DATA 2)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
