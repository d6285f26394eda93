// std::vector (bifrons/types/vector.hpp), including the bit-packed vector<bool>.
#include <bifrons/types/vector.hpp>

#include <cstdint>
#include <deque>
#include <forward_list>
#include <limits>
#include <list>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sequence_suite.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

using VectorTypes =
    ::testing::Types<std::vector<std::int8_t>, std::vector<std::uint8_t>, std::vector<std::int16_t>,
                     std::vector<std::uint16_t>, std::vector<std::int32_t>, std::vector<std::uint32_t>,
                     std::vector<std::int64_t>, std::vector<std::uint64_t>, std::vector<short>, std::vector<long>,
                     std::vector<unsigned long>, std::vector<long long>, std::vector<char>, std::vector<signed char>,
                     std::vector<unsigned char>, std::vector<char8_t>, std::vector<char16_t>, std::vector<char32_t>,
                     std::vector<wchar_t>, std::vector<float>, std::vector<double>, std::vector<std::byte>,
                     std::vector<std::string>, std::vector<Point>, std::vector<std::vector<int>>,
                     std::vector<std::optional<int>>, std::vector<std::pair<int, std::string>>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Vector, SequenceSuite, VectorTypes);

// ---- exact encodings, computed by hand ----------------------------------------------------------

TEST(Vector, ArithmeticElementsFormOneRawLittleEndianBlock) {
  EXPECT_EQ(hex_of(std::vector<std::int16_t>{1, -2}), "02 01 00 fe ff");
  EXPECT_EQ(hex_of(std::vector<std::int8_t>{-1, 1}), "02 ff 01");  // raw bytes, not zigzag varints
  EXPECT_EQ(hex_of(std::vector<std::uint32_t>{0x01020304}), "01 04 03 02 01");
  EXPECT_EQ(hex_of(std::vector<double>{1.0}), "01 00 00 00 00 00 00 f0 3f");
  EXPECT_EQ(hex_of(std::vector<float>{-2.0f}), "01 00 00 00 c0");
  EXPECT_EQ(hex_of(std::vector<char16_t>{u'\u20ac'}), "01 ac 20");
}

TEST(Vector, LongIsEightBytesPerElementOnEveryHost) {
  EXPECT_EQ(hex_of(std::vector<long>{1}), "01 01 00 00 00 00 00 00 00");
  EXPECT_EQ(hex_of(std::vector<long>{-1}), "01 ff ff ff ff ff ff ff ff");
  EXPECT_EQ(hex_of(std::vector<unsigned long>{0x12345678ul}), "01 78 56 34 12 00 00 00 00");
  EXPECT_EQ(bifrons::serialized_size(std::vector<long>(10)), 1u + 80u);
  EXPECT_EQ(bifrons::serialized_size(std::vector<unsigned long>(10)), 1u + 80u);
}

TEST(Vector, WcharIsFourBytesPerElementOnEveryHost) {
  EXPECT_EQ(hex_of(std::vector<wchar_t>{L'A'}), "01 41 00 00 00");
  EXPECT_EQ(bifrons::serialized_size(std::vector<wchar_t>(3)), 1u + 12u);
}

TEST(Vector, CountIsAVarint) {
  const bytes b = bifrons::to_bytes(std::vector<std::uint8_t>(200, 7));
  ASSERT_EQ(b.size(), 2u + 200u);
  EXPECT_EQ(hex(bytes(b.begin(), b.begin() + 3)), "c8 01 07");
}

