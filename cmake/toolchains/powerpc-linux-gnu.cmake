# 32-bit big-endian Linux (powerpc): Debian's g++-powerpc-linux-gnu, run under qemu-ppc.
# See linux-gnu-cross.cmake; the cross-* presets use these files.
set(BIFRONS_CROSS_TRIPLE powerpc-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR powerpc)
set(BIFRONS_CROSS_QEMU qemu-ppc)
set(BIFRONS_CROSS_ELF_CLASS 1)
set(BIFRONS_CROSS_ELF_DATA 2)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
