# handwritten_varint: a hand-written encoder/decoder of bifrons' default encoding of the Account
# model (the same bytes, the same checks; no library needed): the floor of issue 34's Account
# instruction targets.
bench_adapter(handwritten_varint SOURCES adapters/handwritten_varint.cpp)