// Counts of 128 to 16,383 take two bytes, which the count reader decodes itself; every other
// spelling goes through the general varint reader. Both report the same errors.
TEST(Vector, TwoByteCountsAndTheirErrors) {
  const std::vector<std::int32_t> v(200, -5);
  const bytes b = bifrons::to_bytes(v);
  ASSERT_EQ(hex(bytes(b.begin(), b.begin() + 3)), "c8 01 fb");
  EXPECT_TRUE(reads_as(b, v));
  std::vector<std::int32_t> reused(300, 1);
  bifrons::from_bytes(b, reused);
  EXPECT_EQ(reused, v);
  // One byte short: the 200 elements need one more byte than the 799 after the count.
  EXPECT_TRUE(fails_with<std::vector<std::int32_t>>(bytes(b.begin(), b.end() - 1), errc::count_exceeds_input, 0, 1));
  EXPECT_TRUE(fails_with<std::vector<std::int32_t>>(B({0xc8}), errc::unexpected_end, 1, 1));
  // 0x80 0x00 is a second spelling of 0, and 0xff 0x00 one of 127.
  EXPECT_TRUE(fails_with<std::vector<std::int32_t>>(B({0x80, 0x00}), errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::vector<std::int32_t>>(B({0xff, 0x00}), errc::malformed_varint, 0));
  // The largest two-byte count, and the smallest three-byte one, with no elements after them.
  EXPECT_TRUE(fails_with<std::vector<std::int32_t>>(B({0xff, 0x7f}), errc::count_exceeds_input, 0, 4 * 16383));
  EXPECT_TRUE(fails_with<std::vector<std::int32_t>>(B({0x80, 0x80, 0x01}), errc::count_exceeds_input, 0, 4 * 16384));
  auto few = bifrons::try_from_bytes<std::vector<std::int32_t>>(b, bifrons::read_options{.max_elements = 199});
  ASSERT_FALSE(few);
  EXPECT_EQ(few.code(), errc::element_limit_exceeded);
  EXPECT_EQ(few.offset(), 0u);
  // After another value: the offsets count from the input's start.
  using Pair = std::pair<std::uint8_t, std::vector<std::int32_t>>;
  EXPECT_TRUE(fails_with<Pair>(B({0x07, 0x80, 0x00}), errc::malformed_varint, 1));
  EXPECT_TRUE(fails_with<Pair>(B({0x07, 0xc8, 0x01, 0x00}), errc::count_exceeds_input, 1, 799));
}

// from_bytes of a vector of numbers (or a string) that is the whole input reads it without a
// source when the input is a count of one or two bytes and exactly that many elements within the
// limits (sequence_codec::read_whole), and through the general reader otherwise. Both give the
// same values, and every failure is the general reader's.
template <class V>
V read_by_the_general_reader(const bytes& b) {
  V v;
  bifrons::reader r(b);
  r(v);
  EXPECT_TRUE(r.done());
  return v;
}

TEST(Vector, AWholeInputReadsAsTheGeneralReaderReadsIt) {
  for (const std::size_t n : {0u, 1u, 127u, 128u, 300u, 16383u, 16384u}) {
    SCOPED_TRACE(n);
    std::vector<std::int32_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int32_t>(i * 2654435761u);
    const bytes b = bifrons::to_bytes(v);
    EXPECT_EQ(read_by_the_general_reader<std::vector<std::int32_t>>(b), v);
    EXPECT_EQ(bifrons::from_bytes<std::vector<std::int32_t>>(b), v);
    std::vector<std::int32_t> longer(n + 5, 9), shorter(n / 2, 9);
    bifrons::from_bytes(b, longer);
    bifrons::from_bytes(b, shorter);
    EXPECT_EQ(longer, v);
    EXPECT_EQ(shorter, v);
    // At every alignment of the elements.
    for (std::size_t shift = 1; shift < 4; ++shift) {
      bytes shifted(shift);
      shifted.insert(shifted.end(), b.begin(), b.end());
      EXPECT_EQ(bifrons::from_bytes<std::vector<std::int32_t>>(std::span(shifted).subspan(shift)), v);
    }
    const std::string text(n, 'q');
    EXPECT_EQ(bifrons::from_bytes<std::string>(bifrons::to_bytes(text)), text);
    std::string longer_text(n + 5, 'x'), shorter_text(n / 2, 'x');
    bifrons::from_bytes(bifrons::to_bytes(text), longer_text);
    bifrons::from_bytes(bifrons::to_bytes(text), shorter_text);
    EXPECT_EQ(longer_text, text);
    EXPECT_EQ(shorter_text, text);
  }
}

// A block of numbers that is not aligned for its type, read into a new vector: up to 16
// elements, element by element; above 2 KiB, copied from the aligned address before it and moved
// into place, or, where that address is before the input, read into resized storage
// (containers.hpp, replace_with_block). Both inside a struct (the general reader) and as the
// whole input.
TEST(Vector, ABlockReadsTheSameAtEveryAlignment) {
  for (const std::size_t n : {1u, 16u, 17u, 255u, 256u, 257u, 5000u}) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i) * 0.5 - 3;
    const std::pair<std::vector<double>, std::int8_t> inside{v, 7};
    const bytes whole = bifrons::to_bytes(v), in_struct = bifrons::to_bytes(inside);
    for (std::size_t shift = 0; shift < 8; ++shift) {
      SCOPED_TRACE(std::to_string(n) + " at +" + std::to_string(shift));
      const bytes a = cat({bytes(shift), whole}), b = cat({bytes(shift), in_struct});
      EXPECT_EQ(bifrons::from_bytes<std::vector<double>>(std::span(a).subspan(shift)), v);
      EXPECT_EQ((bifrons::from_bytes<std::pair<std::vector<double>, std::int8_t>>(std::span(b).subspan(shift))),
                inside);
    }
  }
}

