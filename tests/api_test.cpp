// The core API (bifrons/core.hpp): every to_bytes overload, serialized_size, from_bytes,
// try_from_bytes, try_to_bytes, bifrons::error, bifrons::result and read_options.
#include <bifrons/core.hpp>

#include <algorithm>
#include <array>
#include <bitset>
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include "types/test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

struct Sample {
  std::uint32_t id = 0;
  std::string name;
  std::vector<double> values;
  std::optional<std::map<std::string, int>> tags;
  friend bool operator==(const Sample&, const Sample&) = default;
};

Sample big_sample() {
  Sample s{7, std::string(300, 'n'), std::vector<double>(100, 1.5), std::map<std::string, int>{{"a", 1}}};
  return s;
}

// ---- to_bytes -----------------------------------------------------------------------------------------

TEST(ToBytes, ReturnsAVectorOfBytes) {
  static_assert(std::is_same_v<decltype(bifrons::to_bytes(1)), std::vector<std::byte>>);
  EXPECT_EQ(hex(bifrons::to_bytes(std::uint16_t{300})), "ac 02");
  EXPECT_EQ(hex(bifrons::to_bytes(std::tuple<>{})), "");
}

template <class C>
class ToBytesInto : public ::testing::Test {};
using ByteContainers = ::testing::Types<std::vector<std::byte>, std::vector<char>, std::vector<unsigned char>,
                                        std::vector<signed char>, std::string, std::u8string>;
TYPED_TEST_SUITE(ToBytesInto, ByteContainers);

TYPED_TEST(ToBytesInto, AppendsToExistingContents) {
  using E = typename TypeParam::value_type;
  TypeParam out{E('x'), E('y')};
  const Sample s = big_sample();
  const bytes expected = bifrons::to_bytes(s);
  bifrons::to_bytes(s, out);
  ASSERT_EQ(out.size(), 2 + expected.size());
  EXPECT_EQ(out[0], E('x'));
  EXPECT_EQ(out[1], E('y'));
  EXPECT_EQ(hex(bytes(reinterpret_cast<const std::byte*>(out.data()) + 2,
                      reinterpret_cast<const std::byte*>(out.data()) + out.size())),
            hex(expected));
  bifrons::to_bytes(std::int8_t{-1}, out);
  ASSERT_EQ(out.size(), 3 + expected.size());
  EXPECT_EQ(static_cast<unsigned char>(out.back()), 0x01);
  // The appended value reads back from the container.
  const auto back = bifrons::from_bytes<Sample>(std::span(out).subspan(2, expected.size()));
  EXPECT_EQ(back, s);
}

TYPED_TEST(ToBytesInto, ReusedOutputDoesNotReallocate) {
  TypeParam out;
  const Sample s = big_sample();
  bifrons::to_bytes(s, out);
  const auto* data = out.data();
  const std::size_t capacity = out.capacity();
  for (int round = 0; round < 3; ++round) {
    out.clear();
    bifrons::to_bytes(s, out);
    EXPECT_EQ(out.data(), data);
    EXPECT_EQ(out.capacity(), capacity);
    out.clear();
    bifrons::to_bytes(std::string("small"), out);
    EXPECT_EQ(out.data(), data);
    EXPECT_EQ(out.capacity(), capacity);
  }
}

/// The bytes the fixed-buffer overload writes: a path of its own, to compare the others with.
template <class T>
bytes written_into_buffer(const T& value) {
  bytes buffer(bifrons::serialized_size(value) + 32);
  buffer.resize(bifrons::to_bytes(value, std::span<std::byte>(buffer)));
  return buffer;
}

// Values whose encoding ends with their elements' bytes as in memory are appended without
// resizing the container first (see BlocksOfElementsAppendWithoutResizing).
TYPED_TEST(ToBytesInto, BlocksOfElementsAppendAsTheFixedBufferOverloadWritesThem) {
  using E = typename TypeParam::value_type;
  std::vector<std::int32_t> ints(300);
  for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = static_cast<std::int32_t>(i * 2654435761u);
  const std::vector<double> doubles{1.5, -2.25, 1e300};
  const std::string text(200, 't');
  TypeParam out{E('x')};
  bytes expected{std::byte{'x'}};
  const auto append = [&](const auto& value) {
    bifrons::to_bytes(value, out);
    const bytes b = written_into_buffer(value);
    expected.insert(expected.end(), b.begin(), b.end());
    ASSERT_EQ(out.size(), expected.size());
    EXPECT_EQ(hex(out), hex(expected));
  };
  append(ints);
  append(doubles);
  append(std::vector<std::int32_t>{});
  append(text);
  append(std::u16string(u"\u20ac1"));
  append(std::vector<std::uint8_t>{1, 2, 3});
  EXPECT_EQ(bifrons::from_bytes<std::vector<std::int32_t>>(std::span(out).subspan(1, 2 + 4 * 300)), ints);
}

