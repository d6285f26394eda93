// Scalars (detail/scalars.hpp; fixed() and varint() from fields.hpp): integers as (zigzag) LEB128 varints,
// bool/char/char8_t/ std::byte as one raw byte, float/double as IEEE-754 little-endian, enums as their underlying type,
// and the fixed()/varint() field wrappers.
#include <bifrons/core.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

template <class T>
constexpr bool one_raw_byte = std::is_same_v<T, char> || std::is_same_v<T, char8_t> || std::is_same_v<T, bool> ||
                              std::is_same_v<T, std::byte>;

/// The encoding of a scalar integer, from the format description.
template <class T>
bytes expected_scalar(T v) {
  if constexpr (std::is_same_v<T, std::byte>)
    return B({std::to_integer<unsigned>(v)});
  else if constexpr (one_raw_byte<T>)
    return B({static_cast<unsigned char>(v)});
  else if constexpr (std::is_same_v<T, wchar_t>)
    return varint_bytes(static_cast<std::uint32_t>(v));  // the uint32 value of the code unit
  else if constexpr (std::is_signed_v<T>)
    return varint_bytes(ref_zigzag(static_cast<std::int64_t>(v)));
  else
    return varint_bytes(static_cast<std::uint64_t>(v));
}

/// min, max, 0, +-1, their neighbours, and every power of two and its negation.
template <class T>
std::vector<T> edge_values() {
  if constexpr (std::is_same_v<T, std::byte>) {
    return {std::byte{0}, std::byte{1}, std::byte{0x7f}, std::byte{0x80}, std::byte{0xff}};
  } else if constexpr (std::is_same_v<T, bool>) {
    return {false, true};
  } else {
    using L = std::numeric_limits<T>;
    std::vector<T> v{L::min(), static_cast<T>(L::min() + 1), T{0}, T{1}, static_cast<T>(L::max() - 1), L::max()};
    if constexpr (std::is_signed_v<T>) v.push_back(static_cast<T>(-1));
    for (int bit = 0; bit < L::digits; ++bit) {
      const auto p = static_cast<T>(static_cast<std::uint64_t>(1) << bit);
      v.push_back(p);
      v.push_back(static_cast<T>(p - 1));
      if constexpr (std::is_signed_v<T>) v.push_back(static_cast<T>(-p));
    }
    return v;
  }
}

template <class T>
class IntegerScalar : public ::testing::Test {};
using IntegerTypes = ::testing::Types<std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                                      std::uint16_t, std::uint32_t, std::uint64_t, short, unsigned short, int, unsigned,
                                      long, unsigned long, long long, unsigned long long, char, signed char,
                                      unsigned char, char8_t, char16_t, char32_t, wchar_t, bool, std::byte>;
TYPED_TEST_SUITE(IntegerScalar, IntegerTypes);

TYPED_TEST(IntegerScalar, EdgeValuesRoundTrip) {
  for (const TypeParam v : edge_values<TypeParam>()) {
    EXPECT_EQ(round_trip(v), v);
  }
}

TYPED_TEST(IntegerScalar, BytesFollowTheFormat) {
  for (const TypeParam v : edge_values<TypeParam>()) {
    EXPECT_EQ(hex_of(v), hex(expected_scalar(v)));
  }
}

TYPED_TEST(IntegerScalar, ExtremesTakeTheExpectedNumberOfBytes) {
  if constexpr (one_raw_byte<TypeParam>) {
    for (const TypeParam v : edge_values<TypeParam>()) EXPECT_EQ(bifrons::serialized_size(v), 1u);
  } else if constexpr (std::is_same_v<TypeParam, wchar_t>) {
    // 32 significant bits at the extremes of a 32-bit wchar_t (signed or not): 5 varint bytes.
    if constexpr (sizeof(wchar_t) == 4) {
      EXPECT_EQ(bifrons::serialized_size(std::numeric_limits<wchar_t>::min()) +
                    bifrons::serialized_size(std::numeric_limits<wchar_t>::max()),
                std::is_signed_v<wchar_t> ? 10u : 6u);
    } else {
      EXPECT_EQ(bifrons::serialized_size(std::numeric_limits<wchar_t>::max()), 3u);
    }
  } else {
    // ceil(bits / 7): both the largest value and (zigzagged) the smallest use every bit.
    constexpr std::size_t bits = sizeof(TypeParam) * 8;
    constexpr std::size_t expected = (bits + 6) / 7;
    EXPECT_EQ(bifrons::serialized_size(std::numeric_limits<TypeParam>::max()), expected);
    if constexpr (std::is_signed_v<TypeParam>) {
      EXPECT_EQ(bifrons::serialized_size(std::numeric_limits<TypeParam>::min()), expected);
    }
    EXPECT_EQ(bifrons::serialized_size(TypeParam{0}), 1u);
  }
}