TEST(Vector, AWholeInputThatIsNotExactlyABlockFailsAsTheGeneralReaderSays) {
  std::vector<double> v(200, 0.25);
  const bytes b = bifrons::to_bytes(v);
  // Every truncation, and a byte too many (fails_with: from_bytes and try_from_bytes agree).
  for (std::size_t cut = 0; cut < b.size(); cut += 7) {
    const bytes shorter(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(cut));
    const auto general = bifrons::try_from_bytes<std::vector<double>>(shorter);
    ASSERT_FALSE(general);
    EXPECT_TRUE(fails_with<std::vector<double>>(shorter, general.code(), general.offset(), general.bytes_missing()));
  }
  bytes longer = b;
  longer.push_back(std::byte{0});
  EXPECT_TRUE(fails_with<std::vector<double>>(longer, errc::trailing_bytes, b.size()));
  // The limits, at their edges: into a reused vector, with the count at offset 0.
  const auto fails = [&](const bifrons::read_options& options, errc code) {
    std::vector<double> out(3, 1.0);
    try {
      bifrons::from_bytes(b, out, options);
      ADD_FAILURE() << "no exception";
    } catch (const bifrons::error& e) {
      EXPECT_EQ(e.code(), code);
      EXPECT_EQ(e.offset(), 0u);
    }
  };
  fails(bifrons::read_options{.max_elements = 199}, errc::element_limit_exceeded);
  fails(bifrons::read_options{.max_alloc_bytes = 200 * sizeof(double) - 1}, errc::allocation_limit_exceeded);
  std::vector<double> out;
  bifrons::from_bytes(b, out, bifrons::read_options{.max_alloc_bytes = 200 * sizeof(double), .max_elements = 200});
  EXPECT_EQ(out, v);
  // Strict reading takes the general path and accepts the canonical bytes.
  bifrons::from_bytes(b, out, bifrons::read_options{.canonical_only = true});
  EXPECT_EQ(out, v);
}

/// An allocator that has no memory.
template <class T>
struct no_memory {
  using value_type = T;
  no_memory() = default;
  template <class U>
  no_memory(const no_memory<U>&) noexcept {}
  T* allocate(std::size_t) { throw std::bad_alloc(); }
  void deallocate(T*, std::size_t) noexcept {}
  friend bool operator==(const no_memory&, const no_memory&) = default;
};

TEST(Vector, AWholeInputWithoutMemoryIsOutOfMemoryAtOffsetZero) {
  const bytes b = bifrons::to_bytes(std::vector<std::int32_t>(10, 1));
  using V = std::vector<std::int32_t, no_memory<std::int32_t>>;
  EXPECT_TRUE(fails_with<V>(b, errc::out_of_memory, 0));
  V out;
  try {
    bifrons::from_bytes(b, out);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::out_of_memory);
    EXPECT_EQ(e.offset(), 0u);
  }
  EXPECT_TRUE(out.empty());
  // Nothing to allocate: an empty vector reads.
  EXPECT_TRUE(bifrons::from_bytes<V>(bifrons::to_bytes(std::vector<std::int32_t>{})).empty());
}

TEST(Vector, StringsAreEncodedOneAfterAnother) { EXPECT_EQ(hex_of(std::vector<std::string>{"a", ""}), "02 01 61 00"); }

// ---- long on hosts where it is 32 bits --------------------------------------------------------

