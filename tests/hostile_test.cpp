// Hostile input: whatever the bytes, a read either gives a value or a bifrons::error/errc whose
// offset lies within the input; it never crashes, never trips a sanitizer, never recurses
// without bound and never allocates more than read_options allows.
//
//   - every truncation and many single-byte corruptions of every golden file, read as its type
//     with try_from_bytes, from_bytes (fresh and into an existing value) and, for the stream
//     case, bifrons::reader; all of them must agree;
//   - counts of 2^60 elements; allocation budgets, checked with a counting global operator new;
//   - recursive types nested 100 000 deep;
//   - struct envelopes that lie about their length;
//   - deterministic random fuzzing (std::mt19937, fixed seeds).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <forward_list>
#include <fstream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <new>
#include <ostream>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "emulation.hpp"
#include "golden_cases.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

// =============================================================================================
// A counting global operator new/delete (replaceable allocation functions)
// =============================================================================================
//
// Every block carries a small header with its size and the tracking session it was allocated
// in, so that live bytes are counted exactly for the blocks of the current session. The
// aligned forms are left to the standard library (they pair among themselves).

namespace counting {

struct stats {
  bool on;
  std::size_t session;
  std::size_t live;
  std::size_t peak;
  std::size_t largest;
  std::size_t calls;
  std::size_t total;  // bytes requested in all, freed or not
};

/// Requests above this fail as if the machine had run out of memory, without reaching malloc
/// (whose sanitizer builds abort on absurd sizes instead of returning null): 1 TiB on 64-bit
/// hosts, 1 GiB on 32-bit ones.
constexpr std::size_t out_of_memory_above = sizeof(std::size_t) >= 8 ? static_cast<std::size_t>(std::uint64_t{1} << 40)
                                                                     : std::size_t{1} << 30;

constinit stats g{};

constexpr std::size_t header_size = __STDCPP_DEFAULT_NEW_ALIGNMENT__ >= 2 * sizeof(std::size_t)
                                        ? __STDCPP_DEFAULT_NEW_ALIGNMENT__
                                        : 2 * sizeof(std::size_t);

void* allocate(std::size_t n) noexcept {
  if (g.on) {
    ++g.calls;
    g.largest = std::max(g.largest, n);
    g.total += n;
  }
  if (n > out_of_memory_above || n > std::numeric_limits<std::size_t>::max() - header_size) return nullptr;
  void* base = std::malloc(n + header_size);
  if (base == nullptr) return nullptr;
  auto* h = static_cast<std::size_t*>(base);
  h[0] = n;
  h[1] = g.on ? g.session : 0;
  if (g.on) {
    g.live += n;
    g.peak = std::max(g.peak, g.live);
  }
  return static_cast<char*>(base) + header_size;
}

void release(void* p) noexcept {
  if (p == nullptr) return;
  char* base = static_cast<char*>(p) - header_size;
  const auto* h = reinterpret_cast<const std::size_t*>(base);
  if (g.on && h[1] == g.session) g.live -= h[0];
  std::free(base);
}

/// Counts the allocations f makes.
template <class F>
auto track(F&& f) {
  g.on = true;
  ++g.session;
  g.live = g.peak = g.largest = g.calls = g.total = 0;
  struct stop {
    ~stop() { g.on = false; }
  } guard;
  return f();
}

}  // namespace counting

