// Widening scalar fields (rule 5) and enums (rule 6).
//
// Integers are varints (signed ones zigzag-encoded), so a field may widen within its signedness
// (int8 -> int16 -> int32 -> int64, uint8 -> uint16 -> uint32 -> uint64): every value encodes to
// the same bytes at every width. A narrower (older) reader given a value that does not fit gets
// errc::value_out_of_range. Enums travel as their underlying value, so an enum and its
// underlying integer type are interchangeable.

#include "evolution_support.hpp"

#include <limits>

namespace evo {

using bifrons::errc;

/// Zigzag as the format defines it: (n << 1) ^ (n >> 63).
std::uint64_t zigzag64(std::int64_t n) {
  return (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63);
}

/// A struct with the scalar in the middle: before = 1 (zigzag 2, one byte), v, after.
template <class T>
struct Field {
  std::int32_t before = 1;
  T v{};
  std::string after = "after";
  EVO_FIELDS(before, v, after)
};

template <class T>
std::string type_name() {
  const std::string bits = std::to_string(sizeof(T) * 8);
  return (std::is_signed_v<T> ? "Int" : "UInt") + bits;
}

template <class N, class W>
struct widening {
  using narrow = N;
  using wide = W;
};
struct WideningName {
  template <class P>
  static std::string GetName(int) {
    return type_name<typename P::narrow>() + "To" + type_name<typename P::wide>();
  }
};

template <class P>
class Widening : public ::testing::Test {
 protected:
  using N = typename P::narrow;
  using W = typename P::wide;
  using nl = std::numeric_limits<N>;

