# resize_memcpy: the floor under fresh reads of blocks, resize + memcpy of bifrons' own bytes
# (no library needed but bifrons).
bench_adapter(resize_memcpy SOURCES adapters/resize_memcpy.cpp)
