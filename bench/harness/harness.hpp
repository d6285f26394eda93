// The benchmark harness: the adapter contract, the workload table and the
// registration of Google Benchmark cases.
//
// An adapter is a default-constructible class, one per library, in its own
// file bench/adapters/<library>.cpp, ending with BENCH_ADAPTER(ClassName):
//
//   struct my_adapter {
//     static constexpr std::string_view name = "mylib";
//     // Serialize into a buffer the adapter owns and reuses across calls.
//     bench::bytes_view encode(const T& value);
//     // Deserialize into `out`, which is either freshly value-initialized or a
//     // value an earlier decode filled (deserialize into a reused object).
//     // Throws on malformed input.
//     void decode(bench::bytes_view in, T& out);
//     // Optional: serialize into a caller-supplied fixed buffer, no copy;
//     // returns the bytes written.
//     std::size_t encode_into(const T& value, std::span<std::byte> buffer);
//     // Optional: false when decoding into an already-filled object is not
//     // supported by the library (then only fresh-object decoding is timed).
//     static constexpr bool decode_reuse = true;
//     // Optional: false when encode exists only to produce test input
//     // (simdjson parses but does not write).
//     static constexpr bool encode_timed = true;
//     // Optional: why a workload this adapter has no overload for is missing
//     // (the report prints it). `family` is a case family, e.g. "shared_tree".
//     static std::string_view unsupported_reason(std::string_view family);
//   };
//
// A workload is supported when both encode and decode overloads exist for its
// type; the rest is detected at compile time. Before anything is timed, every
// case is round-tripped and compared; a failing adapter reports an error in
// place of a number.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models.hpp"

namespace bench {

using bytes_view = std::span<const std::byte>;

// ---------------------------------------------------------------------------
// Heap accounting (alloc_hook.cpp interposes malloc and friends).
// ---------------------------------------------------------------------------
struct heap_stats {
  std::uint64_t allocations = 0;  // malloc/calloc/realloc/aligned calls
  std::uint64_t peak_bytes = 0;   // highest live bytes above the start level
};

// Counts the heap traffic of the code run between construction and stop().
class heap_probe {
 public:
  heap_probe();
  heap_stats stop();
  heap_probe(const heap_probe&) = delete;
  heap_probe& operator=(const heap_probe&) = delete;
  ~heap_probe();

 private:
  bool stopped_ = false;
};

// ---------------------------------------------------------------------------
// Bytes with the alignment FlatBuffers and Cap'n Proto expect of input.
// ---------------------------------------------------------------------------
class aligned_bytes {
 public:
  aligned_bytes() = default;
  explicit aligned_bytes(bytes_view bytes)
      : words_((bytes.size() + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t) + 1), size_(bytes.size()) {
    if (!bytes.empty()) std::memcpy(words_.data(), bytes.data(), bytes.size());
  }
  bytes_view view() const { return {reinterpret_cast<const std::byte*>(words_.data()), size_}; }
  std::span<std::byte> writable(std::size_t n) {
    words_.assign(n / sizeof(std::max_align_t) + 1, std::max_align_t{});
    size_ = n;
    return {reinterpret_cast<std::byte*>(words_.data()), n};
  }

