// Counts the bytes that memcpy and memmove copy, in calls of 1 KiB or more, between start() and
// stop(): in this program and in the libraries it calls (gRPC, protobuf), whose calls the
// program's own memcpy and memmove interpose. Kernel copies (send, receive) are not counted.
#pragma once
#include <cstdint>

namespace bench_copies {
bool available();  // false in sanitized builds, where the sanitizer defines memcpy
void start();
std::uint64_t stop();
}  // namespace bench_copies