/// A byte container that counts its resize() calls.
struct resize_counting_bytes {
  using value_type = std::byte;
  std::vector<std::byte> v;
  int resizes = 0;
  void resize(std::size_t n) {
    ++resizes;
    v.resize(n);
  }
  std::byte* data() noexcept { return v.data(); }
  const std::byte* data() const noexcept { return v.data(); }
  std::size_t size() const noexcept { return v.size(); }
  std::size_t capacity() const noexcept { return v.capacity(); }
  std::size_t max_size() const noexcept { return v.max_size(); }
  void reserve(std::size_t n) { v.reserve(n); }
  auto end() noexcept { return v.end(); }
  void push_back(std::byte b) { v.push_back(b); }
  template <class It>
  auto insert(std::vector<std::byte>::iterator at, It first, It last) {
    return v.insert(at, first, last);
  }
};

TEST(ToBytes, BlocksOfElementsAppendWithoutResizing) {
  resize_counting_bytes out;
  bifrons::to_bytes(std::vector<double>(1000, 0.5), out);
  bifrons::to_bytes(std::string(100, 's'), out);
  bifrons::to_bytes(std::vector<std::int16_t>{}, out);
  // On a big-endian host numbers are swapped into place: only the string's bytes are appended as
  // they are.
  EXPECT_EQ(out.resizes, bifrons::detail::host_is_little_endian ? 0 : 2);
  EXPECT_EQ(hex(out.v), hex(cat({written_into_buffer(std::vector<double>(1000, 0.5)),
                                 written_into_buffer(std::string(100, 's')), B({0x00})})));
  // Other values are written into room made by resize() (and cut back to what was written).
  bifrons::to_bytes(big_sample(), out);
  EXPECT_GT(out.resizes, 0);
}

/// Counts allocations, to check that to_bytes resizes its output once per call.
inline int allocations = 0;
template <class T>
struct counting_allocator {
  using value_type = T;
  counting_allocator() = default;
  template <class U>
  counting_allocator(const counting_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    ++allocations;
    return std::allocator<T>{}.allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>{}.deallocate(p, n); }
  friend bool operator==(const counting_allocator&, const counting_allocator&) = default;
};

TEST(ToBytes, OneAllocationPerCallAtMost) {
  std::vector<std::byte, counting_allocator<std::byte>> out;
  allocations = 0;
  bifrons::to_bytes(big_sample(), out);
  EXPECT_EQ(allocations, 1);
  out.reserve(out.size() * 3);
  allocations = 0;
  bifrons::to_bytes(big_sample(), out);
  EXPECT_EQ(allocations, 0);
  EXPECT_TRUE(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(out.size() / 2),
                         out.begin() + static_cast<std::ptrdiff_t>(out.size() / 2)));
}

TEST(ToBytes, AppendingBlocksGrowsTheContainerGeometrically) {
  std::vector<std::byte, counting_allocator<std::byte>> out;
  allocations = 0;
  const std::vector<std::int32_t> ten(10, 7);
  for (int i = 0; i < 1000; ++i) bifrons::to_bytes(ten, out);
  EXPECT_EQ(out.size(), 1000u * 41);
  // Doubling from 41 bytes to 41,000 takes 11 allocations; an exact reserve each time, 1000.
  EXPECT_LE(allocations, 12);
  EXPECT_EQ(hex(std::span(out).first(41)), hex(written_into_buffer(ten)));
}

/// Ten varint fields: a bound (5 bytes each) that is at most twice the exact size of large values.
struct Tens {
  std::int32_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0;
  friend bool operator==(const Tens&, const Tens&) = default;
};