TEST(Vector, LongBlockValueBeyondHostRange) {
  // 2^32 and -2^31 - 1 fit a 64-bit long but not a 32-bit one.
  bytes too_big = B({0x01});
  put_le(too_big, std::uint64_t{1} << 32, 8);
  bytes too_small = B({0x01});
  put_le(too_small, static_cast<std::uint64_t>(-(std::int64_t{1} << 31) - 1), 8);
  bytes too_big_unsigned = too_big;

  if constexpr (sizeof(long) == 4) {
    EXPECT_TRUE(fails_with<std::vector<long>>(too_big, errc::value_out_of_range, 1));
    EXPECT_TRUE(fails_with<std::vector<long>>(too_small, errc::value_out_of_range, 1));
    EXPECT_TRUE(fails_with<std::vector<unsigned long>>(too_big_unsigned, errc::value_out_of_range, 1));
    // The offset is that of the element that does not fit: the second one here.
    bytes second = B({0x02});
    put_le(second, 5, 8);
    put_le(second, std::uint64_t{1} << 32, 8);
    EXPECT_TRUE(fails_with<std::vector<long>>(second, errc::value_out_of_range, 9));
  } else {
    const auto big = bifrons::from_bytes<std::vector<long>>(too_big);
    ASSERT_EQ(big.size(), 1u);
    EXPECT_EQ(static_cast<std::int64_t>(big[0]), std::int64_t{1} << 32);
    const auto small = bifrons::from_bytes<std::vector<long>>(too_small);
    ASSERT_EQ(small.size(), 1u);
    EXPECT_EQ(static_cast<std::int64_t>(small[0]), -(std::int64_t{1} << 31) - 1);
    const auto big_unsigned = bifrons::from_bytes<std::vector<unsigned long>>(too_big_unsigned);
    ASSERT_EQ(big_unsigned.size(), 1u);
    EXPECT_EQ(static_cast<std::uint64_t>(big_unsigned[0]), std::uint64_t{1} << 32);
  }
}

TEST(Vector, LongExtremesOfTheHostRoundTrip) {
  const std::vector<long> v{std::numeric_limits<long>::min(), -1, 0, 1, std::numeric_limits<long>::max()};
  EXPECT_EQ(round_trip(v), v);
  const std::vector<unsigned long> u{0, 1, std::numeric_limits<unsigned long>::max()};
  EXPECT_EQ(round_trip(u), u);
}

TEST(Vector, ExtremesOfEveryWidthRoundTrip) {
  const std::vector<std::int64_t> s{std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
  EXPECT_EQ(hex_of(s), "02 00 00 00 00 00 00 00 80 ff ff ff ff ff ff ff 7f");
  EXPECT_EQ(round_trip(s), s);
  const std::vector<std::uint16_t> u{0, 0xffff};
  EXPECT_EQ(hex_of(u), "02 00 00 ff ff");
  EXPECT_EQ(round_trip(u), u);
}

// ---- vector<bool> -------------------------------------------------------------------------------

TEST(VectorBool, BitsArePackedLeastSignificantFirst) {
  EXPECT_EQ(hex_of(std::vector<bool>{}), "00");
  EXPECT_EQ(hex_of(std::vector<bool>{true, false, true}), "03 05");
  EXPECT_EQ(hex_of(std::vector<bool>(8, true)), "08 ff");
  EXPECT_EQ(hex_of(std::vector<bool>(9, true)), "09 ff 01");
  std::vector<bool> v(16, false);
  v[1] = v[15] = true;
  EXPECT_EQ(hex_of(v), "10 02 80");
}

TEST(VectorBool, RoundTripsAtEverySize) {
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 1000u, 100000u}) {
    std::vector<bool> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = (i * 7 + i / 3) % 5 < 2;
    EXPECT_TRUE(round_trip(v) == v) << "n = " << n;
    EXPECT_EQ(bifrons::serialized_size(v), varint_bytes(n).size() + (n + 7) / 8);
  }
}

TEST(VectorBool, PaddingBitsMustBeZero) {
  EXPECT_TRUE(fails_with<std::vector<bool>>(B({0x03, 0x08}), errc::invalid_value, 1));
  EXPECT_TRUE(fails_with<std::vector<bool>>(B({0x09, 0xff, 0x02}), errc::invalid_value, 2));
  EXPECT_TRUE(fails_with<std::vector<bool>>(B({0x01, 0x80}), errc::invalid_value, 1));
  EXPECT_TRUE(reads_as(B({0x08, 0x80}), std::vector<bool>{false, false, false, false, false, false, false, true}));
}

