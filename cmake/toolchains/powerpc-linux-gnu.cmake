# 32-bit big-endian Linux (powerpc): Debian's g++-powerpc-linux-gnu, run under qemu-ppc.
# See linux-gnu-cross.cmake; scripts/cross-test uses this file.
set(BIFRONS_CROSS_TRIPLE powerpc-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR powerpc)
set(BIFRONS_CROSS_QEMU qemu-ppc)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