TEST(ToBytes, LargeMessagesIntoAReusedContainerTakeOnePass) {
  std::vector<Tens> many(1000);
  for (std::size_t i = 0; i < many.size(); ++i)
    many[i].a = many[i].c = many[i].e = many[i].g = many[i].i = many[i].j =
        static_cast<std::int32_t>((i + 1) * 2654435761u);
  const std::size_t bound = bifrons::detail::size_bound_of(many);
  const std::size_t size = bifrons::serialized_size(many);
  ASSERT_GT(bound, bifrons::detail::one_pass_bound);
  ASSERT_LE(bound / 2, size);
  std::vector<std::byte, counting_allocator<std::byte>> out;
  allocations = 0;
  bifrons::to_bytes(many, out);
  // Room for the bound, in one allocation: the next call writes without the exact size pass.
  EXPECT_EQ(allocations, 1);
  EXPECT_GE(out.capacity(), bound);
  EXPECT_EQ(hex(out), hex(written_into_buffer(many)));
  out.clear();
  bifrons::to_bytes(many, out);
  EXPECT_EQ(allocations, 1);
  EXPECT_EQ(hex(out), hex(written_into_buffer(many)));
  EXPECT_EQ(bifrons::from_bytes<std::vector<Tens>>(out), many);

  // A bound more than twice the exact size (small values): only the exact size is allocated.
  const std::vector<Tens> small(1000);
  std::vector<std::byte> exact;
  bifrons::to_bytes(small, exact);
  EXPECT_EQ(exact.size(), bifrons::serialized_size(small));
  EXPECT_LT(exact.capacity(), bifrons::detail::size_bound_of(small));
  EXPECT_EQ(hex(exact), hex(written_into_buffer(small)));
  // Reused, the container had room for the message: it gets room for the bound once, so that
  // the messages after this one take one pass.
  exact.clear();
  bifrons::to_bytes(small, exact);
  EXPECT_GE(exact.capacity(), bifrons::detail::size_bound_of(small));
  EXPECT_EQ(hex(exact), hex(written_into_buffer(small)));
  // Appended after other bytes, the rule is the same: room for this message's bytes decides.
  std::vector<std::byte> log(3, std::byte{1});
  bifrons::to_bytes(small, log);
  EXPECT_LT(log.capacity(), 3 + bifrons::detail::size_bound_of(small));
  EXPECT_EQ(hex(std::span(log).subspan(3)), hex(written_into_buffer(small)));
}

// ---- to_bytes into a fixed buffer, try_to_bytes ------------------------------------------------------------

constexpr std::byte guard{0xcc};

template <class T>
void check_span_output(const T& value) {
  const bytes expected = bifrons::to_bytes(value);
  const std::size_t n = expected.size();
  std::vector<std::byte> buffer(n + 32, guard);

  // Exact fit.
  EXPECT_EQ(bifrons::to_bytes(value, std::span<std::byte>(buffer.data(), n)), n);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), buffer.begin()));
  EXPECT_TRUE(std::all_of(buffer.begin() + static_cast<std::ptrdiff_t>(n), buffer.end(), [](std::byte b) {
    return b == guard;
  })) << "written past the end";

  // A larger buffer: only the first n bytes are used.
  std::fill(buffer.begin(), buffer.end(), guard);
  auto r = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, n);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), buffer.begin()));
  EXPECT_TRUE(std::all_of(buffer.begin() + static_cast<std::ptrdiff_t>(n), buffer.end(),
                          [](std::byte b) { return b == guard; }));

  // One byte short (and empty): an error naming the size needed, and nothing written.
  if (n == 0) return;
  for (std::size_t size : {n - 1, std::size_t{0}}) {
    std::fill(buffer.begin(), buffer.end(), guard);
    const std::span<std::byte> small(buffer.data(), size);
    try {
      (void)bifrons::to_bytes(value, small);
      ADD_FAILURE() << "no exception for a buffer of " << size << " bytes";
    } catch (const bifrons::error& e) {
      EXPECT_EQ(e.code(), errc::buffer_too_small);
      EXPECT_EQ(e.offset(), n);
    }
    auto t = bifrons::try_to_bytes(value, small);
    ASSERT_FALSE(t);
    EXPECT_EQ(t.code(), errc::buffer_too_small);
    EXPECT_EQ(t.offset(), n);
    EXPECT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](std::byte b) { return b == guard; }))
        << "written into a too-small buffer";
  }
}

struct ThrowsOnSave {
  template <class Archive>
  void save(Archive&) const {
    throw std::runtime_error("cannot save");
  }
  template <class Archive>
  void load(Archive&) {}
};

TEST(ToBytesSpan, TryToBytesTurnsAHookExceptionIntoUserError) {
  // try_to_bytes is noexcept: before, a throwing save hook terminated the program.
  std::vector<std::byte> buffer(64);
  const auto r = bifrons::try_to_bytes(ThrowsOnSave{}, std::span<std::byte>(buffer));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::user_error);
  EXPECT_THROW((void)bifrons::to_bytes(ThrowsOnSave{}, std::span<std::byte>(buffer)), std::runtime_error);
}

/// Its size pass succeeds and its write pass throws: the container has been resized by then.
struct ThrowsWhileWriting {
  std::string payload = std::string(100, 'x');
  inline static int saves = 0;
  template <class Archive>
  void save(Archive& ar) const {
    if (++saves % 2 == 0) throw std::runtime_error("cannot write");
    ar(payload);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(payload);
  }
};