TEST(VectorBool, CountBeyondInput) {
  EXPECT_TRUE(fails_with<std::vector<bool>>(B({0x09, 0xff}), errc::count_exceeds_input, 0, 1));
  EXPECT_TRUE(fails_with<std::vector<bool>>(B({0x01}), errc::count_exceeds_input, 0, 1));
}

TEST(VectorBool, ReadIntoExisting) {
  std::vector<bool> existing(100, true);
  read_into(std::vector<bool>{false, true}, existing);
  EXPECT_EQ(existing, (std::vector<bool>{false, true}));
}

// ---- nesting and user types ---------------------------------------------------------------------

TEST(Vector, NestedVectors) {
  const std::vector<std::vector<std::string>> v{{"a", "b"}, {}, {"c"}};
  EXPECT_EQ(hex_of(v), "03 02 01 61 01 62 00 01 01 63");
  EXPECT_EQ(round_trip(v), v);

  const std::vector<std::vector<std::vector<int>>> deep{{{1, 2}, {}}, {}, {{-3}}};
  EXPECT_EQ(round_trip(deep), deep);
}

TEST(Vector, StructElementsAreEnvelopes) {
  // Point{1, "a"}: body = varint zigzag(1) = 02, string 01 61 -> 3 bytes, header 3 << 1 = 06.
  EXPECT_EQ(hex_of(std::vector<Point>{{1, "a"}}), "01 06 02 01 61");
}

TEST(Vector, ReadIntoExistingStructsDropsStaleValues) {
  std::vector<Point> existing{{7, "seven"}, {8, "eight"}, {9, "nine"}};
  const std::vector<Point> incoming{{1, ""}, {2, "b"}};
  read_into(incoming, existing);
  EXPECT_EQ(existing, incoming);
}

// ---- read_options limits on the count ------------------------------------------------------------

TEST(Vector, ReadOptionsLimitTheCount) {
  const bytes b = bifrons::to_bytes(std::vector<std::int32_t>(10, 1));
  auto few = bifrons::try_from_bytes<std::vector<std::int32_t>>(b, bifrons::read_options{.max_elements = 9});
  ASSERT_FALSE(few);
  EXPECT_EQ(few.code(), errc::element_limit_exceeded);
  EXPECT_EQ(few.offset(), 0u);
  EXPECT_TRUE(bifrons::try_from_bytes<std::vector<std::int32_t>>(b, bifrons::read_options{.max_elements = 10}));

  auto poor = bifrons::try_from_bytes<std::vector<std::int32_t>>(b, bifrons::read_options{.max_alloc_bytes = 39});
  ASSERT_FALSE(poor);
  EXPECT_EQ(poor.code(), errc::allocation_limit_exceeded);
  EXPECT_EQ(poor.offset(), 0u);
  EXPECT_TRUE(bifrons::try_from_bytes<std::vector<std::int32_t>>(b, bifrons::read_options{.max_alloc_bytes = 40}));
}

template <class C>
void check_sequence_of_made() {
  const C two{Made(1, "a"), Made(2, "b")};
  EXPECT_EQ(hex_of(two), "02 06 02 01 61 06 04 01 62");
  EXPECT_TRUE(reads_as(B({0x02, 0x06, 0x02, 0x01, 0x61, 0x06, 0x04, 0x01, 0x62}), two));
  // Into an existing container: shorter, longer, empty.
  C existing{Made(7, "x"), Made(8, "y"), Made(9, "z")};
  bifrons::from_bytes(bifrons::to_bytes(two), existing);
  EXPECT_EQ(existing, two);
  C shorter{Made(7, "x")};
  bifrons::from_bytes(bifrons::to_bytes(two), shorter);
  EXPECT_EQ(shorter, two);
  bifrons::from_bytes(B({0x00}), shorter);
  EXPECT_TRUE(shorter.empty());
  // The second element is cut short.
  EXPECT_TRUE(fails_with<C>(B({0x02, 0x06, 0x02, 0x01, 0x61, 0x06, 0x04}), errc::unexpected_end, 7, 2));
}

TEST(Vector, ElementsWithoutDefaultConstructor) {
  check_sequence_of_made<std::vector<Made>>();
  check_sequence_of_made<std::deque<Made>>();
  check_sequence_of_made<std::list<Made>>();
  check_sequence_of_made<std::forward_list<Made>>();
}
}  // namespace
}  // namespace bifrons_test