TYPED_TEST(IntegerScalar, ReadIntoExistingOverwrites) {
  const auto values = edge_values<TypeParam>();
  // A value, not values.front(): that is a proxy for a vector<bool> in libc++.
  const TypeParam first = values.front();
  TypeParam existing = values.back();
  read_into(first, existing);
  EXPECT_EQ(existing, first);
}

TYPED_TEST(IntegerScalar, EmptyInputIsUnexpectedEnd) {
  EXPECT_TRUE(fails_with<TypeParam>(bytes{}, errc::unexpected_end, 0, 1));
}

// ---- hand-computed encodings ----------------------------------------------------------------------

TEST(Integer, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::int8_t{-1}), "01");
  EXPECT_EQ(hex_of(std::int8_t{1}), "02");
  EXPECT_EQ(hex_of(std::int8_t{-128}), "ff 01");
  EXPECT_EQ(hex_of(std::int8_t{127}), "fe 01");
  EXPECT_EQ(hex_of(std::uint8_t{255}), "ff 01");
  EXPECT_EQ(hex_of(std::uint16_t{300}), "ac 02");
  EXPECT_EQ(hex_of(std::int32_t{-64}), "7f");
  EXPECT_EQ(hex_of(std::int32_t{64}), "80 01");
  EXPECT_EQ(hex_of(-1L), "01");
  EXPECT_EQ(hex_of(0UL), "00");
  EXPECT_EQ(hex_of(std::numeric_limits<std::uint64_t>::max()), "ff ff ff ff ff ff ff ff ff 01");
  EXPECT_EQ(hex_of(std::numeric_limits<std::int64_t>::min()), "ff ff ff ff ff ff ff ff ff 01");
  EXPECT_EQ(hex_of(std::numeric_limits<std::int64_t>::max()), "fe ff ff ff ff ff ff ff ff 01");
  EXPECT_EQ(hex_of(std::numeric_limits<std::int32_t>::min()), "ff ff ff ff 0f");
}

TEST(Integer, CharacterTypes) {
  EXPECT_EQ(hex_of('A'), "41");
  EXPECT_EQ(hex_of(static_cast<char>(-1)), "ff");  // a raw byte whether char is signed or not
  EXPECT_EQ(hex_of(char8_t{0xe2}), "e2");
  EXPECT_EQ(hex_of(static_cast<signed char>(-1)), "01");  // signed char is a number: zigzag
  EXPECT_EQ(hex_of(static_cast<unsigned char>(200)), "c8 01");
  EXPECT_EQ(hex_of(char16_t{0xffff}), "ff ff 03");
  EXPECT_EQ(hex_of(char32_t{0x10ffff}), "ff ff 43");
  EXPECT_EQ(hex_of(wchar_t{0xff}), "ff 01");
  EXPECT_EQ(hex_of(static_cast<wchar_t>(0x10ffff)), "ff ff 43");
  if constexpr (std::is_signed_v<wchar_t> && sizeof(wchar_t) == 4) {
    // A negative wchar_t travels as the uint32 value of its code unit, not zigzagged.
    EXPECT_EQ(hex_of(static_cast<wchar_t>(-1)), "ff ff ff ff 0f");
  }
}

