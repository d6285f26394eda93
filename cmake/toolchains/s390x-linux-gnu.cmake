# 64-bit big-endian Linux (s390x): Debian's g++-s390x-linux-gnu, run under qemu-s390x.
# See linux-gnu-cross.cmake; the cross-* presets use these files.
set(BIFRONS_CROSS_TRIPLE s390x-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR s390x)
set(BIFRONS_CROSS_QEMU qemu-s390x)
set(BIFRONS_CROSS_ELF_CLASS 2)
set(BIFRONS_CROSS_ELF_DATA 2)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