 private:
  std::vector<std::max_align_t> words_;
  std::size_t size_ = 0;
};

// ---------------------------------------------------------------------------
// Adapter detection
// ---------------------------------------------------------------------------
template <class A, class T>
concept can_encode = requires(A& a, const T& v) {
  { a.encode(v) } -> std::convertible_to<bytes_view>;
};
template <class A, class T>
concept can_decode = requires(A& a, bytes_view in, T& out) { a.decode(in, out); };
template <class A, class T>
concept can_encode_into = requires(A& a, const T& v, std::span<std::byte> buffer) {
  { a.encode_into(v, buffer) } -> std::convertible_to<std::size_t>;
};
template <class A, class T>
concept supports = can_encode<A, T> && can_decode<A, T>;

template <class A>
constexpr bool decode_reuse() {
  if constexpr (requires { A::decode_reuse; }) return A::decode_reuse;
  return true;
}
template <class A>
constexpr bool encode_timed() {
  if constexpr (requires { A::encode_timed; }) return A::encode_timed;
  return true;
}
template <class A>
std::string unsupported_reason(std::string_view family) {
  if constexpr (requires { A::unsupported_reason(family); }) {
    std::string why(A::unsupported_reason(family));
    if (!why.empty()) return why;
  }
  return "no adapter for this type";
}

// ---------------------------------------------------------------------------
// Equality: trees compare by structure, everything else with ==.
// ---------------------------------------------------------------------------
template <class T>
bool equal(const T& x, const T& y) {
  if constexpr (requires { model::equal_trees(x, y); }) {
    return model::equal_trees(x, y);
  } else {
    return x == y;
  }
}

// ---------------------------------------------------------------------------
// Distinct inputs
// ---------------------------------------------------------------------------
// A case whose factory returns distinct_inputs<T> has several values of type T, and its timed
// loops take them in turn: every iteration sees other data, so that the branch predictor cannot
// learn one input (its varint lengths, say) the way it learns a value repeated every iteration.
// An adapter supports such a case when it supports T.
template <class T>
struct distinct_inputs {
  std::vector<T> values;
};

inline constexpr std::size_t distinct_input_count = 64;

template <class T>
struct case_values {
  using type = T;
  static constexpr bool cycled = false;
  static std::vector<T> all(T value) {
    std::vector<T> out;
    out.push_back(std::move(value));
    return out;
  }
};
template <class T>
struct case_values<distinct_inputs<T>> {
  using type = T;
  static constexpr bool cycled = true;
  static std::vector<T> all(distinct_inputs<T> inputs) { return std::move(inputs.values); }
};

// Hands a timed loop its next input: the one item of a repeated-input case (no index to advance:
// those loops do what they did before distinct inputs existed, but for reaching their input
// through a pointer), or the items in turn.
template <class Item, bool Cycled>
class input_cursor {
 public:
  explicit input_cursor(const std::vector<Item>& items) : items_(items) {}
  const Item& next() {
    if constexpr (Cycled) {
      const Item& item = items_[index_];
      index_ = index_ + 1 == items_.size() ? 0 : index_ + 1;
      return item;
    } else {
      return items_.front();
    }
  }