TEST(ToBytesContainer, AThrowingHookLeavesTheContainerAsItWas) {
  // Before, the container kept the room resized for the value.
  std::vector<std::byte> out{std::byte{1}, std::byte{2}, std::byte{3}};
  ThrowsWhileWriting::saves = 0;
  EXPECT_THROW(bifrons::to_bytes(ThrowsWhileWriting{}, out), std::runtime_error);
  EXPECT_EQ(ThrowsWhileWriting::saves, 2);  // the size pass, then the write that threw
  EXPECT_EQ(out, (std::vector<std::byte>{std::byte{1}, std::byte{2}, std::byte{3}}));
}

struct Named {
  std::int32_t id = 0;
  std::string name;
  friend bool operator==(const Named&, const Named&) = default;
};

// A buffer with room for the size bound takes the one-pass write, whose header room comes from
// the body's bound: where the bound needs a wider header than the body (a body just under 64
// or 8,192 bytes whose bound is over), the body moves back. Every length around both widths,
// into a buffer of exactly the bound: the same bytes as to_bytes, nothing written past it.
TEST(ToBytesSpan, ABufferOfTheBoundAtEveryHeaderWidth) {
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 140; ++n) lengths.push_back(n);
  for (std::size_t n = 8160; n <= 8200; ++n) lengths.push_back(n);
  std::size_t moved = 0;
  for (const std::size_t n : lengths) {
    const Named value{-70000, std::string(n, 'x')};
    const bytes expected = bifrons::to_bytes(value);
    const std::size_t bound = bifrons::size_bound(value);
    ASSERT_GE(bound, expected.size()) << n;
    std::vector<std::byte> buffer(bound + 16, guard);
    const auto written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer.data(), bound));
    ASSERT_TRUE(written) << n;
    ASSERT_EQ(*written, expected.size()) << n;
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), buffer.begin())) << n;
    EXPECT_TRUE(std::all_of(buffer.begin() + static_cast<std::ptrdiff_t>(bound), buffer.end(),
                            [](std::byte b) { return b == guard; }))
        << "written past the bound, name of " << n;
    EXPECT_EQ(bifrons::from_bytes<Named>(std::span<const std::byte>(buffer.data(), *written)), value) << n;
    // Count the lengths whose bound's header (bound = width + body bound, the width that of
    // body bound x 2) is wider than the written header: those took the move.
    const auto width = [](std::uint64_t v) {
      std::size_t k = 1;
      for (; v >= 0x80; v >>= 7) ++k;
      return k;
    };
    std::size_t header = 1;
    while ((expected[header - 1] & std::byte{0x80}) != std::byte{0}) ++header;
    for (std::size_t room = 1; room <= 3; ++room) {
      if (width(std::uint64_t{bound - room} << 1) == room && room > header) ++moved;
    }
  }
  // Both widths' edges: bodies of 60 to 63 bytes with bounds over 64, and of 8,188 to 8,191.
  EXPECT_GE(moved, 4u) << "too few lengths whose bound's header is wider than its body's";
}

TEST(ToBytesSpan, ExactFitTooSmallAndGuardRegion) {
  check_span_output(std::uint8_t{1});
  check_span_output(std::numeric_limits<std::uint64_t>::max());
  check_span_output(std::string(200, 's'));
  check_span_output(big_sample());
  check_span_output(std::vector<Sample>(3, big_sample()));
  check_span_output(std::tuple<>{});
  check_span_output(std::map<int, std::vector<std::string>>{{1, {"a"}}, {2, {}}});
}

// ---- serialized_size --------------------------------------------------------------------------------------

template <class T>
void check_size(const T& value) {
  EXPECT_EQ(bifrons::serialized_size(value), bifrons::to_bytes(value).size()) << hex_of(value);
}

template <class... Ts>
void check_sizes(const Ts&... values) {
  (check_size(values), ...);
}

TEST(SerializedSize, EqualsTheBytesWritten) {
  check_sizes(0, -1, 63, -64, 64, 127, 128, 16383, 16384, std::numeric_limits<std::int64_t>::min(),
              std::numeric_limits<std::uint64_t>::max(), true, 'c', 1.0f, 2.0, std::byte{1}, std::string(),
              std::string(127, 'a'), std::string(128, 'a'), std::u32string(70000, U'x'), std::vector<long>(5),
              std::vector<bool>(17), std::vector<std::string>{"a", "bc", ""}, std::optional<int>{},
              std::optional<std::string>("x"), std::variant<int, std::string>("v"), std::pair<int, double>{1, 2},
              std::map<std::string, std::vector<int>>{{"k", {1, 2}}}, std::set<int>{1, 2, 3}, std::array<int, 3>{},
              std::bitset<13>{0x1fff}, Sample{}, big_sample(), std::vector<Sample>(50, big_sample()),
              std::make_unique<int>(3), std::chrono::seconds(-100), std::complex<double>(1, 2));
}

