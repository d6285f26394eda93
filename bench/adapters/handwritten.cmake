# handwritten: a hand-written encoder/decoder of the Account model and of the
# unique_ptr tree (no library needed).
bench_adapter(handwritten SOURCES adapters/handwritten.cpp)