 private:
  const std::vector<Item>& items_;
  std::size_t index_ = 0;
};

// ---------------------------------------------------------------------------
// The workload table
// ---------------------------------------------------------------------------
// One case: a value of type T, named "<workload>/<family>_<n>" (or
// "<workload>/<family>" for single objects), where n is the sweep size the
// plots use as their x axis.
struct case_info {
  std::string workload;  // cereal_fwd, kelpie, meta, survey, account
  std::string family;    // e.g. vector_int32, account
  std::int64_t n = 0;    // sweep size; 0 for single-object workloads
  std::string name() const {
    return workload + "/" + family + (n > 0 || family.find("tree") != std::string::npos ? "_" + std::to_string(n) : "");
  }
};

// Calls f(info, factory) for every case, where factory() returns a fresh T.
// The order here is the order of the report.
template <class F>
void for_each_case(F&& f) {
  using namespace model;
  // 1. Breiter & Nowak
  f(case_info{"cereal_fwd", "integer_class_uniform"}, [] { return make_integer_class(Distribution::uniform); });
  f(case_info{"cereal_fwd", "integer_class_normal"}, [] { return make_integer_class(Distribution::normal); });
  for (std::size_t n : {8, 64, 512, 4096}) {
    f(case_info{"cereal_fwd", "vector_integer_class_uniform", std::int64_t(n)},
      [n] { return make_integer_classes(n, Distribution::uniform); });
    f(case_info{"cereal_fwd", "vector_integer_class_normal", std::int64_t(n)},
      [n] { return make_integer_classes(n, Distribution::normal); });
  }
  // Distinct inputs (issue 34): 64 vectors of 1,000, cycled, in both distributions.
  for (const Distribution dist : {Distribution::uniform, Distribution::normal}) {
    constexpr std::size_t n = 1000;
    f(case_info{"cereal_fwd",
                dist == Distribution::uniform ? "vector_integer_class_uniform_distinct"
                                              : "vector_integer_class_normal_distinct",
                std::int64_t(n)},
      [dist] {
        return distinct_inputs<std::vector<IntegerClass>>{make_distinct_integer_classes(distinct_input_count, n, dist)};
      });
  }
  for (std::size_t n : {8, 32, 128, 512, 2048, 8192}) {
    f(case_info{"cereal_fwd", "vector_int32", std::int64_t(n)}, [n] { return make_int32s(n); });
    f(case_info{"cereal_fwd", "vector_float", std::int64_t(n)}, [n] { return make_floats(n); });
    f(case_info{"cereal_fwd", "map_int32_int32", std::int64_t(n)}, [n] { return make_int_map(n); });
  }
  for (int depth : {0, 1, 5, 9}) {
    f(case_info{"cereal_fwd", "unique_tree", depth}, [depth] { return make_unique_tree(depth); });
    f(case_info{"cereal_fwd", "shared_tree", depth}, [depth] { return make_shared_tree(depth); });
    f(case_info{"cereal_fwd", "poly_tree", depth}, [depth] { return make_poly_tree(depth); });
  }
  // 2. Ulmer (Kelpie)
  for (std::size_t n = 1; n <= 1024; n *= 2) {
    f(case_info{"kelpie", "message", std::int64_t(n)}, [n] { return make_kelpie(n); });
  }
  // 3. meta-serialization blog
  f(case_info{"meta", "tuple"}, [] { return make_meta_tuple(); });
  // 4. MusicScience37 survey
  for (std::size_t n : {1, 32, 1024, 32768}) {
    f(case_info{"survey", "string", std::int64_t(n)}, [n] { return make_string(n); });
    f(case_info{"survey", "vector_int", std::int64_t(n)}, [n] { return make_ints(n); });
  }
  for (std::size_t n : {1, 1024, 1048576}) {
    f(case_info{"survey", "vector_double", std::int64_t(n)}, [n] { return make_doubles(n); });
  }
  f(case_info{"survey", "mixed_struct"}, [] { return make_survey_mixed(); });
  // 5. CppSerialization
  f(case_info{"account", "account"}, [] { return make_account(); });
}

// ---------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------
struct check_result {
  std::string library, case_name;
  bool supported = false;
  bool ok = false;
  std::string message;  // failure, or why unsupported
  std::size_t bytes = 0;
};

// Every adapter's round-trip results, filled at registration.
std::vector<check_result>& check_results();

// Round-trips `value` through a fresh and a reused object (and encode_into if
// present); returns an empty string on success, else what went wrong.
template <class A, class T>
std::string round_trip(const T& value, std::size_t& size) {
  try {
    A a;
    const aligned_bytes bytes(a.encode(value));
    size = bytes.view().size();
    T fresh{};
    a.decode(bytes.view(), fresh);
    if (!equal(value, fresh)) return "decoded value differs from the original";
    if constexpr (decode_reuse<A>()) {
      A b;
      b.decode(bytes.view(), fresh);  // into an already-filled object
      if (!equal(value, fresh)) return "decoding into a reused object gives a different value";
    }
    if constexpr (can_encode_into<A, T>) {
      aligned_bytes fixed;
      auto buffer = fixed.writable(2 * size + 1024);
      const std::size_t written = a.encode_into(value, buffer);
      const aligned_bytes copy(buffer.first(written));
      T again{};
      a.decode(copy.view(), again);
      if (!equal(value, again)) return "encode_into output does not decode to the original";
    }
    return {};
  } catch (const std::exception& e) {
    return std::string("exception: ") + e.what();
  } catch (...) {
    return "unknown exception";
  }
}

template <class Op>
void count_heap(benchmark::State& state, Op&& op) {
  op();  // warm: the first call may grow buffers that later calls reuse
  heap_probe probe;
  op();
  const heap_stats stats = probe.stop();
  state.counters["allocs"] = static_cast<double>(stats.allocations);
  state.counters["peak_heap"] = static_cast<double>(stats.peak_bytes);
}

// An exception escaping a timed loop would end the process and lose every result of the
// library; it becomes that benchmark's error instead.
template <class Body>
void register_guarded(const std::string& name, Body body) {
  benchmark::RegisterBenchmark(name.c_str(), [body](benchmark::State& state) {
    try {
      body(state);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
    } catch (...) {
      state.SkipWithError("unknown exception");
    }
  });
}

// Round-trips every input of a case; the first failure, naming the input if there are several.
template <class A, class T>
std::string round_trip_all(const std::vector<T>& values, std::size_t& mean_size) {
  std::size_t total = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    std::size_t size = 0;
    std::string error = round_trip<A, T>(values[k], size);
    if (!error.empty()) return values.size() > 1 ? "input " + std::to_string(k) + ": " + error : error;
    total += size;
  }
  mean_size = values.empty() ? 0 : total / values.size();
  return {};
}

// ---------------------------------------------------------------------------
// Instruction counts (bench_<library> --instructions=CASE,...; scripts/bench --instructions)
// ---------------------------------------------------------------------------
// In this mode main() registers no benchmark: each requested case is built, round-tripped, and
// each of its operations runs `iterations` and then 2 * `iterations` times inside
// bench_instruction_window, the one function callgrind collects in (--toggle-collect) and dumps
// after (--dump-after). The difference of the two windows, divided by `iterations`, is one
// operation without the process's start-up, the case's set-up or the window's fixed cost.
// stdout gets the size of each requested case's encoding and one line per window, in the order of
// callgrind's dumps:
//   bytes <case> <library> <bytes>
//   digest <case> <library> <FNV-1a 64 of the first value's encoding, 16 hex digits>
//   window <case> <library> <operation> <operations in the window>
// and one line per requested case the library cannot run:
//   unsupported <case> <library> <why>
struct instruction_request {
  std::vector<std::string> cases;
  std::size_t iterations = 0;  // 0: not in this mode
  std::vector<bool> seen;      // per case: the library has it (supported or not)
  bool failed = false;         // a requested case failed its round trip
};
instruction_request& instruction_mode();