TEST(SerializedSize, StructHeadersGrowWithTheBody) {
  // A struct {string} with a body of 63 bytes has a one-byte header, 64 bytes a two-byte header.
  struct S {
    std::string s;
  };
  EXPECT_EQ(bifrons::serialized_size(S{std::string(62, 'x')}), 1u + 63u);
  EXPECT_EQ(bifrons::serialized_size(S{std::string(63, 'x')}), 2u + 64u);
  const bytes two_byte_header = bifrons::to_bytes(S{std::string(63, 'x')});
  EXPECT_EQ(hex(bytes(two_byte_header.begin(), two_byte_header.begin() + 3)), "80 01 3f");
  check_sizes(S{std::string(62, 'x')}, S{std::string(63, 'x')}, S{std::string(10000, 'x')});
  const S big{std::string(10000, 'y')};
  EXPECT_EQ(round_trip(big).s, big.s);
}

// ---- size_bound -------------------------------------------------------------------------------------------

// A buffer of size_bound(value) bytes holds the encoding: the write into it succeeds and gives
// to_bytes' bytes.
template <class T>
void check_bound(const T& value) {
  const std::size_t bound = bifrons::size_bound(value);
  const bytes expected = bifrons::to_bytes(value);
  EXPECT_GE(bound, expected.size()) << hex_of(value);
  bytes buffer(bound);
  const auto written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
  ASSERT_TRUE(written.has_value()) << hex_of(value);
  EXPECT_EQ(hex(bytes(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(written.value()))), hex(expected));
}

struct BoundedQuote {
  std::int64_t id;
  double price;
  char symbol[8];
  bool active;
};

struct HookedNames {
  std::vector<std::string> names;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(names);
  }
};

TEST(SizeBound, ABufferOfTheBoundHoldsTheEncoding) {
  check_bound(std::numeric_limits<std::uint64_t>::max());
  check_bound(std::string(300, 's'));
  check_bound(std::vector<std::int32_t>(1000, -1));
  check_bound(big_sample());
  check_bound(std::vector<Sample>(3, big_sample()));
  check_bound(BoundedQuote{-1, 1.5, "ABCDEFG", true});
  check_bound(std::make_shared<int>(3));
  check_bound(HookedNames{{"a", "bc"}});
}

TEST(SizeBound, IsOneConstantForAStructOfBoundedFields) {
  // A buffer sized once holds every value: the bound does not look at the fields.
  const BoundedQuote small{0, 0.0, "", false};
  const BoundedQuote large{std::numeric_limits<std::int64_t>::min(), -1e300, "ZZZZZZZ", true};
  EXPECT_EQ(bifrons::size_bound(small), bifrons::size_bound(large));
  EXPECT_LT(bifrons::serialized_size(small), bifrons::size_bound(small));
  EXPECT_EQ(bifrons::size_bound(large), bifrons::serialized_size(large));
}

TEST(SizeBound, ValuesWithPointersGetTheExactSize) {
  const auto shared = std::make_shared<std::string>("shared");
  const std::vector<std::shared_ptr<std::string>> twice{shared, shared};
  EXPECT_EQ(bifrons::size_bound(twice), bifrons::serialized_size(twice));
  check_bound(twice);
}

// ---- from_bytes -------------------------------------------------------------------------------------------

TEST(FromBytes, AcceptsAnyContiguousByteRange) {
  const bytes b = bifrons::to_bytes(std::string("in"));
  const std::string as_string(reinterpret_cast<const char*>(b.data()), b.size());
  const std::vector<char> as_chars(as_string.begin(), as_string.end());
  const std::vector<unsigned char> as_uchars(as_string.begin(), as_string.end());
  const std::u8string as_u8(as_string.begin(), as_string.end());
  const std::array<unsigned char, 3> as_array{0x02, 'i', 'n'};
  const unsigned char as_c_array[] = {0x02, 'i', 'n'};
  EXPECT_EQ(bifrons::from_bytes<std::string>(b), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(std::span<const std::byte>(b)), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(as_string), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(std::string_view(as_string)), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(as_chars), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(as_uchars), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(as_u8), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(as_array), "in");
  EXPECT_EQ(bifrons::from_bytes<std::string>(as_c_array), "in");
}

TEST(FromBytes, EmptyInputIsUnexpectedEnd) {
  EXPECT_TRUE(fails_with<int>(bytes{}, errc::unexpected_end, 0, 1));
  EXPECT_TRUE(fails_with<Sample>(std::string_view(), errc::unexpected_end, 0, 1));
}

