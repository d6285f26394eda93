# 64-bit big-endian Linux (s390x): Debian's g++-s390x-linux-gnu, run under qemu-s390x.
# See linux-gnu-cross.cmake; scripts/cross-test uses this file.
set(BIFRONS_CROSS_TRIPLE s390x-linux-gnu)
set(BIFRONS_CROSS_PROCESSOR s390x)
set(BIFRONS_CROSS_QEMU qemu-s390x)
include("${CMAKE_CURRENT_LIST_DIR}/linux-gnu-cross.cmake")
