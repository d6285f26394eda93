#pragma once
// The properties every fuzz harness checks (tests/fuzz/*_fuzz.cpp), and the seed writer.
//
// A harness lists "cases": a case is a class with
//   static constexpr const char* name;               // for messages and seed file names
//   using type = ...;                                 // the type read from the fuzzer's bytes
//   static std::vector<type> samples();               // values: seeds, and objects reads reuse
// and optionally
//   static constexpr bool canonical = true;           // a successful read re-encodes to its input
//   static bool same(const type&, const type&);       // value equality where bytes are not canonical
//                                                     // (unordered containers)
//   static constexpr std::array golden{"name", ...};  // tests/golden/<name>.bin files holding a type
//   static void check(const fuzz::context&, const type& read, const type& again);
//                                                     // the case's own properties of a value read
//                                                     // and of the value its encoding reads back as
//   static constexpr bool copy_by_bytes = true;       // samples are copied through their bytes
//                                                     // (types that are not copyable, or that
//                                                     // point into themselves)
//
// check_case<Case>(input) reads the input as Case::type and aborts (a crash for libFuzzer) with
// a message naming the property, the case and the input when any property fails:
//   - try_from_bytes is noexcept (an escaping exception terminates: a crash), and from_bytes
//     agrees with it: the same value, or bifrons::error with the same code and offset; nothing
//     else is thrown but the exception of a user hook (fuzz::user_exception), which passes
//     through from_bytes and is user_error for try_from_bytes, with the exception's message;
//   - a failure has a code other than ok and an offset inside the input;
//   - serialized_size(v) is the size to_bytes writes; try_to_bytes writes the same bytes into
//     a buffer of exactly that size and refuses one byte less (buffer_too_small, offset = size);
//     appending to a non-empty container keeps its contents;
//   - decode -> encode -> decode -> encode reaches a fixed point (the second encoding equals the
//     first; cases with `same` compare the values instead);
//   - canonical cases: the first encoding equals the input;
//   - reading into an object that already holds another value (each sample, and the value just
//     read) gives the value a fresh read gives, or fails with the same code and offset (hooks
//     that check their fields included: a read into a reused object that lacks fields is
//     retried from defaults when its hook refuses what the object held before);
//   - under tight read_options a read fails cleanly or succeeds; when it succeeds the reference
//     read succeeded with the same value (tighter limits never make a read succeed);
//   - a read allocates at most about twice its max_alloc_bytes (plus a little bookkeeping the
//     budget does not count, as tests/hostile_test.cpp allows): the bytes it holds at its peak are
//     measured with the sanitizer's malloc hooks, for the reference and the tight limits.
//
// The reference limits are the defaults with a budget of 4 MiB instead of 256 MiB: a few input
// bytes may legitimately ask for the whole budget (a count of empty elements, records of stride
// 0), and filling 256 MiB at every such input would make the fuzzer a hundred times slower, while
// the fuzzer's inputs (a few KiB) need far less than 4 MiB otherwise. The limit checks are the
// same code at any size; tests/hostile_test.cpp covers the default sizes.

#include <bifrons/bifrons.hpp>
#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace fuzz {

using bytes = std::vector<std::byte>;
using input = std::span<const std::byte>;

/// Reports a failed property and aborts: libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const char* property, const char* case_name, input in, const char* detail = nullptr) {
  std::fprintf(stderr, "\n==== bifrons fuzz: property failed: %s%s%s\n     case: %s\n     input (%zu bytes):", property,
               detail ? " -- " : "", detail ? detail : "", case_name, in.size());
  const std::size_t shown = std::min<std::size_t>(in.size(), 512);
  for (std::size_t i = 0; i < shown; ++i) std::fprintf(stderr, " %02x", static_cast<unsigned>(in[i]));
  std::fprintf(stderr, "%s\n", shown < in.size() ? " ..." : "");
  std::abort();
}

/// What a property is checked on: the case's name and the input, for the message.
struct context {
  const char* name;
  input in;
  void check(bool ok, const char* property, const char* detail = nullptr) const {
    if (!ok) [[unlikely]]
      fail(property, name, in, detail);
  }
};