TEST(FromBytes, TrailingBytes) {
  EXPECT_TRUE(fails_with<int>(B({0x02, 0x00}), errc::trailing_bytes, 1));
  EXPECT_TRUE(fails_with<std::string>(B({0x01, 0x61, 0x62, 0x63}), errc::trailing_bytes, 2));
  int existing = 5;
  try {
    bifrons::from_bytes(B({0x02, 0x00}), existing);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::trailing_bytes);
    EXPECT_EQ(e.offset(), 1u);
  }
}

TEST(FromBytes, IntoExistingObjectsReusesStorage) {
  std::vector<std::int32_t> v(100, 9);
  const auto* data = v.data();
  bifrons::from_bytes(bifrons::to_bytes(std::vector<std::int32_t>{1, 2, 3}), v);
  EXPECT_EQ(v, (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_EQ(v.data(), data);

  std::string s(100, 'z');
  const char* sdata = s.data();
  bifrons::from_bytes(bifrons::to_bytes(std::string("abc")), s);
  EXPECT_EQ(s, "abc");
  EXPECT_EQ(s.data(), sdata);

  std::vector<Sample> samples_in(5, big_sample());
  const std::vector<Sample> incoming{Sample{1, "one", {}, {}}, Sample{}};
  bifrons::from_bytes(bifrons::to_bytes(incoming), samples_in);
  EXPECT_EQ(samples_in, incoming);
}

/// An older version of Later: the reader of a Later in an existing object must reset `added`.
struct Earlier {
  int a = 0;
};
struct Later {
  int a = 0;
  std::string added = "default";
  friend bool operator==(const Later&, const Later&) = default;
};

TEST(FromBytes, IntoExistingObjectResetsFieldsTheDataLacks) {
  Later existing{5, "stale"};
  bifrons::from_bytes(bifrons::to_bytes(Earlier{3}), existing);
  EXPECT_EQ(existing, (Later{3, "default"}));
  EXPECT_EQ(bifrons::from_bytes<Later>(bifrons::to_bytes(Earlier{3})), (Later{3, "default"}));
}

TEST(FromBytes, FailureLeavesAValidObject) {
  std::vector<std::string> v{"keep"};
  EXPECT_THROW(bifrons::from_bytes(B({0x02, 0x01, 0x61, 0x05}), v), bifrons::error);
  v.push_back("still usable");
  EXPECT_FALSE(v.empty());
}

// ---- try_from_bytes and result<T> -----------------------------------------------------------------------

TEST(TryFromBytes, SuccessAndFailure) {
  auto ok = bifrons::try_from_bytes<std::string>(B({0x02, 0x68, 0x69}));
  ASSERT_TRUE(ok.has_value());
  EXPECT_TRUE(static_cast<bool>(ok));
  EXPECT_EQ(ok.code(), errc::ok);
  EXPECT_EQ(ok.offset(), 0u);
  EXPECT_EQ(*ok, "hi");
  EXPECT_EQ(ok->size(), 2u);
  EXPECT_EQ(ok.value(), "hi");

  auto bad = bifrons::try_from_bytes<std::pair<int, bool>>(B({0x02, 0x07}));
  EXPECT_FALSE(bad.has_value());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.code(), errc::invalid_value);
  EXPECT_EQ(bad.offset(), 1u);
}

TEST(Result, ValueThrowsTheErrorWhenEmpty) {
  bifrons::result<int> r(errc::duplicate_key, 42);
  try {
    (void)r.value();
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::duplicate_key);
    EXPECT_EQ(e.offset(), 42u);
  }
  const bifrons::result<int> c(errc::unexpected_end, 3, 7);
  try {
    (void)c.value();
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.offset(), 3u);
    EXPECT_EQ(e.bytes_missing(), 7u);
  }
  EXPECT_THROW((void)std::move(r).value(), bifrons::error);
  EXPECT_EQ(r.bytes_missing(), 0u);
}

TEST(Result, ValueAccessors) {
  bifrons::result<std::string> r(std::string("text"));
  EXPECT_EQ(r.value(), "text");
  r.value() += "!";
  EXPECT_EQ(*r, "text!");
  const auto& cr = r;
  EXPECT_EQ(cr.value(), "text!");
  EXPECT_EQ(*cr, "text!");
  EXPECT_EQ(cr->size(), 5u);
  const std::string moved = std::move(r).value();
  EXPECT_EQ(moved, "text!");

  // Move-only values.
  auto p = bifrons::try_from_bytes<std::unique_ptr<int>>(B({0x01, 0x06}));
  ASSERT_TRUE(p);
  std::unique_ptr<int> owned = std::move(p).value();
  ASSERT_TRUE(owned);
  EXPECT_EQ(*owned, 3);
}

// ---- bifrons::error and errc -------------------------------------------------------------------------------

