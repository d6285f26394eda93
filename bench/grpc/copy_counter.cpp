// See copy_counter.hpp. Built with BIFRONS_BENCH_COUNT_COPIES=1 only without sanitizers.
#include "copy_counter.hpp"

#include <atomic>
#include <cstddef>

#if BIFRONS_BENCH_COUNT_COPIES
#include <dlfcn.h>

namespace {
std::atomic<bool> counting{false};
std::atomic<std::uint64_t> copied{0};
constexpr std::size_t counted_from = 1024;
using copy_function = void* (*)(void*, const void*, std::size_t);

// The C library's function, found once. While dlsym runs (it may copy), copies go byte by byte.
copy_function real(const char* name, std::atomic<copy_function>& cache) {
  copy_function f = cache.load(std::memory_order_acquire);
  if (f) return f;
  static thread_local bool resolving = false;
  if (resolving) return nullptr;
  resolving = true;
  f = reinterpret_cast<copy_function>(dlsym(RTLD_NEXT, name));
  resolving = false;
  cache.store(f, std::memory_order_release);
  return f;
}
void* bytewise(void* destination, const void* source, std::size_t n, bool backwards) {
  volatile unsigned char* d = static_cast<unsigned char*>(destination);
  const volatile unsigned char* s = static_cast<const unsigned char*>(source);
  if (backwards)
    for (std::size_t i = n; i-- > 0;) d[i] = s[i];
  else
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  return destination;
}
void count(std::size_t n) {
  if (n >= counted_from && counting.load(std::memory_order_relaxed)) copied.fetch_add(n, std::memory_order_relaxed);
}
std::atomic<copy_function> real_memcpy{nullptr};
std::atomic<copy_function> real_memmove{nullptr};
}  // namespace

extern "C" void* memcpy(void* destination, const void* source, std::size_t n) noexcept {
  count(n);
  const copy_function f = real("memcpy", real_memcpy);
  return f ? f(destination, source, n) : bytewise(destination, source, n, false);
}
extern "C" void* memmove(void* destination, const void* source, std::size_t n) noexcept {
  count(n);
  const copy_function f = real("memmove", real_memmove);
  return f ? f(destination, source, n) : bytewise(destination, source, n, destination > source);
}

namespace bench_copies {
bool available() { return true; }
void start() {
  copied = 0;
  counting = true;
}
std::uint64_t stop() {
  counting = false;
  return copied.load();
}
}  // namespace bench_copies
#else
namespace bench_copies {
bool available() { return false; }
void start() {}
std::uint64_t stop() { return 0; }
}  // namespace bench_copies
#endif