/// The limits of every read whose outcome the properties compare (see the header comment).
inline constexpr bifrons::read_options reference_limits{.max_alloc_bytes = std::size_t{4} << 20};

/// Limits much tighter than the defaults, so that the fuzzer's small inputs reach them.
inline constexpr std::array<bifrons::read_options, 2> tight_limits{{
    {.max_depth = 2, .max_alloc_bytes = 512, .max_elements = 4, .max_bucket_size = 1},
    {.max_depth = 6, .max_alloc_bytes = 16 << 10, .max_elements = 64, .max_bucket_size = 4},
}};

// ---- allocations during a read ---------------------------------------------------------------------

/// Bytes allocated and freed while a read runs, from the sanitizer's malloc and free hooks
/// (installed by initialize()). Frees of blocks allocated before the read lower `live`, so the
/// peak is never overestimated.
struct allocations {
  bool on = false;
  std::int64_t live = 0;
  std::int64_t peak = 0;
  std::size_t largest = 0;
};

inline allocations& tracked() {
  static allocations a;
  return a;
}

inline void on_malloc(const volatile void*, std::size_t size) {
  allocations& a = tracked();
  if (!a.on) return;
  a.live += static_cast<std::int64_t>(size);
  a.peak = std::max(a.peak, a.live);
  a.largest = std::max(a.largest, size);
}

inline void on_free(const volatile void* p) {
  allocations& a = tracked();
  if (!a.on || p == nullptr || !__sanitizer_get_ownership(p)) return;
  a.live -= static_cast<std::int64_t>(__sanitizer_get_allocated_size(p));
}

/// Runs read() while counting what it allocates, and checks the bound of SECURITY.md ("no input
/// makes a read allocate more than about twice max_alloc_bytes") with the slack
/// tests/hostile_test.cpp gives bookkeeping the budget does not count: 64 bytes per input byte
/// and 4 KiB (an empty std::deque member alone takes 576).
template <class Read>
auto within_budget(const context& ctx, const bifrons::read_options& limits, Read&& read) {
  allocations& a = tracked();
  a = allocations{};
  a.on = true;
  auto result = read();
  a.on = false;
  const std::size_t bound = 2 * limits.max_alloc_bytes + 64 * ctx.in.size() + 4096;
  ctx.check(static_cast<std::size_t>(std::max<std::int64_t>(a.peak, 0)) <= bound,
            "a read held more memory than twice max_alloc_bytes (plus bookkeeping)");
  ctx.check(a.largest <= limits.max_alloc_bytes + 4096, "a read made one allocation larger than max_alloc_bytes");
  return result;
}

/// try_from_bytes<T> under `limits`, checked by within_budget.
template <class T>
bifrons::result<T> bounded_read(const context& ctx, input in, const bifrons::read_options& limits) {
  return within_budget(ctx, limits, [&] { return bifrons::try_from_bytes<T>(in, limits); });
}

// ---- the case interface ------------------------------------------------------------------------

template <class Case>
concept has_same = requires(const typename Case::type& a) {
  { Case::same(a, a) } -> std::convertible_to<bool>;
};

template <class Case>
constexpr bool is_canonical() {
  if constexpr (requires { Case::canonical; })
    return Case::canonical;
  else
    return false;
}

/// A copy of a sample to read into: its copy, or for cases that declare
/// `static constexpr bool copy_by_bytes = true;` (types that hold unique_ptrs, owning raw pointers or
/// pointers into themselves) the value its bytes read back as.
template <class Case>
typename Case::type copy_of(const typename Case::type& v) {
  if constexpr (requires { requires Case::copy_by_bytes; })
    return bifrons::from_bytes<typename Case::type>(bifrons::to_bytes(v));
  else
    return v;
}

/// A case whose values read may hold a set or map element that names an object in a later
/// element (data in another order than the writer's): it reads, but writing it again is refused
/// with unwritten_pointee (docs/format.md section 12).
template <class Case>
concept rewrite_may_be_refused = requires { requires Case::rewrite_may_be_refused; };

