// bench_views: iterating a bifrons::block_view (a block read in place, at any alignment) against a
// loop over an aligned std::span of the same elements, the physical limit of reading a block
// (issue 34: within 10% at -O2 and -O3). The view's block is placed one byte off its elements'
// alignment, the span's on it. Four loops, each round times them in turn; a row is the best round:
//   span      a range-for over the aligned span<const T>;
//   view      a range-for over the block_view;
//   for_each  block_view::for_each (one test of the stride, then a loop at this program's record
//             size when the data has it, as here);
//   floor     the fastest loop anyone can write over elements whose stride is known only at run
//             time (a view of records: an older or newer writer's records are shorter or longer):
//             memcpy of one element at p + i * stride, the stride read from the view through a
//             function the compiler cannot see into, on the view's misaligned bytes.
// Output, one line per element type, read by bench/report/report.py (ratio: view / span):
//   views <type> elements=<n> span_us=<t> view_us=<t> ratio=<r> for_each_us=<t> for_each_ratio=<for_each / span>
//         floor_us=<t> floor_ratio=<view / floor>
// Usage: bench_views [rounds] (scripts/bench: 15, smoke 2).
#include <bifrons/core.hpp>
#include <bifrons/record.hpp>
#include <bifrons/types/vector.hpp>
#include <bifrons/types/views.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace {

struct Pair {
  std::int32_t a;
  std::int32_t b;
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_record<Pair> = true;

namespace {

/// The bytes of `encoded` copied so that its block (after `head` bytes of count and stride)
/// starts `offset` bytes past an address aligned for T.
template <class T>
std::span<const std::byte> placed(std::vector<std::byte>& storage, const std::vector<std::byte>& encoded,
                                  std::size_t head, std::size_t offset) {
  storage.assign(encoded.size() + 2 * alignof(T) + 1, std::byte{0});
  std::byte* base = storage.data();
  while ((reinterpret_cast<std::uintptr_t>(base + head) % alignof(T)) != offset) ++base;
  std::memcpy(base, encoded.data(), encoded.size());
  return {base, encoded.size()};
}

/// The stride, hidden from the optimizer: the floor's loop must not see that it is a constant.
[[gnu::noinline]] std::size_t opaque_stride(std::size_t stride) {
  volatile std::size_t hidden = stride;
  return hidden;
}

/// x, through an address the optimizer cannot follow: each pass then reads its elements again.
/// (Otherwise GCC sees that the passes compute the same sum and computes two at once, in the two
/// lanes of a vector register, halving one loop's time and not another's.)
template <class R>
const R& unseen(const R& x) {
  static const void* volatile address;
  address = &x;
  return *static_cast<const R*>(address);
}

long long sum(const std::int32_t& x) { return x; }
// The bits of a double, added as an integer: a chain of floating-point additions would time the
// adder's latency, not the reading of the elements.
unsigned long long sum(double x) { return std::bit_cast<unsigned long long>(x); }
long long sum(const Pair& p) { return static_cast<long long>(p.a) + p.b; }

template <class T>
int run(const char* name, std::vector<T> values, int rounds) {
  const std::vector<std::byte> encoded = bifrons::to_bytes(values);
  const std::size_t head = encoded.size() - values.size() * sizeof(T);
  std::vector<std::byte> aligned_storage, misaligned_storage;
  const auto span = bifrons::from_bytes<std::span<const T>>(placed<T>(aligned_storage, encoded, head, 0));
  const auto view = bifrons::from_bytes<bifrons::block_view<T>>(placed<T>(misaligned_storage, encoded, head, 1));
  if (span.size() != values.size() || view.size() != values.size()) {
    std::fprintf(stderr, "bench_views: %s: the span or the view does not hold every element\n", name);
    return 1;
  }
  using clock = std::chrono::steady_clock;
  constexpr int passes = 20;
  using total = decltype(sum(values[0]));
  enum loop { span_loop, view_loop, for_each_loop, floor_loop, loops };
  double best[loops];
  total totals[loops] = {};
  std::fill(std::begin(best), std::end(best), 1e300);
  for (int round = 0; round < rounds; ++round) {
    const auto t0 = clock::now();
    for (int pass = 0; pass < passes; ++pass) {
      total s = 0;
      for (const T& x : unseen(span)) s += sum(x);
      totals[span_loop] += s;
    }
    const auto t1 = clock::now();
    for (int pass = 0; pass < passes; ++pass) {
      total s = 0;
      for (const T x : unseen(view)) s += sum(x);
      totals[view_loop] += s;
    }
    const auto t2 = clock::now();
    for (int pass = 0; pass < passes; ++pass) {
      total s = 0;
      unseen(view).for_each([&s](const T& x) { s += sum(x); });
      totals[for_each_loop] += s;
    }
    const auto t3 = clock::now();
    for (int pass = 0; pass < passes; ++pass) {
      total s = 0;
      const auto& floor_view = unseen(view);
      const std::byte* const floor_data = floor_view.bytes().data();
      const std::size_t stride = opaque_stride(floor_view.stride()), n = floor_view.size();
      for (std::size_t i = 0; i < n; ++i) {
        T x;
        std::memcpy(&x, floor_data + i * stride, sizeof x);
        s += sum(x);
      }
      totals[floor_loop] += s;
    }
    const auto t4 = clock::now();
    const auto at_best = [&](loop l, clock::time_point from, clock::time_point to) {
      best[l] = std::min(best[l], std::chrono::duration<double, std::micro>(to - from).count() / passes);
    };
    at_best(span_loop, t0, t1);
    at_best(view_loop, t1, t2);
    at_best(for_each_loop, t2, t3);
    at_best(floor_loop, t3, t4);
  }
  // A loop that read other values than the span would differ here.
  if (!std::all_of(std::begin(totals), std::end(totals), [&](total t) { return t == totals[span_loop]; })) {
    std::fprintf(stderr, "bench_views: %s: the view's elements differ from the span's\n", name);
    return 1;
  }
  std::printf(
      "views %s elements=%zu span_us=%.3f view_us=%.3f ratio=%.3f for_each_us=%.3f for_each_ratio=%.3f "
      "floor_us=%.3f floor_ratio=%.3f\n",
      name, values.size(), best[span_loop], best[view_loop], best[view_loop] / best[span_loop], best[for_each_loop],
      best[for_each_loop] / best[span_loop], best[floor_loop], best[view_loop] / best[floor_loop]);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  constexpr std::size_t n = std::size_t{1} << 16;
  std::vector<std::int32_t> ints(n);
  std::vector<double> doubles(n);
  std::vector<Pair> pairs(n);
  for (std::size_t i = 0; i < n; ++i) {
    ints[i] = static_cast<std::int32_t>(i * 2654435761u);
    doubles[i] = static_cast<double>(i) + 0.5;
    pairs[i] = {static_cast<std::int32_t>(i), static_cast<std::int32_t>(3 * i)};
  }
  int failed = 0;
  failed |= run("int32", std::move(ints), rounds);
  failed |= run("double", std::move(doubles), rounds);
  failed |= run("record", std::move(pairs), rounds);
  return failed;
}
