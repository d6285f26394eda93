// Heap accounting for the harness: interposes the C allocation functions so
// that every allocation is seen, whether it comes from operator new (libstdc++
// forwards to malloc) or from a C library (libtirpc, msgpack-c's zone).
//
// The cereal_fwd paper measured allocations with glibc's memusage; this does
// the same in-process so that one op can be isolated. Counting is off except
// inside a heap_probe, so timed loops pay one predictable branch per call.
#include <malloc.h>

#include <cstddef>
#include <cstdint>

#include "harness.hpp"

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {
struct heap_counters {
  bool counting = false;
  std::uint64_t allocations = 0;
  std::int64_t live = 0;
  std::int64_t peak = 0;
};
heap_counters counters;  // the harness is single-threaded

inline void on_alloc(void* p) {
  if (!counters.counting || p == nullptr) return;
  ++counters.allocations;
  counters.live += static_cast<std::int64_t>(malloc_usable_size(p));
  if (counters.live > counters.peak) counters.peak = counters.live;
}
inline void on_free(void* p) {
  if (!counters.counting || p == nullptr) return;
  counters.live -= static_cast<std::int64_t>(malloc_usable_size(p));
}
}  // namespace

extern "C" {
void* malloc(std::size_t size) {
  void* p = __libc_malloc(size);
  on_alloc(p);
  return p;
}
void* calloc(std::size_t n, std::size_t size) {
  void* p = __libc_calloc(n, size);
  on_alloc(p);
  return p;
}
void* realloc(void* old, std::size_t size) {
  on_free(old);
  void* p = __libc_realloc(old, size);
  on_alloc(p);
  return p;
}
void free(void* p) {
  on_free(p);
  __libc_free(p);
}
void* memalign(std::size_t alignment, std::size_t size) {
  void* p = __libc_memalign(alignment, size);
  on_alloc(p);
  return p;
}
void* aligned_alloc(std::size_t alignment, std::size_t size) { return memalign(alignment, size); }
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  void* p = memalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
}

namespace bench {

heap_probe::heap_probe() {
  counters.allocations = 0;
  counters.live = 0;
  counters.peak = 0;
  counters.counting = true;
}

heap_stats heap_probe::stop() {
  counters.counting = false;
  stopped_ = true;
  return {counters.allocations, static_cast<std::uint64_t>(counters.peak)};
}

heap_probe::~heap_probe() {
  if (!stopped_) counters.counting = false;
}

}  // namespace bench