/// Whether the writer refuses v for that reason (rewrite_may_be_refused cases only).
template <class Case>
bool write_refused(const typename Case::type& v) {
  if constexpr (rewrite_may_be_refused<Case>)
    return bifrons::try_to_bytes(v, std::span<std::byte>()).code() == bifrons::errc::unwritten_pointee;
  else
    return false;
}

/// Equal values: Case::same where bytes are not canonical, else equal encodings (which also
/// compares floating point bit for bit, NaNs included); two values the writer refuses
/// (write_refused) count as equal.
template <class Case>
bool same_value(const typename Case::type& a, const typename Case::type& b) {
  if constexpr (has_same<Case>)
    return Case::same(a, b);
  else if (write_refused<Case>(a) || write_refused<Case>(b))
    return write_refused<Case>(a) && write_refused<Case>(b);
  else
    return bifrons::to_bytes(a) == bifrons::to_bytes(b);
}

/// The samples of a case, built once.
template <class Case>
const std::vector<typename Case::type>& samples_of() {
  static const std::vector<typename Case::type> samples = Case::samples();
  return samples;
}

// ---- value helpers for `same` -------------------------------------------------------------------

template <class T>
inline constexpr bool is_unordered = false;
template <class... A>
inline constexpr bool is_unordered<std::unordered_map<A...>> = true;
template <class... A>
inline constexpr bool is_unordered<std::unordered_multimap<A...>> = true;
template <class... A>
inline constexpr bool is_unordered<std::unordered_set<A...>> = true;
template <class... A>
inline constexpr bool is_unordered<std::unordered_multiset<A...>> = true;

/// Unordered containers by operator== (their bytes follow the hash table's order), anything
/// else by its bytes.
template <class T>
bool same_part(const T& a, const T& b) {
  if constexpr (is_unordered<T>)
    return a == b;
  else
    return bifrons::to_bytes(a) == bifrons::to_bytes(b);
}

/// same_part for each element of two tuples.
template <class... T>
bool same_parts(const std::tuple<T...>& a, const std::tuple<T...>& b) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (same_part(std::get<I>(a), std::get<I>(b)) && ...);
  }(std::index_sequence_for<T...>{});
}

// ---- the properties -------------------------------------------------------------------------------

/// What the user hooks of the harnesses' types throw (Picky in aggregate_fuzz.cpp).
struct user_exception : std::exception {
  const char* what() const noexcept override { return "a user hook refused the value"; }
};

/// The outcome of a read through the throwing API: the error code and offset, or ok. A hook's
/// exception passes through from_bytes without an offset.
struct outcome {
  bifrons::errc code = bifrons::errc::ok;
  std::size_t offset = 0;
  bool has_offset = true;
};

/// from_bytes into `out` (reused) or into a new object; only bifrons::error may escape.
template <class T>
outcome read_throwing(const context& ctx, input in, T& out, bool reuse,
                      const bifrons::read_options& options = reference_limits) {
  try {
    if (reuse)
      bifrons::from_bytes(in, out, options);
    else
      out = bifrons::from_bytes<T>(in, options);
  } catch (const bifrons::error& e) {
    ctx.check(e.code() != bifrons::errc::ok, "from_bytes threw bifrons::error with code ok");
    return {e.code(), e.offset()};
  } catch (const user_exception&) {
    // A hook's exception passes through from_bytes; try_from_bytes reports it as user_error.
    return {bifrons::errc::user_error, 0, false};
  } catch (...) {
    ctx.check(false, "from_bytes threw something other than bifrons::error or a hook's exception");
  }
  return {};
}