// Calls op(context) `count` times. Never inlined nor cloned (instruction_window.cpp): its name is
// what callgrind is told to collect in.
extern "C" void bench_instruction_window(void (*op)(void*), void* context, std::size_t count);

// Runs op a few times (buffers grow on the first calls, as the timed loops' warm-up lets them),
// then in the two windows.
template <class Op>
void measure_instructions(const std::string& case_name, std::string_view library, const char* operation, Op op) {
  for (int k = 0; k < 3; ++k) op();
  const auto call = [](void* context) { (*static_cast<Op*>(context))(); };
  const std::size_t n = instruction_mode().iterations;
  for (const std::size_t count : {n, 2 * n}) {
    std::printf("window %s %.*s %s %zu\n", case_name.c_str(), static_cast<int>(library.size()), library.data(),
                operation, count);
    std::fflush(stdout);
    bench_instruction_window(call, &op, count);
  }
}

// The operations of one case, as the timed loops in register_case run them.
template <class A, class Factory>
void measure_case_instructions(const case_info& info, Factory&& factory) {
  using values_of = case_values<decltype(factory())>;
  using T = typename values_of::type;
  const std::string case_name = info.name();
  if constexpr (!supports<A, T>) {
    std::printf("unsupported %s %.*s %s\n", case_name.c_str(), static_cast<int>(A::name.size()), A::name.data(),
                unsupported_reason<A>(info.family).c_str());
  } else {
    const std::vector<T> values = values_of::all(factory());
    std::size_t bytes = 0;
    const std::string error = round_trip_all<A, T>(values, bytes);
    if (!error.empty()) {
      std::fprintf(stderr, "%s: %.*s: round trip failed: %s\n", case_name.c_str(), static_cast<int>(A::name.size()),
                   A::name.data(), error.c_str());
      instruction_mode().failed = true;
      return;
    }
    std::printf("bytes %s %.*s %zu\n", case_name.c_str(), static_cast<int>(A::name.size()), A::name.data(), bytes);
    A a;
    if (!values.empty()) {
      // Whether two libraries wrote the very same bytes (a hand-written floor of bifrons' encoding).
      std::uint64_t digest = 14695981039346656037u;
      for (const std::byte b : a.encode(values.front())) digest = (digest ^ std::to_integer<std::uint8_t>(b)) * 1099511628211u;
      std::printf("digest %s %.*s %016llx\n", case_name.c_str(), static_cast<int>(A::name.size()), A::name.data(),
                  static_cast<unsigned long long>(digest));
    }
    if constexpr (encode_timed<A>()) {
      input_cursor<T, values_of::cycled> input(values);
      measure_instructions(case_name, A::name, "serialize", [&] {
        bytes_view out = a.encode(input.next());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      });
    }
    std::vector<aligned_bytes> inputs;
    for (const T& value : values) inputs.emplace_back(a.encode(value));
    input_cursor<aligned_bytes, values_of::cycled> encoded(inputs);
    measure_instructions(case_name, A::name, "deserialize", [&] {
      T out{};
      a.decode(encoded.next().view(), out);
      benchmark::DoNotOptimize(out);
      benchmark::ClobberMemory();
    });
    if constexpr (decode_reuse<A>()) {
      T out{};
      a.decode(inputs.back().view(), out);
      measure_instructions(case_name, A::name, "deserialize_reuse", [&] {
        a.decode(encoded.next().view(), out);
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
      });
    }
  }
}

