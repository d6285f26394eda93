# memcpy: the raw-copy baseline for the bulk cases (no library needed).
bench_adapter(memcpy SOURCES adapters/memcpy.cpp)