/// to_bytes(v), with the checks every encoding gets: serialized_size, try_to_bytes into an exact
/// and a one-byte-short buffer, appending to a container that already holds bytes.
template <class T>
bytes encode(const context& ctx, const T& v) {
  const bytes e = bifrons::to_bytes(v);
  ctx.check(bifrons::serialized_size(v) == e.size(), "serialized_size(v) != the size to_bytes writes");

  bytes buffer(e.size() + 1, std::byte{0xEE});
  const auto exact = bifrons::try_to_bytes(v, std::span<std::byte>(buffer.data(), e.size()));
  ctx.check(exact.has_value() && *exact == e.size(), "try_to_bytes into a buffer of exactly the size failed");
  ctx.check(std::equal(e.begin(), e.end(), buffer.begin()), "try_to_bytes wrote other bytes than to_bytes");
  ctx.check(buffer[e.size()] == std::byte{0xEE}, "try_to_bytes wrote past the size it returned");
  if (!e.empty()) {
    const auto short_by_one = bifrons::try_to_bytes(v, std::span<std::byte>(buffer.data(), e.size() - 1));
    ctx.check(!short_by_one.has_value() && short_by_one.code() == bifrons::errc::buffer_too_small &&
                  short_by_one.offset() == e.size(),
              "try_to_bytes into a buffer one byte short: not buffer_too_small with the size needed");
  }

  std::string appended = "ab";
  bifrons::to_bytes(v, appended);
  ctx.check(appended.size() == e.size() + 2 && appended.compare(0, 2, "ab") == 0 &&
                std::memcmp(appended.data() + 2, e.data(), e.size()) == 0,
            "to_bytes appended to a std::string: prefix lost or other bytes");
  return e;
}

/// The properties of a read that need no re-encoding: from_bytes agrees with try_from_bytes,
/// tight limits fail cleanly or agree with the defaults, reads into existing objects agree with
/// the fresh read `r`.
template <class Case>
void check_reads(const context& ctx, input in, const bifrons::result<typename Case::type>& r) {
  using T = typename Case::type;
  static_assert(noexcept(bifrons::try_from_bytes<T>(in)) && noexcept(bifrons::try_from_bytes<T>(in, reference_limits)),
                "try_from_bytes must be noexcept");
  ctx.check(r.has_value() == (r.code() == bifrons::errc::ok), "try_from_bytes: value and code disagree");
  if (!r) ctx.check(r.offset() <= in.size(), "try_from_bytes: error offset past the end of the input");
  if (r.code() == bifrons::errc::user_error)
    ctx.check(r.message().ends_with(user_exception().what()), "try_from_bytes: a hook's message was lost");

  // The throwing API agrees with the non-throwing one.
  {
    T thrown{};
    const outcome o = read_throwing(ctx, in, thrown, false);
    ctx.check(o.code == r.code(), "from_bytes and try_from_bytes: different error codes");
    if (!r)
      ctx.check(!o.has_offset || o.offset == r.offset(), "from_bytes and try_from_bytes: different error offsets");
    else
      ctx.check(same_value<Case>(thrown, *r), "from_bytes and try_from_bytes: different values");
  }

  // Tight limits: a clean failure, or the value the default limits give.
  for (const bifrons::read_options& limits : tight_limits) {
    const bifrons::result<T> t = bounded_read<T>(ctx, in, limits);
    if (t) {
      ctx.check(r.has_value(), "a read succeeded under tight limits but failed under the reference limits");
      ctx.check(same_value<Case>(*t, *r), "tight limits: another value than the reference limits");
    } else {
      ctx.check(t.code() != bifrons::errc::ok && t.offset() <= in.size(),
                "tight limits: failure without a code or with an offset past the input");
    }
  }

  // Reading into objects that already hold other values.
  const auto reused_read = [&](T existing) {
    const outcome o = read_throwing(ctx, in, existing, true);
    ctx.check(o.code == r.code(), "from_bytes into an existing object: another outcome than a fresh read");
    if (!r)
      ctx.check(!o.has_offset || o.offset == r.offset(), "from_bytes into an existing object: another error offset");
    else
      ctx.check(same_value<Case>(existing, *r), "from_bytes into an existing object: another value");
  };
  for (const T& sample : samples_of<Case>()) reused_read(copy_of<Case>(sample));
  if (r && !write_refused<Case>(*r)) reused_read(copy_of<Case>(*r));
}