TEST(Integer, BoolAndByte) {
  EXPECT_EQ(hex_of(true), "01");
  EXPECT_EQ(hex_of(false), "00");
  EXPECT_EQ(hex_of(std::byte{0xab}), "ab");
}

TEST(Integer, BoolOtherThanZeroOrOneIsInvalid) {
  EXPECT_TRUE(fails_with<bool>(B({0x02}), errc::invalid_value, 0));
  EXPECT_TRUE(fails_with<bool>(B({0xff}), errc::invalid_value, 0));
  EXPECT_TRUE((fails_with<std::pair<bool, bool>>(B({0x01, 0x02}), errc::invalid_value, 1)));
  EXPECT_TRUE(reads_as(B({0x01}), true));
  // In a block, the error is at the first invalid element, not at the block.
  EXPECT_TRUE((fails_with<std::array<bool, 4>>(B({0x01, 0x00, 0x07, 0x09}), errc::invalid_value, 2)));
  EXPECT_TRUE((fails_with<std::deque<bool>>(B({0x03, 0x00, 0x01, 0x02}), errc::invalid_value, 3)));
  EXPECT_TRUE((fails_with<std::deque<bool>>(B({0x02, 0xff, 0x01}), errc::invalid_value, 1)));
}

// ---- narrowing -------------------------------------------------------------------------------------

template <class T>
class NarrowUnsigned : public ::testing::Test {};
using NarrowUnsignedTypes = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, unsigned short, unsigned char,
                                             char16_t, char32_t, wchar_t>;
TYPED_TEST_SUITE(NarrowUnsigned, NarrowUnsignedTypes);

TYPED_TEST(NarrowUnsigned, WiderValueIsOutOfRangeAtItsOffset) {
  // A one-byte field first, so that the offset of the failing value is 1.
  using V = std::conditional_t<std::is_same_v<TypeParam, wchar_t>, std::make_unsigned_t<wchar_t>, TypeParam>;
  const std::uint64_t max = std::numeric_limits<V>::max();
  using Pair = std::pair<std::uint8_t, TypeParam>;
  EXPECT_TRUE(fails_with<Pair>(cat({B({0x05}), varint_bytes(max + 1)}), errc::value_out_of_range, 1));
  EXPECT_TRUE(fails_with<Pair>(cat({B({0x05}), varint_bytes(~std::uint64_t{0})}), errc::value_out_of_range, 1));
  auto ok = bifrons::try_from_bytes<Pair>(cat({B({0x05}), varint_bytes(max)}));
  ASSERT_TRUE(ok);
  EXPECT_EQ(static_cast<std::uint64_t>(static_cast<V>(ok->second)), max);
}

TYPED_TEST(NarrowUnsigned, Uint64WrittenReadAsNarrowerType) {
  using V = std::conditional_t<std::is_same_v<TypeParam, wchar_t>, std::make_unsigned_t<wchar_t>, TypeParam>;
  const std::uint64_t wide = std::uint64_t{std::numeric_limits<V>::max()} + 1;
  const bytes b = bifrons::to_bytes(std::pair<std::uint8_t, std::uint64_t>{7, wide});
  EXPECT_TRUE((fails_with<std::pair<std::uint8_t, TypeParam>>(b, errc::value_out_of_range, 1)));
}

template <class T>
class NarrowSigned : public ::testing::Test {};
using NarrowSignedTypes = ::testing::Types<std::int8_t, std::int16_t, std::int32_t, short, signed char>;
TYPED_TEST_SUITE(NarrowSigned, NarrowSignedTypes);

TYPED_TEST(NarrowSigned, WiderValueIsOutOfRangeAtItsOffset) {
  using L = std::numeric_limits<TypeParam>;
  using Pair = std::pair<std::uint8_t, TypeParam>;
  const std::int64_t max = L::max(), min = L::min();
  EXPECT_TRUE(fails_with<Pair>(cat({B({0x05}), varint_bytes(ref_zigzag(max + 1))}), errc::value_out_of_range, 1));
  EXPECT_TRUE(fails_with<Pair>(cat({B({0x05}), varint_bytes(ref_zigzag(min - 1))}), errc::value_out_of_range, 1));
  // Written by the library as int64 and read back narrower.
  const bytes b = bifrons::to_bytes(std::pair<std::uint8_t, std::int64_t>{1, min - 1});
  EXPECT_TRUE(fails_with<Pair>(b, errc::value_out_of_range, 1));
  const bytes edges = bifrons::to_bytes(std::pair<std::int64_t, std::int64_t>{min, max});
  EXPECT_TRUE(reads_as(edges, std::pair<TypeParam, TypeParam>{L::min(), L::max()}));
}

