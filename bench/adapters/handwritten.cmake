# handwritten: a hand-written encoder/decoder of the Account model (no library
# needed).
bench_adapter(handwritten SOURCES adapters/handwritten.cpp)