  /// Values of the narrow type, the extremes included.
  static std::vector<N> narrow_values() {
    std::vector<N> v{nl::min(), nl::max(), N{0}, N{1}, static_cast<N>(nl::max() / 2), static_cast<N>(nl::max() - 1)};
    if constexpr (std::is_signed_v<N>) v.insert(v.end(), {N{-1}, static_cast<N>(nl::min() + 1), static_cast<N>(-64)});
    return v;
  }
  /// Values of the wide type that the narrow type cannot hold.
  static std::vector<W> too_wide() {
    std::vector<W> v{static_cast<W>(W{nl::max()} + 1), std::numeric_limits<W>::max()};
    if constexpr (std::is_signed_v<W>)
      v.insert(v.end(), {static_cast<W>(W{nl::min()} - 1), std::numeric_limits<W>::min()});
    return v;
  }
};

using WideningPairs = ::testing::Types<widening<std::int8_t, std::int16_t>, widening<std::int16_t, std::int32_t>,
                                       widening<std::int32_t, std::int64_t>, widening<std::int8_t, std::int32_t>,
                                       widening<std::int16_t, std::int64_t>, widening<std::int8_t, std::int64_t>,
                                       widening<std::uint8_t, std::uint16_t>, widening<std::uint16_t, std::uint32_t>,
                                       widening<std::uint32_t, std::uint64_t>, widening<std::uint8_t, std::uint32_t>,
                                       widening<std::uint16_t, std::uint64_t>, widening<std::uint8_t, std::uint64_t>>;
TYPED_TEST_SUITE(Widening, WideningPairs, WideningName);

TYPED_TEST(Widening, EveryNarrowValueEncodesAsTheSameWideValue) {
  using N = typename TestFixture::N;
  using W = typename TestFixture::W;
  for (N x : this->narrow_values()) {
    SCOPED_TRACE(::testing::Message() << +x);
    EXPECT_EQ(bifrons::to_bytes(x), bifrons::to_bytes(static_cast<W>(x)));
    // The reference encoding: zigzag for signed, then LEB128.
    const std::uint64_t wire = std::is_signed_v<N> ? zigzag64(static_cast<std::int64_t>(x))
                                                   : static_cast<std::uint64_t>(x);
    EXPECT_EQ(bifrons::to_bytes(x), leb128(wire));
  }
}

TYPED_TEST(Widening, NewReaderReadsNarrowData) {
  using N = typename TestFixture::N;
  using W = typename TestFixture::W;
  for (N x : this->narrow_values()) {
    SCOPED_TRACE(::testing::Message() << +x);
    EXPECT_EQ(bifrons::from_bytes<W>(bifrons::to_bytes(x)), static_cast<W>(x));
    const auto bytes = bifrons::to_bytes(Field<N>{-3, x, "n"});
    EXPECT_EQ(bifrons::from_bytes<Field<W>>(bytes), (Field<W>{-3, static_cast<W>(x), "n"}));
    EXPECT_EQ(bifrons::from_bytes<std::optional<W>>(bifrons::to_bytes(std::optional<N>(x))), std::optional<W>(x));
    EXPECT_EQ((bifrons::from_bytes<std::map<W, W>>(bifrons::to_bytes(std::map<N, N>{{x, x}}))),
              (std::map<W, W>{{static_cast<W>(x), static_cast<W>(x)}}));
    EXPECT_EQ((bifrons::from_bytes<std::variant<std::string, W>>(bifrons::to_bytes(std::variant<std::string, N>(x)))),
              (std::variant<std::string, W>(static_cast<W>(x))));
  }
}

TYPED_TEST(Widening, OldReaderReadsWideDataThatFits) {
  using N = typename TestFixture::N;
  using W = typename TestFixture::W;
  for (N x : this->narrow_values()) {
    SCOPED_TRACE(::testing::Message() << +x);
    EXPECT_EQ(bifrons::from_bytes<N>(bifrons::to_bytes(static_cast<W>(x))), x);
    const auto bytes = bifrons::to_bytes(Field<W>{-3, static_cast<W>(x), "w"});
    EXPECT_EQ(bifrons::from_bytes<Field<N>>(bytes), (Field<N>{-3, x, "w"}));
    EXPECT_EQ((bifrons::from_bytes<std::pair<N, std::string>>(bifrons::to_bytes(std::pair<W, std::string>{x, "p"}))),
              (std::pair<N, std::string>{x, "p"}));
  }
}

TYPED_TEST(Widening, OldReaderGivenValueThatDoesNotFitGetsOutOfRange) {
  using N = typename TestFixture::N;
  for (auto w : this->too_wide()) {
    SCOPED_TRACE(::testing::Message() << +w);
    const auto scalar = bifrons::try_from_bytes<N>(bifrons::to_bytes(w));
    ASSERT_FALSE(scalar.has_value());
    EXPECT_EQ(scalar.code(), errc::value_out_of_range);
    EXPECT_EQ(scalar.offset(), 0u);

    // In a struct: 1 header byte, then `before` (1 byte): the bad value starts at byte 2.
    const auto field = bifrons::try_from_bytes<Field<N>>(bifrons::to_bytes(Field<decltype(w)>{1, w, "x"}));
    ASSERT_FALSE(field.has_value());
    EXPECT_EQ(field.code(), errc::value_out_of_range);
    EXPECT_EQ(field.offset(), 2u);

    try {
      Field<N> out{};
      bifrons::from_bytes(bifrons::to_bytes(Field<decltype(w)>{1, w, "x"}), out);
      ADD_FAILURE() << "no error";
    } catch (const bifrons::error& e) {
      EXPECT_EQ(e.code(), errc::value_out_of_range);
      EXPECT_EQ(e.offset(), 2u);
    }

    const auto bytes = bifrons::to_bytes(w);
    bifrons::reader r(bytes);
    N out{};
    EXPECT_THROW(r(out), bifrons::error);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.code(), errc::value_out_of_range);
    EXPECT_EQ(r.offset(), 0u);
  }
}

// ---- a field widened twice while the struct also grows: int16 -> int32 -> int64 --------------