void* operator new(std::size_t n) {
  if (void* p = counting::allocate(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  if (void* p = counting::allocate(n)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counting::allocate(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counting::allocate(n); }
void operator delete(void* p) noexcept { counting::release(p); }
void operator delete[](void* p) noexcept { counting::release(p); }
void operator delete(void* p, std::size_t) noexcept { counting::release(p); }
void operator delete[](void* p, std::size_t) noexcept { counting::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counting::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counting::release(p); }

namespace {

using bifrons::errc;
using bytes = std::vector<std::byte>;
using spec = golden::spec::bytes;

// =============================================================================================
// Recursive and small test types
// =============================================================================================

struct Node {
  std::int32_t v = 0;
  std::vector<Node> children;
  friend bool operator==(const Node& a, const Node& b) { return a.v == b.v && a.children == b.children; }
};

struct Chain {
  std::unique_ptr<Chain> next;
  friend bool operator==(const Chain& a, const Chain& b) {
    if (bool(a.next) != bool(b.next)) return false;
    return !a.next || *a.next == *b.next;
  }
};

struct OneDouble {
  double d = 0;
};
struct OneU32 {
  std::uint32_t x = 0;
};
struct Inner {
  std::int32_t v = 0;
};
struct Outer {
  Inner in;
  std::int32_t after = 0;
};
struct OneString {
  std::string s;
};
struct VersionedOne {
  static constexpr std::uint32_t bifrons_version = 1;
  std::int32_t a = 0;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t) {
    ar(a);
  }
};
struct Payload {
  std::vector<std::uint8_t> data;
  std::int32_t tail = 0;
  bool operator==(const Payload&) const = default;
};

// =============================================================================================
// The checks every hostile read goes through
// =============================================================================================

/// Tight limits for hostile reads (the allocation bounds below are checked against them).
constexpr bifrons::read_options tight{
    .max_depth = 64, .max_alloc_bytes = std::size_t{1} << 20, .max_elements = std::size_t{1} << 20};

struct status {
  errc code = errc::ok;
  std::size_t offset = 0;
  std::size_t missing = 0;  // bytes_missing(): unexpected_end and count_exceeds_input only
  bool operator==(const status&) const = default;
};

std::ostream& operator<<(std::ostream& os, const status& s) {
  return os << bifrons::describe(s.code) << " at " << s.offset << " (" << s.missing << " missing)";
}

template <class T>
status status_of(const bifrons::result<T>& r) {
  return r ? status{} : status{r.code(), r.offset(), r.bytes_missing()};
}

/// Describes the input being checked, for failure messages only.
struct where {
  const char* what;
  std::size_t a = 0;
  unsigned b = 0;
};

std::ostream& operator<<(std::ostream& os, const where& w) {
  return os << " [" << w.what << " " << w.a << " / 0x" << std::hex << w.b << std::dec << "]";
}

/// Runs f while counting allocations; no single allocation may exceed the budget (plus a
/// terminator's worth of slack), and the live bytes may exceed it only by bookkeeping that the
/// budget does not count (tree nodes, deque maps): at most 64 bytes per input byte.
template <class F>
auto within_budget(std::size_t input_size, const where& at, F&& f) {
  auto result = counting::track(std::forward<F>(f));
  EXPECT_LE(counting::g.largest, tight.max_alloc_bytes + 64) << at;
  EXPECT_LE(counting::g.peak, tight.max_alloc_bytes + 64 * input_size + 4096) << at;
  return result;
}

void expect_sane(const status& s, std::size_t input_size, const where& at) {
  if (s.code == errc::ok) return;
  EXPECT_LE(s.offset, input_size) << s << at;
  EXPECT_NE(s.code, errc::out_of_memory) << at;
  EXPECT_NE(s.code, errc::user_error) << at;
  // Input that ran out says by how much; no other error does.
  const bool ran_out = s.code == errc::unexpected_end || s.code == errc::count_exceeds_input;
  EXPECT_EQ(s.missing != 0, ran_out) << s << at;
}

/// Equal values: golden::same, or (for structs holding NaNs, which their operator== calls
/// unequal) the same canonical encoding.
template <class T>
bool equivalent(const T& a, const T& b) {
  return golden::same(a, b) || bifrons::to_bytes(a) == bifrons::to_bytes(b);
}

/// Reads in as T in every way and checks that the ways agree. seed() makes the object that
/// the reusing from_bytes reads into. Returns the status of the tight read.
template <class T, class Seed>
status check_read(std::span<const std::byte> in, Seed&& seed, const where& at) {
  // Default limits, non-throwing.
  const auto loose = bifrons::try_from_bytes<T>(in);
  expect_sane(status_of(loose), in.size(), at);

  // Tight limits, non-throwing, allocation counted.
  const auto fresh = within_budget(in.size(), at, [&] { return bifrons::try_from_bytes<T>(in, tight); });
  const status s = status_of(fresh);
  expect_sane(s, in.size(), at);
  if (fresh) {
    // Tighter limits cannot turn an invalid input into a valid one.
    EXPECT_TRUE(loose.has_value()) << status_of(loose) << at;
    if (loose) {
      EXPECT_TRUE(equivalent(*fresh, *loose)) << at;
    }
  }

  // Tight limits, throwing.
  const status thrown = within_budget(in.size(), at, [&] {
    try {
      const T value = bifrons::from_bytes<T>(in, tight);
      if (fresh) {
        EXPECT_TRUE(equivalent(value, *fresh)) << at;
      }
      return status{};
    } catch (const bifrons::error& e) {
      return status{e.code(), e.offset(), e.bytes_missing()};
    }
  });
  EXPECT_EQ(thrown, s) << at;

  // Into an existing object: the same outcome as a fresh read.
  T reused = seed();
  const status into = within_budget(in.size(), at, [&] {
    try {
      bifrons::from_bytes(in, reused, tight);
      return status{};
    } catch (const bifrons::error& e) {
      return status{e.code(), e.offset(), e.bytes_missing()};
    }
  });
  EXPECT_EQ(into, s) << at;
  if (fresh && into.code == errc::ok) {
    EXPECT_TRUE(equivalent(reused, *fresh)) << at;
  }

  // Whatever loaded writes and reads back to itself.
  if (fresh) {
    const bytes again = bifrons::to_bytes(*fresh);
    EXPECT_EQ(bifrons::serialized_size(*fresh), again.size()) << at;
    const auto back = bifrons::try_from_bytes<T>(again);
    EXPECT_TRUE(back.has_value()) << status_of(back) << at;
    if (back) {
      EXPECT_TRUE(equivalent(*back, *fresh)) << at;
    }
  }
  return s;
}

/// The stream case, read value by value with bifrons::reader: it must stop at the same error.
template <class Tuple>
void check_reader(std::span<const std::byte> in, const status& expected, const where& at) {
  bifrons::reader r(in, tight);
  Tuple values{};
  status s;
  try {
    std::apply([&](auto&... v) { r(v...); }, values);
    if (!r.done()) s = {errc::trailing_bytes, r.offset()};
  } catch (const bifrons::error& e) {
    s = {e.code(), e.offset(), e.bytes_missing()};
    EXPECT_EQ(r.bytes_missing(), e.bytes_missing()) << at;
    EXPECT_EQ(r.code(), e.code()) << at;
    EXPECT_EQ(r.offset(), e.offset()) << at;
    EXPECT_FALSE(r.ok()) << at;
  }
  expect_sane(s, in.size(), at);
  EXPECT_EQ(s, expected) << at;
}

/// A copy of the case's value, to read into (made once for copyable types).
template <class Case>
typename Case::type seed_of() {
  if constexpr (std::is_copy_constructible_v<typename Case::type>) {
    static const typename Case::type cached = Case::value();
    return cached;
  } else {
    return Case::value();
  }
}

template <class Case>
status check_case(std::span<const std::byte> in, const where& at) {
  using T = typename Case::type;
  const status s = check_read<T>(in, &seed_of<Case>, at);
  if constexpr (golden::is_streamed<Case>) check_reader<T>(in, s, at);
  return s;
}

bytes load_golden(const char* name) {
  const std::string path = std::string(BIFRONS_TEST_DATA_DIR) + "/golden/" + name + ".bin";
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  bytes out;
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it)
    out.push_back(std::byte(static_cast<unsigned char>(*it)));
  return out;
}

/// Positions to corrupt: all of them in small files; in large ones the first and last 512
/// and every 61st in between (deterministic).
std::vector<std::size_t> corruption_positions(std::size_t size) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < size; ++i)
    if (size <= 1024 || i < 512 || i >= size - 512 || i % 61 == 0) out.push_back(i);
  return out;
}

// =============================================================================================
// Truncations, corruptions and mutations of every golden file
// =============================================================================================

template <class Case>
class HostileGolden : public ::testing::Test {};

struct CaseName {
  template <class Case>
  static std::string GetName(int) {
    return Case::name;
  }
};

TYPED_TEST_SUITE(HostileGolden, golden::case_list<::testing::Types>, CaseName);

TYPED_TEST(HostileGolden, EveryTruncation) {
  const bytes file = load_golden(TypeParam::name);
  ASSERT_FALSE(file.empty());
  std::size_t failures = 0;
  for (std::size_t n = 0; n < file.size() && !this->HasFailure(); ++n) {
    const status s = check_case<TypeParam>(std::span(file).first(n), {"prefix", n});
    failures += s.code != errc::ok;
    // A prefix of a valid encoding runs out of bytes: unexpected_end where it ends, or a count
    // that the bytes left cannot hold (bytes_missing says by how much, checked by expect_sane).
    EXPECT_TRUE(s.code == errc::unexpected_end ? s.offset == n : s.code == errc::count_exceeds_input)
        << s << " for the first " << n << " bytes";
  }
  // The empty input holds no value of any type: at least that prefix fails.
  EXPECT_GE(failures, 1u);
}

TYPED_TEST(HostileGolden, EverySingleByteCorruption) {
  const bytes file = load_golden(TypeParam::name);
  bytes copy = file;
  for (const std::size_t pos : corruption_positions(file.size())) {
    const unsigned original = static_cast<unsigned>(file[pos]);
    for (const unsigned replacement : {0x00u, 0xFFu, 0x80u, 0x7Fu, original ^ 0x01u, original ^ 0x40u}) {
      if (replacement == original) continue;
      copy[pos] = std::byte(replacement);
      check_case<TypeParam>(copy, {"corrupt byte", pos, replacement});
    }
    copy[pos] = file[pos];
    if (this->HasFailure()) return;
  }
  EXPECT_EQ(copy, file);
}

/// Random edits: bit flips, interesting bytes, insertions, deletions, duplicated chunks.
bytes mutate(bytes data, std::mt19937& rng) {
  static constexpr unsigned interesting[] = {0x00, 0x01, 0x02, 0x03, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t pos = data.empty() ? 0 : rng() % data.size();
    switch (rng() % 6) {
      case 0:
        if (!data.empty()) data[pos] ^= std::byte(1u << (rng() % 8));
        break;
      case 1:
        if (!data.empty()) data[pos] = std::byte(interesting[rng() % std::size(interesting)]);
        break;
      case 2: data.insert(data.begin() + static_cast<std::ptrdiff_t>(pos), std::byte(rng() & 0xFF)); break;
      case 3:
        if (!data.empty()) data.erase(data.begin() + static_cast<std::ptrdiff_t>(pos));
        break;
      case 4: {
        const std::size_t len = std::min<std::size_t>(data.size() - pos, 1 + rng() % 8);
        const bytes chunk(data.begin() + static_cast<std::ptrdiff_t>(pos),
                          data.begin() + static_cast<std::ptrdiff_t>(pos + len));
        data.insert(data.begin() + static_cast<std::ptrdiff_t>(pos), chunk.begin(), chunk.end());
        break;
      }
      default: data.resize(pos); break;
    }
  }
  return data;
}

TYPED_TEST(HostileGolden, RandomMutations) {
  const bytes file = load_golden(TypeParam::name);
  std::seed_seq seq(TypeParam::name, TypeParam::name + std::char_traits<char>::length(TypeParam::name));
  std::mt19937 rng(seq);
  for (std::size_t i = 0; i < 300 && !this->HasFailure(); ++i) {
    const bytes input = mutate(file, rng);
    check_case<TypeParam>(input, {"mutation", i});
  }
}

// =============================================================================================
// Counts of 2^60 elements
// =============================================================================================

template <class T>
status read_status(std::span<const std::byte> in, const bifrons::read_options& options) {
  const status s = status_of(bifrons::try_from_bytes<T>(in, options));
  status thrown;
  try {
    (void)bifrons::from_bytes<T>(in, options);
  } catch (const bifrons::error& e) {
    thrown = {e.code(), e.offset(), e.bytes_missing()};
  }
  EXPECT_EQ(thrown, s);
  return s;
}

template <class T>
struct Wrapped {
  T field;
};

struct huge_count_case {
  const char* name;
  status (*read)(std::span<const std::byte>, const bifrons::read_options&);
  status (*read_wrapped)(std::span<const std::byte>, const bifrons::read_options&);
  errc unlimited;  // the error once max_elements is out of the way (on a 64-bit host)
};

template <class T>
huge_count_case huge(const char* name, errc unlimited) {
  return {name, &read_status<T>, &read_status<Wrapped<T>>, unlimited};
}

class HugeCount : public ::testing::TestWithParam<huge_count_case> {};

TEST_P(HugeCount, RefusedAtTheCountBeforeAllocating) {
  const auto& c = GetParam();
  const bytes count = spec{}.u(std::uint64_t{1} << 60).out;
  ASSERT_EQ(count.size(), 9u);  // 61 significant bits: nine 7-bit groups
  const bytes wrapped = spec{}.env(spec{.out = count}).out;
  ASSERT_EQ(wrapped.size(), 10u);  // header 9 << 1 = 0x12, then the count at offset 1

  const where at{c.name};
  const bifrons::read_options defaults;
  EXPECT_EQ(within_budget(count.size(), at, [&] { return c.read(count, defaults); }),
            (status{errc::element_limit_exceeded, 0}));
  EXPECT_EQ(within_budget(wrapped.size(), at, [&] { return c.read_wrapped(wrapped, defaults); }),
            (status{errc::element_limit_exceeded, 1}));

  // Without an element limit the other checks stop it, still at the count. (A 32-bit host's
  // limit, SIZE_MAX, is below 2^60: there the element limit still applies.)
  bifrons::read_options unlimited;
  unlimited.max_elements = std::numeric_limits<std::size_t>::max();
  const errc expected = sizeof(std::size_t) >= 8 ? c.unlimited : errc::element_limit_exceeded;
  // 2^60 elements of at least a byte each are far more than bytes_missing can count: it saturates.
  const std::size_t missing = expected == errc::count_exceeds_input ? 0xFFFF'FFFFu : 0;
  EXPECT_EQ(within_budget(count.size(), at, [&] { return c.read(count, unlimited); }), (status{expected, 0, missing}));
  EXPECT_EQ(within_budget(wrapped.size(), at, [&] { return c.read_wrapped(wrapped, unlimited); }),
            (status{expected, 1, missing}));
}

INSTANTIATE_TEST_SUITE_P(
    Hostile, HugeCount,
    ::testing::Values(huge<std::vector<int>>("vector_int", errc::count_exceeds_input),
                      huge<std::vector<std::string>>("vector_string", errc::count_exceeds_input),
                      huge<std::string>("string", errc::count_exceeds_input),
                      huge<std::u32string>("u32string", errc::count_exceeds_input),
                      huge<std::map<int, int>>("map_int_int", errc::count_exceeds_input),
                      huge<std::set<std::string>>("set_string", errc::count_exceeds_input),
                      huge<std::vector<bool>>("vector_bool", errc::count_exceeds_input),
                      huge<std::vector<golden::Empty>>("vector_empty_struct", errc::count_exceeds_input),
                      // Zero-size elements take no input bytes: only the budget stops them.
                      huge<std::vector<std::monostate>>("vector_monostate", errc::allocation_limit_exceeded),
                      huge<std::vector<std::tuple<>>>("vector_empty_tuple", errc::allocation_limit_exceeded)),
    [](const auto& info) { return std::string(info.param.name); });

// =============================================================================================
// Allocation budget
// =============================================================================================

/// 1 MiB budget, default element limit.
constexpr std::size_t mib = std::size_t{1} << 20;
constexpr bifrons::read_options budget = [] {
  bifrons::read_options o;
  o.max_alloc_bytes = mib;
  return o;
}();

/// varint(count), then filler bytes.
bytes count_then(std::uint64_t count, std::size_t filler, std::byte value = std::byte{0}) {
  bytes out = spec{}.u(count).out;
  out.resize(out.size() + filler, value);
  return out;
}

template <class T>
status budget_read(const bytes& in, const char* what) {
  return within_budget(in.size(), {what}, [&] { return read_status<T>(in, budget); });
}

TEST(AllocationBudget, ZeroSizeElementsAreCharged) {
  EXPECT_EQ(budget_read<std::vector<std::monostate>>(count_then(2 * mib, 0), "2 Mi monostates"),
            (status{errc::allocation_limit_exceeded, 0}));
  EXPECT_LT(counting::g.largest, 64u * 1024);  // the 2 MiB were never requested

  const bytes exact = count_then(mib / sizeof(std::monostate), 0);
  const auto v = within_budget(exact.size(), {"1 Mi monostates"},
                               [&] { return bifrons::try_from_bytes<std::vector<std::monostate>>(exact, budget); });
  ASSERT_TRUE(v.has_value()) << status_of(v);
  EXPECT_EQ(v->size(), mib / sizeof(std::monostate));
  EXPECT_GE(counting::g.largest, mib);  // the counter saw the storage (it is the whole budget)
}

template <class T>
class BlockBudget : public ::testing::Test {};
using BlockTypes = ::testing::Types<std::vector<std::uint8_t>, std::vector<std::int32_t>, std::vector<double>,
                                    std::string, std::u16string, std::deque<std::uint16_t>>;
TYPED_TEST_SUITE(BlockBudget, BlockTypes);

TYPED_TEST(BlockBudget, ExactlyTheBudgetLoadsOneMoreElementIsRefused) {
  using T = TypeParam;
  constexpr std::size_t width = sizeof(typename T::value_type);  // wire width == sizeof here
  // (A deque of libc++ is charged its first block and map, too.)
  const std::size_t n = (mib - bifrons::detail::first_segment_allocation<T>()) / width;

  const bytes fits = count_then(n, n * width, std::byte{0x01});
  const auto loaded = within_budget(fits.size(), {"at budget"},
                                    [&] { return bifrons::try_from_bytes<T>(fits, budget); });
  ASSERT_TRUE(loaded.has_value()) << status_of(loaded);
  EXPECT_EQ(loaded->size(), n);
  EXPECT_GE(counting::g.peak, n * width);

  const bytes over = count_then(n + 1, (n + 1) * width, std::byte{0x01});
  EXPECT_EQ(budget_read<T>(over, "over budget"), (status{errc::allocation_limit_exceeded, 0}));
  EXPECT_LT(counting::g.largest, mib);  // refused before the storage was requested
}

TEST(AllocationBudget, VectorOfStringsChargesTheStringObjects) {
  // Empty strings take one input byte each but sizeof(std::string) bytes of storage.
  const std::size_t n = mib / sizeof(std::string) + 1;
  EXPECT_EQ(budget_read<std::vector<std::string>>(count_then(n, n), "strings"),
            (status{errc::allocation_limit_exceeded, 0}));
  EXPECT_LT(counting::g.largest, mib);
}

TEST(AllocationBudget, VectorBoolChargesThePackedBytes) {
  const std::uint64_t bits = std::uint64_t{8} * (mib + 1);  // mib + 1 packed bytes
  const bytes over = count_then(bits, mib + 1);
  EXPECT_EQ(budget_read<std::vector<bool>>(over, "bits"), (status{errc::allocation_limit_exceeded, 0}));
  EXPECT_LT(counting::g.largest, mib);

  const bytes too_short = count_then(bits, mib);  // one packed byte missing
  EXPECT_EQ(read_status<std::vector<bool>>(too_short, {}), (status{errc::count_exceeds_input, 0, 1}));
}

TEST(AllocationBudget, TheBudgetIsCumulativeOverTheWholeRead) {
  // Three vectors of 100 000 int32 (400 000 bytes each): the third one exceeds 1 MiB in total.
  constexpr std::size_t n = 100'000;
  spec in;
  in.u(3);
  std::size_t third = 0;
  for (int i = 0; i < 3; ++i) {
    if (i == 2) third = in.out.size();
    in.u(n);
    in.out.resize(in.out.size() + 4 * n, std::byte{0x7F});
  }
  ASSERT_EQ(third, 1 + 2 * (3 + 4 * n));
  EXPECT_EQ(budget_read<std::vector<std::vector<std::int32_t>>>(in.out, "cumulative"),
            (status{errc::allocation_limit_exceeded, third}));
  EXPECT_LE(counting::g.peak, mib);
}

TEST(AllocationBudget, EachUniquePtrObjectIsCharged) {
  // vector<unique_ptr<int64_t>>: the vector's pointers, then per object sizeof(int64_t) and its
  // entry in the reader's object table.
  using P = std::unique_ptr<std::int64_t>;
  constexpr std::size_t per_object = sizeof(std::int64_t) + bifrons::detail::object_entry_cost;
  const std::size_t n = mib / (sizeof(P) + per_object) + 1;
  spec in;
  in.u(n);
  for (std::size_t i = 0; i < n; ++i) in.u(1).s(0);  // tag 1, value 0
  // Objects that still fit after the vector's n pointers were charged:
  const std::size_t fitting = (mib - n * sizeof(P)) / per_object;
  ASSERT_LT(fitting, n);
  const std::size_t offset = spec{}.u(n).out.size() + 2 * fitting;  // the refused pointer's tag
  EXPECT_EQ(budget_read<std::vector<P>>(in.out, "unique_ptr"), (status{errc::allocation_limit_exceeded, offset}));
}

TEST(AllocationBudget, ReadingIntoAnExistingObjectChargesLikeAFreshRead) {
  // A struct whose last field is missing (an older writer) and whose first field takes 60% of
  // the budget: a fresh read fits, and so must a read into an existing object (which has to
  // reset the object and read the fields again).
  Payload big;
  big.data.assign(mib * 6 / 10, 0x42);
  const bytes body = spec{}.u(big.data.size()).out;
  spec in;
  {
    spec fields{.out = body};
    fields.out.insert(fields.out.end(), reinterpret_cast<const std::byte*>(big.data.data()),
                      reinterpret_cast<const std::byte*>(big.data.data() + big.data.size()));
    in.env(fields);  // no `tail`
  }
  const auto fresh = bifrons::try_from_bytes<Payload>(in.out, budget);
  ASSERT_TRUE(fresh.has_value()) << status_of(fresh);
  EXPECT_EQ(*fresh, big);

  Payload existing{{1, 2, 3}, 77};
  status into;
  try {
    bifrons::from_bytes(in.out, existing, budget);
  } catch (const bifrons::error& e) {
    into = {e.code(), e.offset(), e.bytes_missing()};
  }
  EXPECT_EQ(into, status{});
  EXPECT_EQ(existing, big);  // tail reset to its default
}

// =============================================================================================
// Amplification: the budget covers what the standard library really allocates
// =============================================================================================
//
// Node-based containers allocate a node per element, hash tables also a bucket array, and an
// empty libstdc++ deque a map and a first block; elements that take no input bytes cost only
// what they allocate. A read may allocate no more than about twice max_alloc_bytes, whatever
// the input (issue 8).

/// `80 80 80 20`: a count of 2^26 (64 Mi, the default element limit) in four bytes.
bytes count_of_64_mi() { return spec{}.raw({0x80, 0x80, 0x80, 0x20}).out; }

template <class C>
class NodesOfZeroSizeElements : public ::testing::Test {};
using ZeroSizeNodeContainers =
    ::testing::Types<std::list<std::monostate>, std::forward_list<std::monostate>, std::set<std::monostate>,
                     std::multiset<std::monostate>, std::unordered_set<std::monostate>,
                     std::unordered_multiset<std::monostate>, std::map<std::monostate, std::monostate>,
                     std::multimap<std::monostate, std::tuple<>>, std::unordered_map<std::monostate, std::monostate>>;
TYPED_TEST_SUITE(NodesOfZeroSizeElements, ZeroSizeNodeContainers);

TYPED_TEST(NodesOfZeroSizeElements, FourBytesAreRefusedBeforeAnyNodeIsAllocated) {
  // Before: std::list<std::monostate> accepted these four bytes and allocated 1.5 GiB.
  const bytes in = count_of_64_mi();
  const status s = counting::track([&] { return read_status<TypeParam>(in, bifrons::read_options{}); });
  EXPECT_EQ(s, (status{errc::allocation_limit_exceeded, 0}));
  EXPECT_LT(counting::g.total, 4096u);
}

TEST(Amplification, AVectorOfHugeListsStopsAtTheFirstList) {
  // 17 bytes: four lists of 64 Mi monostates. Before: 4.6 GiB allocated, 3 lists built.
  spec in;
  in.u(4);
  for (int i = 0; i < 4; ++i) in.add(spec{.out = count_of_64_mi()});
  const status s = counting::track([&] {
    return read_status<std::vector<std::list<std::monostate>>>(in.out, bifrons::read_options{});
  });
  EXPECT_EQ(s, (status{errc::allocation_limit_exceeded, 1}));
  EXPECT_LT(counting::g.total, 4096u);
}

/// The element of a family of containers of containers that each hold one char.
struct one_char {};

/// Families of containers and the bytes of their i-th element (distinct keys where the
/// container needs them).
template <class C, class Element>
struct family {
  using type = C;
  static void element(spec& out, std::size_t i) {
    if constexpr (std::is_same_v<Element, std::monostate>) {
      (void)out, (void)i;
    } else if constexpr (std::is_same_v<Element, char>) {
      out.raw({static_cast<unsigned>(i % 251)});
    } else if constexpr (std::is_same_v<Element, std::uint32_t>) {
      out.u(i);
    } else if constexpr (std::is_same_v<Element, std::pair<std::uint32_t, std::uint8_t>>) {
      out.u(i).u(7);
    } else if constexpr (std::is_same_v<Element, one_char>) {
      out.u(1).raw({static_cast<unsigned>(i % 251)});
    } else {
      static_assert(std::is_same_v<Element, void>, "empty container or string: one byte, a zero count");
      out.u(0);
    }
  }
};

template <class F>
class AllocationHonesty : public ::testing::Test {};
using Families = ::testing::Types<
    family<std::vector<std::monostate>, std::monostate>, family<std::deque<std::monostate>, std::monostate>,
    family<std::list<std::monostate>, std::monostate>, family<std::forward_list<std::monostate>, std::monostate>,
    family<std::multiset<std::monostate>, std::monostate>,
    family<std::unordered_multiset<std::monostate>, std::monostate>, family<std::list<char>, char>,
    family<std::forward_list<char>, char>, family<std::set<std::uint32_t>, std::uint32_t>,
    family<std::unordered_set<std::uint32_t>, std::uint32_t>,
    family<std::map<std::uint32_t, std::uint8_t>, std::pair<std::uint32_t, std::uint8_t>>,
    family<std::unordered_map<std::uint32_t, std::uint8_t>, std::pair<std::uint32_t, std::uint8_t>>,
    family<std::vector<std::deque<char>>, void>, family<std::list<std::string>, void>,
    family<std::vector<std::vector<std::monostate>>, void>>;
TYPED_TEST_SUITE(AllocationHonesty, Families);

TYPED_TEST(AllocationHonesty, NoCountMakesAReadAllocateMoreThanTwiceTheBudget) {
  using C = typename TypeParam::type;
  std::size_t largest_loaded = 0;
  // Under emulation, fewer counts of the same kind (the largest input alone is 3 MB).
  const std::vector<std::size_t> divisors = bifrons_test::emulated
                                                ? std::vector<std::size_t>{1024, 64, 16, 4}
                                                : std::vector<std::size_t>{4096, 1024, 256, 64, 16, 4, 1};
  for (const std::size_t divisor : divisors) {
    const std::size_t n = mib / divisor;
    spec in;
    in.u(n);
    for (std::size_t i = 0; i < n; ++i) TypeParam::element(in, i);
    const where at{"count", n};
    const status s = counting::track([&] { return read_status<C>(in.out, budget); });
    EXPECT_LE(counting::g.peak, 2 * mib) << at;
    if (s == status{}) {
      largest_loaded = std::max(largest_loaded, counting::g.peak);
    } else {
      EXPECT_EQ(s, (status{errc::allocation_limit_exceeded, 0})) << at;
      EXPECT_LT(counting::g.largest, 4096u) << at;  // refused at the count, before any storage
    }
  }
  // The estimate is honest, not merely pessimistic: some count that loads uses at least an
  // eighth of the budget.
  EXPECT_GE(largest_loaded, mib / 8);
}

TEST(AllocationHonesty, DequesOfOneCharStayWithinTwiceTheBudget) {
  // libc++'s deque allocates nothing when empty, and a block of 4 KiB and its map at its first
  // element: each two bytes of input cost 4 KiB. The read charges that block as each deque gets
  // its first element, so the refusal comes at a deque, not at the vector's count.
  using C = family<std::vector<std::deque<char>>, one_char>;
  for (const std::size_t n : {std::size_t{16}, std::size_t{256}, std::size_t{4096}, std::size_t{65536}}) {
    spec in;
    in.u(n);
    for (std::size_t i = 0; i < n; ++i) C::element(in, i);
    const where at{"count", n};
    const status s = counting::track([&] { return read_status<C::type>(in.out, budget); });
    EXPECT_LE(counting::g.peak, 2 * mib) << at;
    if (s != status{}) {
      EXPECT_EQ(s.code, errc::allocation_limit_exceeded) << at;
    }
  }
}

// ---- hash flooding ---------------------------------------------------------------------------

/// n keys that all land in one bucket of a hash table reserved for n keys: libstdc++'s hash of
/// an integer is the integer, and the bucket is the hash modulo the bucket count.
template <class Set>
std::pair<bytes, std::vector<std::size_t>> colliding_keys(std::size_t n, bool with_values) {
  Set probe;
  probe.reserve(n);
  const std::size_t buckets = probe.bucket_count();
  spec in;
  in.u(n);
  std::vector<std::size_t> key_at;
  for (std::size_t i = 0; i < n; ++i) {
    key_at.push_back(in.out.size());
    in.u(i * buckets);
    if (with_values) in.u(1);
  }
  return {in.out, key_at};
}

TEST(HashFlooding, CollidingKeysAreRefusedWhenABucketPassesTheLimit) {
  // Before: 40 000 such keys took 1.8 s to load, quadratically.
  constexpr std::size_t n = 1000;
  const auto [set_bytes, set_at] = colliding_keys<std::unordered_set<std::uint64_t>>(n, false);
  const bifrons::read_options defaults;
  ASSERT_EQ(defaults.max_bucket_size, 64u);
  EXPECT_EQ(read_status<std::unordered_set<std::uint64_t>>(set_bytes, defaults),
            (status{errc::bucket_limit_exceeded, set_at[64]}));

  const auto [map_bytes, map_at] = colliding_keys<std::unordered_map<std::uint64_t, std::int32_t>>(n, true);
  EXPECT_EQ((read_status<std::unordered_map<std::uint64_t, std::int32_t>>(map_bytes, defaults)),
            (status{errc::bucket_limit_exceeded, map_at[64]}));

  // The limit is the caller's: raised, the same keys load.
  bifrons::read_options patient;
  patient.max_bucket_size = n;
  const auto loaded = bifrons::try_from_bytes<std::unordered_set<std::uint64_t>>(set_bytes, patient);
  ASSERT_TRUE(loaded.has_value()) << status_of(loaded);
  EXPECT_EQ(loaded->size(), n);
}

TEST(HashFlooding, OrdinaryKeysLoadUnderTheDefaultLimit) {
  std::unordered_set<std::uint64_t> keys;
  std::mt19937_64 rng(8);
  while (keys.size() < 20'000) keys.insert(rng() >> (rng() % 64));
  for (std::uint64_t k = 0; k < 20'000; ++k) keys.insert(k * 64);  // a common stride
  const auto loaded = bifrons::try_from_bytes<std::unordered_set<std::uint64_t>>(bifrons::to_bytes(keys));
  ASSERT_TRUE(loaded.has_value()) << status_of(loaded);
  EXPECT_EQ(*loaded, keys);
}

TEST(HashFlooding, EqualKeysOfAMultisetAreNotLimited) {
  // Equal keys share a bucket by definition (SECURITY.md documents the multi forms).
  const std::vector<std::uint64_t> sevens(1000, 7);
  const std::unordered_multiset<std::uint64_t> same(sevens.begin(), sevens.end());
  const auto loaded = bifrons::try_from_bytes<std::unordered_multiset<std::uint64_t>>(bifrons::to_bytes(same));
  ASSERT_TRUE(loaded.has_value()) << status_of(loaded);
  EXPECT_EQ(loaded->count(7), 1000u);
}

// ---- the stream reader ---------------------------------------------------------------------

TEST(StreamBudget, AStreamLongerThanTheBudgetIsRefusedWithoutBufferingIt) {
  // Before: a 1 GiB stream with max_alloc_bytes = 1024 took 1 GiB of memory.
  std::istringstream stream(std::string(mib, '\0'));  // a megabyte of valid uint8 values
  bifrons::read_options small;
  small.max_alloc_bytes = 1024;
  const status s = counting::track([&] {
    bifrons::reader r(stream, small);
    return status{r.code(), r.offset()};
  });
  EXPECT_EQ(s, (status{errc::allocation_limit_exceeded, 1024}));
  EXPECT_LE(counting::g.peak, 2 * 1024u);
  EXPECT_EQ(stream.tellg(), std::streampos(1025));  // one byte past the budget, no further
}

TEST(StreamBudget, TheBufferedBytesCountTowardTheBudget) {
  // 602 bytes holding a vector of 600 bytes: buffer and vector need 1202 bytes of budget.
  const std::vector<std::uint8_t> value(600, 9);
  const bytes encoded = bifrons::to_bytes(value);
  ASSERT_EQ(encoded.size(), 602u);
  const auto read_with = [&](std::size_t limit) {
    std::istringstream stream(std::string(reinterpret_cast<const char*>(encoded.data()), encoded.size()));
    bifrons::read_options o;
    o.max_alloc_bytes = limit;
    bifrons::reader r(stream, o);
    std::vector<std::uint8_t> out;
    try {
      r(out);
    } catch (const bifrons::error&) {
    }
    return status{r.code(), r.ok() ? 0 : r.offset()};
  };
  EXPECT_EQ(read_with(1201), (status{errc::allocation_limit_exceeded, 0}));
  EXPECT_EQ(read_with(1202), status{});
}

// ---- limits the caller lifted ------------------------------------------------------------------

bifrons::read_options without_limits() {
  bifrons::read_options o;
  o.max_alloc_bytes = std::numeric_limits<std::size_t>::max();
  o.max_elements = std::numeric_limits<std::size_t>::max();
  return o;
}

TEST(LiftedLimits, ACountBeyondTheContainersMaxSizeIsAnElementLimitError) {
  // Before: from_bytes threw std::length_error, and try_from_bytes reported user_error.
  // (max_size() is the standard library's: 2^60 - 1 here with libstdc++, 2^61 - 1 with libc++.)
  using T = std::vector<std::array<std::monostate, 8>>;
  const bytes in = spec{}.u(std::uint64_t{T{}.max_size()} + 1).out;
  EXPECT_EQ(read_status<T>(in, without_limits()), (status{errc::element_limit_exceeded, 0}));
}

TEST(LiftedLimits, AnAllocationTheMachineRefusesIsOutOfMemoryNotBadAlloc) {
  // Before: from_bytes threw std::bad_alloc. (The counting operator new refuses requests over
  // 2^40 bytes, as a machine without that much memory would.) Where the allocator gave up is not
  // tracked: the offset is 0.
  const bytes in = spec{}.u(std::uint64_t{1} << 41).out;
  const status expected = sizeof(std::size_t) >= 8 ? status{errc::out_of_memory, 0}
                                                   : status{errc::element_limit_exceeded, 0};
  EXPECT_EQ(read_status<std::vector<std::monostate>>(in, without_limits()), expected);
}

// ---- zero-size elements (SECURITY.md, "Zero-size elements") ------------------------------------

TEST(ZeroSizeElements, FourBytesClaimTheElementLimitAndNoMore) {
  // std::monostate takes no bytes: 80 80 80 20 (2^26) asks for max_elements of them, which the
  // default budget allows for a vector (1 byte each: 64 MiB charged). The element limit is the
  // bound, not the input's length.
  const bytes four = spec{}.u(std::uint64_t{1} << 26).out;
  ASSERT_EQ(four.size(), 4u);
  const auto all = bifrons::try_from_bytes<std::vector<std::monostate>>(four);
  ASSERT_TRUE(all) << status_of(all);
  EXPECT_EQ(all->size(), std::size_t{1} << 26);
  EXPECT_EQ(read_status<std::vector<std::monostate>>(spec{}.u((std::uint64_t{1} << 26) + 1).out, {}),
            (status{errc::element_limit_exceeded, 0}));
  // A list node is charged 32 bytes or more: the budget refuses 2^26 of them at the count.
  EXPECT_EQ(read_status<std::list<std::monostate>>(four, {}), (status{errc::allocation_limit_exceeded, 0}));
  // The remedy: lower max_elements (or the budget) for types with zero-size elements.
  const bifrons::read_options small{.max_elements = 1000};
  EXPECT_EQ(read_status<std::vector<std::tuple<>>>(spec{}.u(1001).out, small),
            (status{errc::element_limit_exceeded, 0}));
  EXPECT_EQ(bifrons::from_bytes<std::vector<std::tuple<>>>(spec{}.u(1000).out, small).size(), 1000u);
}

// =============================================================================================
// Depth: recursive types nested 100 000 deep
// =============================================================================================

struct nested {
  bytes data;
  std::vector<std::size_t> header_at;  // offset of each level's struct header, outermost first
};

/// depth envelopes, each holding `outer` then the next level, the innermost holding `innermost`
/// (outer and innermost have the same size). Built from the format rules, not by the writer.
nested make_nested(std::size_t depth, const bytes& outer, const bytes& innermost) {
  std::vector<std::uint64_t> body(depth);
  std::uint64_t below = 0;  // encoded size of the level below
  for (std::size_t k = depth; k-- > 0;) {
    body[k] = (k + 1 == depth ? innermost.size() : outer.size() + below);
    below = spec{}.u(body[k] << 1).out.size() + body[k];
  }
  nested n;
  spec out;
  for (std::size_t k = 0; k < depth; ++k) {
    n.header_at.push_back(out.out.size());
    out.u(body[k] << 1).add(spec{.out = k + 1 == depth ? innermost : outer});
  }
  n.data = std::move(out.out);
  return n;
}

/// Node: v = 0, one child (innermost: no children).
struct node_shape {
  using type = Node;
  static nested make(std::size_t depth) {
    return make_nested(depth, {std::byte{0x00}, std::byte{0x01}}, {std::byte{0x00}, std::byte{0x00}});
  }
  static std::size_t depth(const Node& n) {
    std::size_t d = 1;
    for (const Node* p = &n; !p->children.empty(); p = &p->children[0]) ++d;
    return d;
  }
  static Node build(std::size_t depth) {
    Node root;
    Node* p = &root;
    for (std::size_t k = 1; k < depth; ++k) {
      p->children.resize(1);
      p = &p->children[0];
    }
    return root;
  }
};

/// Chain: next present (tag 1), innermost: null (tag 0).
struct chain_shape {
  using type = Chain;
  static nested make(std::size_t depth) { return make_nested(depth, {std::byte{0x01}}, {std::byte{0x00}}); }
  static std::size_t depth(const Chain& c) {
    std::size_t d = 1;
    for (const Chain* p = &c; p->next; p = p->next.get()) ++d;
    return d;
  }
  static Chain build(std::size_t depth) {
    Chain root;
    Chain* p = &root;
    for (std::size_t k = 1; k < depth; ++k) {
      p->next = std::make_unique<Chain>();
      p = p->next.get();
    }
    return root;
  }
};

template <class Shape>
class Depth : public ::testing::Test {};
using Shapes = ::testing::Types<node_shape, chain_shape>;
TYPED_TEST_SUITE(Depth, Shapes);

TYPED_TEST(Depth, HandBuiltNestingMatchesTheWriter) {
  for (std::size_t d : {1u, 2u, 5u, 40u}) {
    EXPECT_EQ(bifrons::to_bytes(TypeParam::build(d)), TypeParam::make(d).data) << d;
  }
}

TYPED_TEST(Depth, HundredThousandLevelsHitTheDepthLimit) {
  using T = typename TypeParam::type;
  const nested deep = TypeParam::make(100'000);
  const status limit{errc::depth_limit_exceeded, deep.header_at[64]};  // the 65th struct

  EXPECT_EQ(read_status<T>(deep.data, {}), limit);
  EXPECT_EQ(within_budget(deep.data.size(), {"deep"}, [&] { return read_status<T>(deep.data, tight); }), limit);

  bifrons::reader r(deep.data);
  T value{};
  EXPECT_THROW(r(value), bifrons::error);
  EXPECT_EQ(r.code(), limit.code);
  EXPECT_EQ(r.offset(), limit.offset);

  // Every truncation of the deep input fails cleanly too (sampled).
  for (std::size_t n = 0; n < deep.data.size(); n += 997) {
    const status s = read_status<T>(std::span(deep.data).first(n), {});
    EXPECT_NE(s.code, errc::ok);
    EXPECT_LE(s.offset, n);
  }
}

TYPED_TEST(Depth, NestingUpToMaxDepthLoads) {
  using T = typename TypeParam::type;
  for (const std::size_t max_depth : {1u, 2u, 10u, 64u, 200u}) {
    bifrons::read_options options;
    options.max_depth = max_depth;
    const nested ok = TypeParam::make(max_depth);
    const auto loaded = bifrons::try_from_bytes<T>(ok.data, options);
    ASSERT_TRUE(loaded.has_value()) << max_depth << ": " << status_of(loaded);
    EXPECT_EQ(TypeParam::depth(*loaded), max_depth);
    EXPECT_EQ(bifrons::to_bytes(*loaded), ok.data);

    const nested over = TypeParam::make(max_depth + 1);
    EXPECT_EQ(read_status<T>(over.data, options), (status{errc::depth_limit_exceeded, over.header_at[max_depth]}))
        << max_depth;
  }
}

TYPED_TEST(Depth, MaxDepthZeroRefusesEveryStruct) {
  using T = typename TypeParam::type;
  bifrons::read_options options;
  options.max_depth = 0;
  EXPECT_EQ(read_status<T>(TypeParam::make(1).data, options), (status{errc::depth_limit_exceeded, 0}));
  // Values that are not structs need no nesting level.
  EXPECT_EQ(read_status<std::vector<std::int32_t>>(spec{}.u(1).le(5, 4).out, options), status{});
}

TEST(Depth, TheLimitCountsNestingNotStructs) {
  // 1000 sibling structs at depth 2 stay within max_depth = 2.
  Node wide;
  wide.children.resize(1000);
  bifrons::read_options options;
  options.max_depth = 2;
  const auto loaded = bifrons::try_from_bytes<Node>(bifrons::to_bytes(wide), options);
  ASSERT_TRUE(loaded.has_value()) << status_of(loaded);
  EXPECT_EQ(loaded->children.size(), 1000u);
}

// =============================================================================================
// Crafted inputs: lying envelopes and the other refusals, with exact codes and offsets
// =============================================================================================

struct crafted_case {
  const char* name;
  bytes input;
  status (*read)(std::span<const std::byte>, const bifrons::read_options&);
  status expected;
};

std::ostream& operator<<(std::ostream& os, const crafted_case& c) { return os << c.name; }

template <class T>
crafted_case crafted(const char* name, bytes input, errc code, std::size_t offset, std::size_t missing = 0) {
  return {name, std::move(input), &read_status<T>, {code, offset, missing}};
}

bytes B(std::initializer_list<unsigned> list) { return spec{}.raw(list).out; }

class Crafted : public ::testing::TestWithParam<crafted_case> {};

TEST_P(Crafted, ExactErrorAndOffset) {
  const auto& c = GetParam();
  EXPECT_EQ(within_budget(c.input.size(), {c.name}, [&] { return c.read(c.input, tight); }), c.expected);
  EXPECT_EQ(c.read(c.input, {}), c.expected);
}

const bool long_is_64 = sizeof(long) == 8;

INSTANTIATE_TEST_SUITE_P(
    Hostile, Crafted,
    ::testing::Values(
        // Envelopes.
        // unexpected_end is reported where the input (or the enclosing body) ends, with the bytes
        // the value that ran out needed beyond it.
        crafted<OneDouble>("envelope_longer_than_input", B({0x10, 1, 2, 3}), errc::unexpected_end, 4, 5),
        crafted<OneDouble>("envelope_length_2_63", B({0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}),
                           errc::unexpected_end, 10, 0xFFFF'FFFFu),  // 2^63 - 1 missing, saturated
        crafted<OneDouble>("double_runs_past_envelope", B({0x08, 0, 0, 0, 0, 0, 0, 0, 0}), errc::unexpected_end, 5, 4),
        crafted<std::vector<OneDouble>>("field_past_envelope_not_read_from_next_value",
                                        spec{}.u(2).raw({0x08, 0, 0, 0, 0}).env(spec{}.f64(0)).out,
                                        errc::unexpected_end, 6, 4),
        crafted<OneU32>("varint_runs_past_envelope", B({0x02, 0x80, 0x01}), errc::unexpected_end, 2, 1),
        crafted<Outer>("nested_envelope_longer_than_parent", B({0x04, 0x06, 0x02, 0x00, 0x00}), errc::unexpected_end, 3,
                       2),
        crafted<OneString>("string_count_past_envelope", B({0x04, 0x05, 'a', 'b', 'c', 'd', 'e'}),
                           errc::count_exceeds_input, 1, 4),
        crafted<VersionedOne>("version_runs_past_envelope", B({0x03, 0xAC, 0x02}), errc::unexpected_end, 2, 1),
        crafted<VersionedOne>("version_above_2_32", B({0x0B, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F}), errc::value_out_of_range,
                              1),
        crafted<OneU32>("header_not_minimal", B({0x80, 0x00}), errc::malformed_varint, 0),
        crafted<Outer>("unknown_fields_skipped", B({0x08, 0x02, 0x04, 0x04, 0x7F}), errc::ok, 0),
        crafted<Outer>("short_envelope_defaults", B({0x02, 0x00}), errc::ok, 0),
        crafted<OneDouble>("empty_input_struct", {}, errc::unexpected_end, 0, 1),
        // Varints and scalars.
        crafted<std::uint64_t>("varint_11_bytes", B({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}),
                               errc::malformed_varint, 0),
        crafted<std::uint64_t>("varint_65_bits", B({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02}),
                               errc::malformed_varint, 0),
        crafted<std::uint32_t>("varint_not_minimal", B({0x80, 0x00}), errc::malformed_varint, 0),
        crafted<std::uint8_t>("uint8_256", B({0x80, 0x02}), errc::value_out_of_range, 0),
        crafted<std::int8_t>("int8_128", B({0x80, 0x02}), errc::value_out_of_range, 0),
        crafted<std::int32_t>("empty_input_int", {}, errc::unexpected_end, 0, 1),
        crafted<std::int32_t>("trailing_bytes", B({0x02, 0x00}), errc::trailing_bytes, 1),
        crafted<double>("double_7_bytes", B({0, 0, 0, 0, 0, 0, 0}), errc::unexpected_end, 7, 1),
        crafted<bool>("bool_2", B({0x02}), errc::invalid_value, 0),
        crafted<long>("long_2_32", spec{}.s(std::int64_t{1} << 32).out,
                      long_is_64 ? errc::ok : errc::value_out_of_range, 0),
        crafted<std::vector<long>>("vector_long_2_32", spec{}.u(1).le(std::uint64_t{1} << 32, 8).out,
                                   long_is_64 ? errc::ok : errc::value_out_of_range, long_is_64 ? 0 : 1),
        // Tags and containers.
        crafted<std::optional<std::int32_t>>("optional_tag_2", B({0x02}), errc::invalid_value, 0),
        crafted<std::variant<std::monostate, std::int32_t>>("variant_index_2", B({0x02}), errc::invalid_value, 0),
        crafted<std::unique_ptr<std::int32_t>>("unique_ptr_tag_2", B({0x02, 0x00}), errc::invalid_value, 0),
        crafted<std::unique_ptr<std::int32_t>>("unique_ptr_back_reference", B({0x03}), errc::invalid_value, 0),
        crafted<std::vector<std::int32_t>>("block_count_exceeds_input", B({0x03, 0, 0, 0, 0, 0, 0, 0, 0}),
                                           errc::count_exceeds_input, 0, 4),
        crafted<std::set<std::int32_t>>("set_duplicate", B({0x02, 0x02, 0x02}), errc::duplicate_key, 2),
        crafted<std::map<std::int32_t, std::int32_t>>("map_duplicate", B({0x02, 0x02, 0x00, 0x02, 0x04}),
                                                      errc::duplicate_key, 3),
        crafted<std::vector<bool>>("vector_bool_padding", B({0x03, 0x08}), errc::invalid_value, 1),
        crafted<std::vector<bool>>("vector_bool_short", B({0x09, 0x00}), errc::count_exceeds_input, 0, 1),
        crafted<std::bitset<10>>("bitset_padding", B({0x00, 0x04}), errc::invalid_value, 1)),
    [](const auto& info) { return std::string(info.param.name); });

// =============================================================================================
// Random fuzzing
// =============================================================================================

struct node_seed {
  using type = Node;
  static Node value() { return node_shape::build(3); }
};
struct chain_seed {
  using type = Chain;
  static Chain value() { return chain_shape::build(3); }
};
struct views_seed {
  using type = std::tuple<std::string_view, std::u8string_view, std::int32_t>;
  static type value() { return {"abc", u8"d", 1}; }
};

template <class... Cases>
struct fuzz_targets {
  using check = status (*)(std::span<const std::byte>, const where&);
  static constexpr check each[] = {&check_case<Cases>...};
  static constexpr std::size_t count = sizeof...(Cases);
  static void read_all(std::span<const std::byte> in, const where& at) { (check_case<Cases>(in, at), ...); }
};

using targets = fuzz_targets<golden::account, golden::scalars, golden::strings, golden::versioned, golden::base_class,
                             golden::deprecated_fields, golden::optional_variant, golden::maps_sets,
                             golden::unique_ptrs, golden::sequences, golden::vector_bool, golden::array_bitset,
                             golden::complex_chrono, golden::empties, node_seed, chain_seed, views_seed>;

TEST(Fuzz, RandomByteStrings) {
  std::mt19937 rng(20240601u);
  static constexpr unsigned alphabet[] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x06, 0x08, 0x7F, 0x80, 0x81, 0xFF};
  bytes input;
  for (std::size_t i = 0; i < bifrons_test::scaled_count(20'000) && !HasFailure(); ++i) {
    input.resize(rng() % 65);
    const bool biased = (i % 2) == 1;  // half uniform bytes, half small values and varint edges
    for (auto& b : input) b = std::byte(biased ? alphabet[rng() % std::size(alphabet)] : rng() & 0xFF);
    // Each input is read as four of the types, a different four each time (every type sees
    // over 4 000 inputs of every length).
    for (std::size_t k = 0; k < 4; ++k) targets::each[(i + 4 * k) % targets::count](input, {"random input", i});
  }
}

template <class... Cases>
struct golden_files_as_targets {
  static void run() {
    (
        [] {
          const bytes file = load_golden(Cases::name);
          targets::read_all(file, {Cases::name});
        }(),
        ...);
  }
};

TEST(Fuzz, EveryGoldenFileReadAsEveryOtherType) { golden::case_list<golden_files_as_targets>::run(); }

}  // namespace