template <class A, class Factory>
void register_case(const case_info& info, Factory&& factory) {
  using values_of = case_values<decltype(factory())>;
  using T = typename values_of::type;
  constexpr bool cycled = values_of::cycled;
  if (instruction_request& request = instruction_mode(); request.iterations > 0) {
    const auto wanted = std::find(request.cases.begin(), request.cases.end(), info.name());
    if (wanted != request.cases.end()) {
      request.seen[static_cast<std::size_t>(wanted - request.cases.begin())] = true;
      measure_case_instructions<A>(info, factory);
    }
    return;
  }
  const std::string prefix = info.name() + "/" + std::string(A::name) + "/";
  check_result result;
  result.library = std::string(A::name);
  result.case_name = info.name();
  if constexpr (!supports<A, T>) {
    result.message = unsupported_reason<A>(info.family);
    check_results().push_back(std::move(result));
    return;
  } else {
    result.supported = true;
    auto values = std::make_shared<const std::vector<T>>(values_of::all(factory()));
    result.message = round_trip_all<A, T>(*values, result.bytes);
    result.ok = result.message.empty();
    const std::string error = result.message;
    const double n = static_cast<double>(info.n);
    const double bytes = static_cast<double>(result.bytes);
    check_results().push_back(std::move(result));

    auto common = [error, n, bytes](benchmark::State& state) {
      state.counters["n"] = n;
      state.counters["bytes"] = bytes;
      if (!error.empty()) {
        state.SkipWithError(error.c_str());
        return false;
      }
      return true;
    };
    // Every input, encoded once by the adapter that then decodes them, in the order the decode
    // loops take them.
    auto encoded_inputs = [values](A& a) {
      std::vector<aligned_bytes> out;
      out.reserve(values->size());
      for (const T& value : *values) out.emplace_back(a.encode(value));
      return out;
    };

    if constexpr (encode_timed<A>()) {
      register_guarded(prefix + "serialize", [values, common](benchmark::State& state) {
        if (!common(state)) return;
        A a;
        input_cursor<T, cycled> input(*values);
        for (auto _ : state) {
          bytes_view out = a.encode(input.next());
          benchmark::DoNotOptimize(out.data());
          benchmark::ClobberMemory();
        }
        count_heap(state, [&] { benchmark::DoNotOptimize(a.encode(input.next()).data()); });
      });
    }
    if constexpr (can_encode_into<A, T>) {
      register_guarded(prefix + "serialize_fixed", [values, common](benchmark::State& state) {
        if (!common(state)) return;
        A a;
        input_cursor<T, cycled> input(*values);
        aligned_bytes storage;
        // The counter holds the inputs' mean size; the largest must fit. Measured with an adapter
        // of its own, so that `a` starts the loop as it did before distinct inputs existed.
        std::size_t largest = static_cast<std::size_t>(state.counters["bytes"]);
        if constexpr (cycled) {
          A sizer;
          for (const T& value : *values) largest = std::max(largest, sizer.encode(value).size());
        }
        auto buffer = storage.writable(2 * largest + 1024);
        for (auto _ : state) {
          std::size_t written = a.encode_into(input.next(), buffer);
          benchmark::DoNotOptimize(written);
          benchmark::ClobberMemory();
        }
        count_heap(state, [&] { benchmark::DoNotOptimize(a.encode_into(input.next(), buffer)); });
      });
    }
    register_guarded(prefix + "deserialize", [encoded_inputs, common](benchmark::State& state) {
      if (!common(state)) return;
      A a;
      const std::vector<aligned_bytes> inputs = encoded_inputs(a);
      input_cursor<aligned_bytes, cycled> input(inputs);
      for (auto _ : state) {
        T out{};
        a.decode(input.next().view(), out);
        benchmark::DoNotOptimize(out);
        benchmark::ClobberMemory();
      }
      count_heap(state, [&] {
        T out{};
        a.decode(input.next().view(), out);
        benchmark::DoNotOptimize(out);
      });
    });
    if constexpr (decode_reuse<A>()) {
      register_guarded(prefix + "deserialize_reuse", [encoded_inputs, common](benchmark::State& state) {
        if (!common(state)) return;
        A a;
        const std::vector<aligned_bytes> inputs = encoded_inputs(a);
        input_cursor<aligned_bytes, cycled> input(inputs);
        T out{};
        a.decode(inputs.back().view(), out);
        for (auto _ : state) {
          a.decode(input.next().view(), out);
          benchmark::DoNotOptimize(out);
          benchmark::ClobberMemory();
        }
        count_heap(state, [&] { a.decode(input.next().view(), out); });
      });
    }
  }
}

template <class A>
void register_adapter() {
  for_each_case([](const case_info& info, auto&& factory) { register_case<A>(info, factory); });
}

// BENCH_ADAPTER only records the adapter during static initialization; main()
// registers (and round-trips) the cases. cereal and Boost register polymorphic
// types from their own static initializers, whose order relative to ours is
// unspecified, so nothing may serialize before main() starts.
using adapter_registrar = void (*)();
std::vector<adapter_registrar>& adapter_registrars();

}  // namespace bench

#define BENCH_ADAPTER(Adapter)                                         \
  [[maybe_unused]] static const bool bench_adapter_recorded_ =         \
      (::bench::adapter_registrars().push_back(&::bench::register_adapter<Adapter>), true)