/// Every property of the header comment, for the input read as Case::type.
template <class Case>
void check_case(input in) {
  using T = typename Case::type;
  const context ctx{Case::name, in};
  const bifrons::result<T> r = bounded_read<T>(ctx, in, reference_limits);
  check_reads<Case>(ctx, in, r);
  if (!r) return;
  if (write_refused<Case>(*r)) {
    // The checks below write the value read; the case's own checks of it (a walk of every
    // pointer) still run.
    if constexpr (requires { Case::check(ctx, *r, *r); }) Case::check(ctx, *r, *r);
    return;
  }

  // Encodings: sizes, the fixed point, canonical bytes.
  const bytes e1 = encode(ctx, *r);
  if constexpr (is_canonical<Case>())
    ctx.check(std::ranges::equal(e1, in), "canonical type: the encoding of the value read differs from the input");
  const bifrons::result<T> r2 = bifrons::try_from_bytes<T>(e1, reference_limits);
  ctx.check(r2.has_value(), "the encoding of a value read does not read back");
  if constexpr (requires { Case::check(ctx, *r, *r2); }) Case::check(ctx, *r, *r2);
  if constexpr (has_same<Case>) {
    ctx.check(Case::same(*r, *r2), "decode(encode(v)) != v");
    const bytes e2 = encode(ctx, *r2);
    ctx.check(e2.size() == e1.size(), "encode(decode(encode(v))) has another size than encode(v)");
  } else {
    const bytes e2 = encode(ctx, *r2);
    ctx.check(e2 == e1, "encode(decode(encode(v))) != encode(v): no fixed point");
  }
}

/// Runs check_case for each case on the fuzzer's input.
template <class... Cases>
void check_cases(const std::uint8_t* data, std::size_t size) {
  const input in(reinterpret_cast<const std::byte*>(data), size);
  (check_case<Cases>(in), ...);
}

// ---- seeds ------------------------------------------------------------------------------------------

inline void write_file(const std::string& path, std::span<const std::byte> content) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(content.data()), static_cast<std::streamsize>(content.size()));
  if (!out) {
    std::fprintf(stderr, "bifrons fuzz: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

inline bytes read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "bifrons fuzz: cannot read %s\n", path.c_str());
    std::exit(1);
  }
  const std::string content((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto* first = reinterpret_cast<const std::byte*>(content.data());
  return bytes(first, first + content.size());
}

/// The seeds of a case: the golden files it names, and the encoding of each sample.
template <class Case>
void write_seeds(const std::string& dir) {
  if constexpr (requires { Case::golden; })
    for (const char* name : Case::golden)
      write_file(dir + "/golden-" + name + ".bin",
                 read_file(std::string(BIFRONS_FUZZ_GOLDEN_DIR) + "/" + name + ".bin"));
  std::size_t i = 0;
  for (const auto& sample : samples_of<Case>())
    write_file(dir + "/" + Case::name + "-" + std::to_string(i++) + ".bin", bifrons::to_bytes(sample));
}

/// LLVMFuzzerInitialize of every harness: installs the allocation hooks; with
/// BIFRONS_FUZZ_SEEDS=<dir> in the environment, writes the seeds of the cases into <dir> and
/// exits instead of fuzzing (scripts/fuzz --reseed builds the corpus from them).
template <class... Cases>
void initialize() {
  if (__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) == 0) {
    std::fprintf(stderr, "bifrons fuzz: cannot install the malloc hooks\n");
    std::exit(1);
  }
  const char* dir = std::getenv("BIFRONS_FUZZ_SEEDS");
  if (dir == nullptr || *dir == '\0') return;
  (write_seeds<Cases>(dir), ...);
  std::exit(0);
}

}  // namespace fuzz

/// The libFuzzer entry points of a harness whose cases all go through check_case.
#define BIFRONS_FUZZ_CASES(...)                                                       \
  extern "C" int LLVMFuzzerInitialize(int*, char***) {                                \
    ::fuzz::initialize<__VA_ARGS__>();                                                \
    return 0;                                                                         \
  }                                                                                   \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
    ::fuzz::check_cases<__VA_ARGS__>(data, size);                                     \
    return 0;                                                                         \
  }