TEST(Error, MessageNamesTheErrorAndTheOffset) {
  try {
    (void)bifrons::from_bytes<int>(B({0x02, 0x00}));
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {  // bifrons::error is a std::runtime_error
    EXPECT_STREQ(e.what(), "bifrons: trailing bytes after the value at byte 1");
  }
  const bifrons::error e(errc::malformed_varint, 12);
  EXPECT_STREQ(e.what(), "bifrons: malformed varint at byte 12");
  EXPECT_EQ(e.code(), errc::malformed_varint);
  EXPECT_EQ(e.offset(), 12u);
  EXPECT_EQ(e.bytes_missing(), 0u);
  EXPECT_STREQ(bifrons::error(errc::unexpected_end, 5, 1).what(),
               "bifrons: unexpected end of input at byte 5 (at least 1 more byte needed)");
}

/// A save file of 252 bytes: a struct whose body is 250 bytes (a two-byte header).
struct SaveFile {
  std::string name;
  std::vector<std::int32_t> scores;
};

TEST(Error, ATruncatedFileReportsWhereItEndsAndHowMuchIsMissing) {
  SaveFile save{"slot one", std::vector<std::int32_t>(60, 7)};
  const bytes file = bifrons::to_bytes(save);
  ASSERT_EQ(file.size(), 252u);  // header 2 + name 9 + count 1 + 60 x 4
  const bytes cut(file.begin(), file.begin() + 100);
  const auto r = bifrons::try_from_bytes<SaveFile>(cut);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::unexpected_end);
  EXPECT_EQ(r.offset(), 100u);          // where the input ended, not where the struct began
  EXPECT_EQ(r.bytes_missing(), 152u);  // the struct needs 252 bytes
  try {
    (void)bifrons::from_bytes<SaveFile>(cut);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_STREQ(e.what(), "bifrons: unexpected end of input at byte 100 (at least 152 more bytes needed)");
    EXPECT_EQ(e.bytes_missing(), 152u);
  }
  // A reader reports the same.
  bifrons::reader in(cut);
  SaveFile value;
  EXPECT_THROW(in(value), bifrons::error);
  EXPECT_EQ(in.offset(), 100u);
  EXPECT_EQ(in.bytes_missing(), 152u);
}

TEST(Error, CodesAreStableAndDescribed) {
  const std::pair<errc, int> codes[] = {{errc::ok, 0},
                                        {errc::unexpected_end, 1},
                                        {errc::buffer_too_small, 2},
                                        {errc::malformed_varint, 3},
                                        {errc::value_out_of_range, 4},
                                        {errc::invalid_value, 5},
                                        {errc::count_exceeds_input, 6},
                                        {errc::depth_limit_exceeded, 7},
                                        {errc::allocation_limit_exceeded, 8},
                                        {errc::element_limit_exceeded, 9},
                                        {errc::trailing_bytes, 10},
                                        {errc::duplicate_key, 11},
                                        {errc::misaligned_view, 12},
                                        {errc::out_of_memory, 13},
                                        {errc::stream_error, 14},
                                        {errc::user_error, 15},
                                        {errc::bucket_limit_exceeded, 16},
                                        {errc::invalid_stride, 17},
                                        {errc::non_canonical, 28},
                                        {errc::checksum_mismatch, 29}};
  std::set<std::string> descriptions;
  for (const auto& [code, value] : codes) {
    EXPECT_EQ(static_cast<int>(code), value);
    const std::string d = bifrons::describe(code);
    EXPECT_FALSE(d.empty());
    EXPECT_TRUE(descriptions.insert(d).second) << "duplicate description " << d;
  }
  EXPECT_STREQ(bifrons::describe(errc::ok), "ok");
  EXPECT_STREQ(bifrons::describe(static_cast<errc>(200)), "unknown error");
}

// ---- read_options ----------------------------------------------------------------------------------------------

TEST(ReadOptions, Defaults) {
  const bifrons::read_options o;
  EXPECT_EQ(o.max_depth, 64u);
  EXPECT_EQ(o.max_alloc_bytes, std::size_t{256} << 20);
  EXPECT_EQ(o.max_elements, std::size_t{64} << 20);
  EXPECT_EQ(o.max_bucket_size, 64u);
  EXPECT_FALSE(o.canonical_only);
}