TEST(Narrowing, LongOnThisHost) {
  // 2^31 fits a 64-bit long only.
  const bytes big = varint_bytes(ref_zigzag(std::int64_t{1} << 31));
  const bytes ubig = varint_bytes(std::uint64_t{1} << 32);
  if constexpr (sizeof(long) == 4) {
    EXPECT_TRUE(fails_with<long>(big, errc::value_out_of_range, 0));
    EXPECT_TRUE(fails_with<unsigned long>(ubig, errc::value_out_of_range, 0));
  } else {
    EXPECT_EQ(static_cast<std::int64_t>(bifrons::from_bytes<long>(big)), std::int64_t{1} << 31);
    EXPECT_EQ(static_cast<std::uint64_t>(bifrons::from_bytes<unsigned long>(ubig)), std::uint64_t{1} << 32);
  }
}

// ---- malformed varints --------------------------------------------------------------------------

TEST(Varint, MustBeMinimal) {
  EXPECT_TRUE(fails_with<std::uint32_t>(B({0x80, 0x00}), errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::uint32_t>(B({0xff, 0x00}), errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::int64_t>(B({0x80, 0x80, 0x00}), errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::uint64_t>(B({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00}),
                                        errc::malformed_varint, 0));
  EXPECT_TRUE((fails_with<std::pair<std::uint8_t, std::uint16_t>>(B({0x01, 0x80, 0x00}), errc::malformed_varint, 1)));
}

TEST(Varint, AtMostTenBytesAndSixtyFourBits) {
  // Ten bytes holding 2^64 - 1 are fine; an eleventh byte or a tenth byte above 1 are not.
  EXPECT_TRUE(reads_as(B({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
                       std::numeric_limits<std::uint64_t>::max()));
  EXPECT_TRUE(fails_with<std::uint64_t>(B({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
                                        errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::uint64_t>(B({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}),
                                        errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::uint64_t>(B({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}),
                                        errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::int8_t>(B({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
                                      errc::malformed_varint, 0));
}

TEST(Varint, TruncatedIsUnexpectedEnd) {
  EXPECT_TRUE(fails_with<std::uint32_t>(B({0x80}), errc::unexpected_end, 1, 1));
  EXPECT_TRUE(fails_with<std::uint32_t>(B({0xff, 0xff}), errc::unexpected_end, 2, 1));
  EXPECT_TRUE((fails_with<std::pair<std::uint8_t, std::uint16_t>>(B({0x01, 0x80}), errc::unexpected_end, 2, 1)));
}

// A varint with at least 8 bytes after its start is decoded from one 8-byte load; nearer the end
// of the input, byte by byte. Both paths must agree at every length.
TEST(Varint, EveryLengthDecodesTheSameWithAndWithoutEightBytesAhead) {
  const std::uint64_t tail = std::numeric_limits<std::uint64_t>::max();  // 10 bytes
  for (unsigned bits = 0; bits <= 64; ++bits) {
    for (const std::uint64_t v :
         {bits == 0 ? 0 : (std::uint64_t{1} << (bits - 1)), bits == 64 ? tail : (std::uint64_t{1} << bits) - 1}) {
      using Pair = std::pair<std::uint64_t, std::uint64_t>;
      EXPECT_TRUE(reads_as(cat({varint_bytes(v), varint_bytes(tail)}), Pair{v, tail})) << v;  // word path
      EXPECT_TRUE(reads_as(cat({B({0x00}), varint_bytes(v)}), Pair{0, v})) << v;  // byte path
    }
  }
}

TEST(Varint, NonMinimalFailsOnTheWordPathToo) {
  const bytes ahead = varint_bytes(std::numeric_limits<std::uint64_t>::max());
  for (std::size_t length = 2; length <= 8; ++length) {
    bytes padded(length - 1, std::byte{0x80});
    padded.push_back(std::byte{0x00});
    EXPECT_TRUE((fails_with<std::pair<std::uint64_t, std::uint64_t>>(cat({padded, ahead}), errc::malformed_varint, 0)))
        << length;
    EXPECT_TRUE((fails_with<std::pair<std::uint8_t, std::uint64_t>>(cat({B({0x01}), padded, ahead}),
                                                                    errc::malformed_varint, 1)))
        << length;
  }
}

// ---- floating point -------------------------------------------------------------------------------

template <class T>
using bits_of = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
class Floating : public ::testing::Test {};
using FloatingTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Floating, FloatingTypes);

TYPED_TEST(Floating, EdgeValuesRoundTripBitExact) {
  using L = std::numeric_limits<TypeParam>;
  const TypeParam values[] = {TypeParam{0}, -TypeParam{0}, TypeParam{1},   TypeParam{-1},   L::min(),
                              L::max(),     L::lowest(),   L::epsilon(),   L::denorm_min(), -L::denorm_min(),
                              L::min() / 2, L::infinity(), -L::infinity(), TypeParam(0.1),  TypeParam(-1e-30)};
  for (const TypeParam v : values) {
    const TypeParam back = round_trip(v);
    EXPECT_EQ(std::bit_cast<bits_of<TypeParam>>(back), std::bit_cast<bits_of<TypeParam>>(v)) << v;
    EXPECT_EQ(bifrons::serialized_size(v), sizeof(TypeParam));
  }
}

TYPED_TEST(Floating, NegativeZeroKeepsItsSign) {
  const TypeParam back = round_trip(-TypeParam{0});
  EXPECT_EQ(back, TypeParam{0});
  EXPECT_TRUE(std::signbit(back));
  EXPECT_FALSE(std::signbit(round_trip(TypeParam{0})));
}

TYPED_TEST(Floating, DenormalsSurvive) {
  const TypeParam d = std::numeric_limits<TypeParam>::denorm_min() * 3;
  EXPECT_EQ(std::fpclassify(d), FP_SUBNORMAL);
  const TypeParam back = round_trip(d);
  EXPECT_EQ(std::fpclassify(back), FP_SUBNORMAL);
  EXPECT_EQ(back, d);
}

TYPED_TEST(Floating, QuietNanPayloadsAreBitExact) {
  using U = bits_of<TypeParam>;
  const std::array<U, 3> payloads =
      sizeof(TypeParam) == 4 ? std::array<U, 3>{U(0x7fc12345), U(0xffc00001), U(0x7fffffff)}
                             : std::array<U, 3>{U(0x7ff8000012345678), U(0xfff8000000000001), U(0x7fffffffffffffff)};
  for (const U bits : payloads) {
    const TypeParam nan = std::bit_cast<TypeParam>(bits);
    ASSERT_TRUE(std::isnan(nan));
    EXPECT_EQ(std::bit_cast<U>(round_trip(nan)), bits);
  }
}

TYPED_TEST(Floating, SignalingNanInAnArrayIsBitExact) {
  // Kept in an array so that no x87 load (i686) can quiet the NaN on the way.
  using U = bits_of<TypeParam>;
  const U bits = sizeof(TypeParam) == 4 ? U(0x7f800001) : U(0x7ff0000000000001);
  std::array<TypeParam, 2> a{};
  std::memcpy(&a[0], &bits, sizeof bits);
  std::memcpy(&a[1], &bits, sizeof bits);
  const bytes b = bifrons::to_bytes(a);
  bytes expected;
  put_le(expected, bits, sizeof bits);
  put_le(expected, bits, sizeof bits);
  EXPECT_EQ(hex(b), hex(expected));
  std::array<TypeParam, 2> back{};
  bifrons::from_bytes(b, back);
  U out = 0;
  std::memcpy(&out, &back[1], sizeof out);
  EXPECT_EQ(out, bits);
}

TYPED_TEST(Floating, TruncatedIsUnexpectedEnd) {
  EXPECT_TRUE(fails_with<TypeParam>(bytes(sizeof(TypeParam) - 1), errc::unexpected_end, sizeof(TypeParam) - 1, 1));
}

TEST(Floating, HandComputedBytes) {
  EXPECT_EQ(hex_of(1.0f), "00 00 80 3f");
  EXPECT_EQ(hex_of(-0.0f), "00 00 00 80");
  EXPECT_EQ(hex_of(std::numeric_limits<float>::infinity()), "00 00 80 7f");
  EXPECT_EQ(hex_of(std::numeric_limits<float>::denorm_min()), "01 00 00 00");
  EXPECT_EQ(hex_of(std::bit_cast<float>(std::uint32_t{0x7fc12345})), "45 23 c1 7f");
  EXPECT_EQ(hex_of(1.0), "00 00 00 00 00 00 f0 3f");
  EXPECT_EQ(hex_of(-0.0), "00 00 00 00 00 00 00 80");
  EXPECT_EQ(hex_of(-std::numeric_limits<double>::infinity()), "00 00 00 00 00 00 f0 ff");
}

// ---- enums ------------------------------------------------------------------------------------------

enum class E8 : std::int8_t {};
enum class EU8 : std::uint8_t {};
enum class E16 : std::int16_t {};
enum class EU16 : std::uint16_t {};
enum class E32 : std::int32_t {};
enum class EU32 : std::uint32_t {};
enum class E64 : std::int64_t {};
enum class EU64 : std::uint64_t {};
enum class EChar : char {};
enum class EBool : bool {};
enum class ELong : long {};
enum PlainFixed : int {};
// An unscoped enum needs a fixed underlying type (compile_fail/enum_without_fixed_type.cpp);
// `: unsigned` keeps the bytes GCC and clang gave such an enum without negative enumerators.
enum Plain : unsigned { plain_a, plain_b, plain_c = 1000 };

template <class E>
class EnumScalar : public ::testing::Test {};
using EnumTypes = ::testing::Types<E8, EU8, E16, EU16, E32, EU32, E64, EU64, EChar, EBool, ELong, PlainFixed>;
TYPED_TEST_SUITE(EnumScalar, EnumTypes);

TYPED_TEST(EnumScalar, TravelsAsItsUnderlyingType) {
  using U = std::underlying_type_t<TypeParam>;
  for (const U u : edge_values<U>()) {
    const auto e = static_cast<TypeParam>(u);
    EXPECT_EQ(hex_of(e), hex_of(u));
    EXPECT_EQ(round_trip(e), e);
  }
}

TEST(Enum, HandComputedBytes) {
  EXPECT_EQ(hex_of(static_cast<E8>(-1)), "01");
  EXPECT_EQ(hex_of(static_cast<EU16>(300)), "ac 02");
  EXPECT_EQ(hex_of(static_cast<EChar>('x')), "78");
  EXPECT_EQ(hex_of(plain_c), "e8 07");
  EXPECT_TRUE(fails_with<EBool>(B({0x02}), errc::invalid_value, 0));
  EXPECT_TRUE(fails_with<EU8>(B({0x80, 0x02}), errc::value_out_of_range, 0));  // 256
}

// ---- fixed() and varint() ------------------------------------------------------------------------------

enum class Color : std::uint16_t { red = 0x0102 };

struct Fixed {
  std::uint32_t id = 0;
  std::int16_t small = 0;
  long wide = 0;
  Color color{};
  std::uint8_t plain = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::fixed(id), bifrons::fixed(small), bifrons::fixed(wide), bifrons::fixed(color), bifrons::varint(plain));
  }
  friend bool operator==(const Fixed&, const Fixed&) = default;
};

TEST(Wrappers, FixedIsLittleEndianAtWireWidth) {
  const Fixed f{0x01020304, -2, -1, Color::red, 200};
  // body: 4 + 2 + 8 (long is 8 bytes on the wire everywhere) + 2 + varint(200) 2 = 18 -> header 36.
  EXPECT_EQ(hex_of(f), "24 04 03 02 01 fe ff ff ff ff ff ff ff ff ff 02 01 c8 01");
  EXPECT_EQ(round_trip(f), f);
  const Fixed extremes{0xffffffff, std::numeric_limits<std::int16_t>::min(), std::numeric_limits<long>::min(),
                       Color{0xffff}, 255};
  EXPECT_EQ(round_trip(extremes), extremes);
}

TEST(Wrappers, FixedLongBeyondHostRange) {
  bytes b = B({0x22, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  put_le(b, std::uint64_t{1} << 32, 8);
  const bytes tail = B({0x00, 0x00, 0x00});
  b.insert(b.end(), tail.begin(), tail.end());
  if constexpr (sizeof(long) == 4) {
    EXPECT_TRUE(fails_with<Fixed>(b, errc::value_out_of_range, 7));
  } else {
    const Fixed f = bifrons::from_bytes<Fixed>(b);
    EXPECT_EQ(static_cast<std::int64_t>(f.wide), std::int64_t{1} << 32);
  }
}

struct ConstFixed {
  std::uint64_t hash = 0;
  template <class Ar>
  void save(Ar& ar) const {
    ar(bifrons::fixed(hash));  // fixed() of a const member while saving
  }
  template <class Ar>
  void load(Ar& ar) {
    ar(bifrons::fixed(hash));
  }
};

TEST(Wrappers, FixedWorksOnConstMembersInSave) {
  const ConstFixed c{0x0102030405060708};
  EXPECT_EQ(hex_of(c), "10 08 07 06 05 04 03 02 01");
  EXPECT_EQ(round_trip(c).hash, c.hash);
}

/// varint() on arrays: sequences keep their count, fixed arrays have none; elements are varints.
struct Packed {
  std::vector<std::int32_t> v;
  std::array<std::uint16_t, 2> a{};
  std::vector<Color> e;
  std::int64_t c[2] = {};
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::varint(v), bifrons::varint(a), bifrons::varint(e), bifrons::varint(c));
  }
  friend bool operator==(const Packed& x, const Packed& y) {
    return x.v == y.v && x.a == y.a && x.e == y.e && x.c[0] == y.c[0] && x.c[1] == y.c[1];
  }
};

TEST(Wrappers, VarintOnArraysWritesVarintElements) {
  const Packed p{{1, -1, 300}, {300, 1}, {Color::red}, {-1, 64}};
  // v: 03 | 02 01 d8 04; a: ac 02 01; e: 01 | 258 = 82 02; c: 01 80 01 -> 14 bytes, header 1c.
  EXPECT_EQ(hex_of(p), "1c 03 02 01 d8 04 ac 02 01 01 82 02 01 80 01");
  EXPECT_EQ(round_trip(p), p);
  Packed existing{{9, 9, 9, 9}, {9, 9}, {Color{9}, Color{9}}, {9, 9}};
  read_into(p, existing);
  EXPECT_EQ(existing, p);
  const Packed empty{};
  EXPECT_EQ(hex_of(empty), "0c 00 00 00 00 00 00");
  EXPECT_EQ(round_trip(empty), empty);
}

TEST(Wrappers, VarintArrayElementsAreRangeChecked) {
  // a[0] = 65536 does not fit uint16: header 10, v 00, a 80 80 04 | 00, e 00, c 00 00.
  EXPECT_TRUE(fails_with<Packed>(B({0x10, 0x00, 0x80, 0x80, 0x04, 0x00, 0x00, 0x00, 0x00}), errc::value_out_of_range,
                                 2));
  // v claims 5 elements with nothing after its count in the envelope (a 1-byte body).
  EXPECT_TRUE(fails_with<Packed>(B({0x02, 0x05, 0x02}), errc::count_exceeds_input, 1, 5));
}

}  // namespace
}  // namespace bifrons_test