struct Wide1 {
  std::int32_t id = 1;
  std::int16_t v = -2;
  EVO_FIELDS(id, v)
};
struct Wide2 {
  std::int32_t id = 1;
  std::int32_t v = -2;
  std::string added = "added";
  EVO_FIELDS(id, v, added)
};
struct Wide3 {
  std::int32_t id = 1;
  std::int64_t v = -2;
  std::string added = "added";
  std::uint64_t more = 3;
  EVO_FIELDS(id, v, added, more)
};
struct WidenedTwice : family<Wide1, Wide2, Wide3> {
  static constexpr const char* name = "WidenedTwice";
};

template <class Pos>
class WidenedTwiceNesting : public ::testing::Test {};
using WideningPositions = ::testing::Types<AtTopLevel, AsMember, InVector, AsMapKey, InOptional>;
TYPED_TEST_SUITE(WidenedTwiceNesting, WideningPositions, NameOf);

// sample() values (at most a few thousand) fit every width, so both directions must work.
TYPED_TEST(WidenedTwiceNesting, NewReadsOld) { check_pairs<TypeParam, WidenedTwice>(direction::new_reads_old); }
TYPED_TEST(WidenedTwiceNesting, OldReadsNew) { check_pairs<TypeParam, WidenedTwice>(direction::old_reads_new); }

TEST(WidenedTwice, OldestReaderRefusesValueOnlyTheNewestCanHold) {
  const auto bytes = bifrons::to_bytes(Wide3{7, std::int64_t{1} << 40, "a", 1});
  EXPECT_EQ(bifrons::try_from_bytes<Wide1>(bytes).code(), errc::value_out_of_range);
  EXPECT_EQ(bifrons::try_from_bytes<Wide2>(bytes).code(), errc::value_out_of_range);
  const auto v3 = bifrons::from_bytes<Wide3>(bytes);
  EXPECT_EQ(v3.v, std::int64_t{1} << 40);

  const auto fits16 = bifrons::to_bytes(Wide3{7, -32768, "a", 1});
  EXPECT_EQ(bifrons::from_bytes<Wide1>(fits16), (Wide1{7, -32768}));
  EXPECT_EQ(bifrons::from_bytes<Wide2>(fits16), (Wide2{7, -32768, "a"}));
}

// ---- enums ------------------------------------------------------------------------------------

enum class Small : std::uint8_t { a = 1, b = 2 };
enum class Signed16 : std::int16_t { neg = -2, pos = 300 };
enum Unscoped : int { first = 1, second = -70000 };
enum class Huge : std::uint64_t { top = ~std::uint64_t{0} };

template <class E>
class EnumAsUnderlying : public ::testing::Test {
 protected:
  using U = std::underlying_type_t<E>;
  static std::vector<U> values() {
    using l = std::numeric_limits<U>;
    std::vector<U> v{U{0}, U{1}, l::max(), l::min(), static_cast<U>(l::max() / 3)};
    return v;
  }
};
using Enums = ::testing::Types<Small, Signed16, Unscoped, Huge, Color>;
template <class E>
inline constexpr const char* enum_name = nullptr;
template <>
inline constexpr const char* enum_name<Small> = "ScopedUInt8";
template <>
inline constexpr const char* enum_name<Signed16> = "ScopedInt16";
template <>
inline constexpr const char* enum_name<Unscoped> = "UnscopedInt";
template <>
inline constexpr const char* enum_name<Huge> = "ScopedUInt64";
template <>
inline constexpr const char* enum_name<Color> = "Color";
struct EnumName {
  template <class E>
  static std::string GetName(int) {
    return enum_name<E>;
  }
};
TYPED_TEST_SUITE(EnumAsUnderlying, Enums, EnumName);