TEST(ReadOptions, AppliedByFromBytes) {
  const bytes b = bifrons::to_bytes(std::vector<std::string>{"a", "b", "c"});
  auto r = bifrons::try_from_bytes<std::vector<std::string>>(b, bifrons::read_options{.max_elements = 2});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::element_limit_exceeded);
  std::vector<std::string> out;
  EXPECT_THROW(bifrons::from_bytes(b, out, bifrons::read_options{.max_elements = 2}), bifrons::error);
  EXPECT_THROW((void)bifrons::from_bytes<std::vector<std::string>>(b, bifrons::read_options{.max_elements = 2}),
               bifrons::error);
  EXPECT_NO_THROW(bifrons::from_bytes(b, out, bifrons::read_options{.max_elements = 3}));

  struct Inner {
    int x = 0;
  };
  struct Outer {
    Inner inner;
  };
  const bytes nested = bifrons::to_bytes(Outer{{1}});
  auto shallow = bifrons::try_from_bytes<Outer>(nested, bifrons::read_options{.max_depth = 1});
  ASSERT_FALSE(shallow);
  EXPECT_EQ(shallow.code(), errc::depth_limit_exceeded);
  EXPECT_EQ(shallow.offset(), 1u);  // at the inner struct's header
  EXPECT_TRUE(bifrons::try_from_bytes<Outer>(nested, bifrons::read_options{.max_depth = 2}));
}

// ---- exceptions from user code -------------------------------------------------------------------------------

struct ThrowsOnLoad {
  int x = 0;
  int what = 0;  // 0: std::runtime_error, 1: std::bad_alloc, 2: bifrons::error
  template <class Ar>
  void save(Ar& ar) const {
    ar(x, what);
  }
  template <class Ar>
  void load(Ar& ar) {
    ar(x, what);
    if (what == 0) throw std::runtime_error("user");
    if (what == 1) throw std::bad_alloc();
    throw bifrons::error(errc::invalid_value, 77);
  }
};

TEST(TryFromBytes, ExceptionsFromUserCodeBecomeErrorCodes) {
  auto user = bifrons::try_from_bytes<ThrowsOnLoad>(bifrons::to_bytes(ThrowsOnLoad{1, 0}));
  ASSERT_FALSE(user);
  EXPECT_EQ(user.code(), errc::user_error);
  auto oom = bifrons::try_from_bytes<ThrowsOnLoad>(bifrons::to_bytes(ThrowsOnLoad{1, 1}));
  ASSERT_FALSE(oom);
  EXPECT_EQ(oom.code(), errc::out_of_memory);
  auto own = bifrons::try_from_bytes<ThrowsOnLoad>(bifrons::to_bytes(ThrowsOnLoad{1, 2}));
  ASSERT_FALSE(own);
  EXPECT_EQ(own.code(), errc::invalid_value);
  EXPECT_EQ(own.offset(), 77u);
  // The throwing API lets the user's exception through.
  EXPECT_THROW((void)bifrons::from_bytes<ThrowsOnLoad>(bifrons::to_bytes(ThrowsOnLoad{1, 0})), std::runtime_error);
}

TEST(TryFromBytes, AHookExceptionKeepsItsMessage) {
  const auto user = bifrons::try_from_bytes<ThrowsOnLoad>(bifrons::to_bytes(ThrowsOnLoad{1, 0}));
  ASSERT_FALSE(user);
  EXPECT_EQ(user.offset(), 0u);  // the struct whose hook threw
  EXPECT_EQ(user.message(), "bifrons: exception thrown by user code at byte 0: user");
  std::vector<std::byte> buffer(64);
  const auto w = bifrons::try_to_bytes(ThrowsOnSave{}, std::span<std::byte>(buffer));
  EXPECT_EQ(w.message(), "bifrons: exception thrown by user code at byte 0: cannot save");
}

TEST(Result, MessageIsWhatAnErrorWouldSay) {
  const auto r = bifrons::try_from_bytes<std::string>(B({0x02, 0x61}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.message(), "bifrons: element count exceeds the remaining input at byte 0 (at least 1 more byte needed)");
  EXPECT_TRUE(r.path().empty());  // no BIFRONS_ERROR_PATHS in this program
  EXPECT_TRUE(r.type_name().empty());
  EXPECT_EQ(bifrons::try_from_bytes<std::string>(B({0x01, 0x61})).message(), "");
  try {
    (void)r.value();
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(std::string(e.what()), r.message());
    EXPECT_TRUE(e.path().empty());
  }
}

TEST(FromBytes, TypesWithoutADefaultConstructor) {
  EXPECT_EQ(bifrons::from_bytes<Made>(B({0x06, 0x02, 0x01, 0x61})), Made(1, "a"));
  const auto r = bifrons::try_from_bytes<Made>(B({0x06, 0x02, 0x01, 0x61}));
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, Made(1, "a"));
  EXPECT_TRUE(fails_with<Made>(B({0x06, 0x02}), errc::unexpected_end, 2, 2));
  EXPECT_TRUE(fails_with<Made>(B({0x06, 0x02, 0x01, 0x61, 0x00}), errc::trailing_bytes, 4));
}
}  // namespace
}  // namespace bifrons_test