TYPED_TEST(EnumAsUnderlying, EnumAndUnderlyingIntegerAreInterchangeable) {
  using E = TypeParam;
  using U = typename TestFixture::U;
  for (U u : this->values()) {  // named enumerators or not: every underlying value round-trips
    SCOPED_TRACE(::testing::Message() << +u);
    const E e = static_cast<E>(u);
    EXPECT_EQ(bifrons::to_bytes(e), bifrons::to_bytes(u));
    EXPECT_EQ(bifrons::from_bytes<E>(bifrons::to_bytes(u)), e);
    EXPECT_EQ(bifrons::from_bytes<U>(bifrons::to_bytes(e)), u);

    EXPECT_EQ(bifrons::from_bytes<Field<E>>(bifrons::to_bytes(Field<U>{2, u, "u"})), (Field<E>{2, e, "u"}));
    EXPECT_EQ(bifrons::from_bytes<Field<U>>(bifrons::to_bytes(Field<E>{2, e, "e"})), (Field<U>{2, u, "e"}));
    EXPECT_EQ(bifrons::from_bytes<std::optional<U>>(bifrons::to_bytes(std::optional<E>(e))), std::optional<U>(u));
    EXPECT_EQ((bifrons::from_bytes<std::map<E, U>>(bifrons::to_bytes(std::map<U, E>{{u, e}}))),
              (std::map<E, U>{{e, u}}));
    EXPECT_EQ((bifrons::from_bytes<std::set<U>>(bifrons::to_bytes(std::set<E>{e}))), (std::set<U>{u}));
  }
}

TEST(EnumBytes, EnumsTravelAsTheirUnderlyingVarint) {
  EXPECT_EQ(bifrons::to_bytes(Small::b), bytes_of({0x02}));
  EXPECT_EQ(bifrons::to_bytes(static_cast<Small>(200)), bytes_of({0xC8, 0x01}));
  EXPECT_EQ(bifrons::to_bytes(Signed16::neg), bytes_of({0x03}));        // zigzag(-2) = 3
  EXPECT_EQ(bifrons::to_bytes(Signed16::pos), bytes_of({0xD8, 0x04}));  // zigzag(300) = 600
  EXPECT_EQ(bifrons::to_bytes(second), bytes_of({0xDF, 0xC5, 0x08}));   // zigzag(-70000) = 139999
  EXPECT_EQ(bifrons::to_bytes(Huge::top), bytes_of({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

TEST(EnumWidening, EnumFieldWidensLikeItsUnderlyingType) {
  enum class Wider : std::uint16_t {};
  EXPECT_EQ(bifrons::from_bytes<Wider>(bifrons::to_bytes(static_cast<Small>(200))), static_cast<Wider>(200));
  EXPECT_EQ(bifrons::from_bytes<std::uint32_t>(bifrons::to_bytes(static_cast<Small>(255))), 255u);
  const auto too_big =
      bifrons::try_from_bytes<Field<Small>>(bifrons::to_bytes(Field<Wider>{1, static_cast<Wider>(256), ""}));
  EXPECT_EQ(too_big.code(), errc::value_out_of_range);
  EXPECT_EQ(too_big.offset(), 2u);
}

TEST(EnumWidening, VectorsOfEnumsHoldVarintsAndWiden) {
  // Enums are not block elements: vector<E> holds varints, vector<uint8_t> one raw block, so
  // the two are not interchangeable (docs/evolution.md), but vectors of enums widen.
  enum class Wider : std::uint16_t {};
  const std::vector<Small> small{static_cast<Small>(200), Small::a};
  EXPECT_EQ(bifrons::to_bytes(small), bytes_of({0x02, 0xC8, 0x01, 0x01}));
  EXPECT_EQ(bifrons::to_bytes(std::vector<std::uint8_t>{200, 1}), bytes_of({0x02, 0xC8, 0x01}));
  EXPECT_EQ(bifrons::from_bytes<std::vector<Wider>>(bifrons::to_bytes(small)),
            (std::vector<Wider>{static_cast<Wider>(200), static_cast<Wider>(1)}));
  const auto too_big = bifrons::try_from_bytes<std::vector<Small>>(bifrons::to_bytes(std::vector<Wider>{
      static_cast<Wider>(1), static_cast<Wider>(256)}));
  EXPECT_EQ(too_big.code(), errc::value_out_of_range);
  EXPECT_EQ(too_big.offset(), 2u);  // count, then 01, then 256 = 80 02
}

}  // namespace evo
