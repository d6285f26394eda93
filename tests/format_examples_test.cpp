// Checks every worked example of docs/format.md byte for byte: to_bytes gives exactly the bytes
// of the document, serialized_size agrees, and from_bytes of those bytes gives the value back.
// The hex strings here are the document's, character for character; the examples were computed
// by hand from the format rules, not copied from the library's output.
//
// Nothing here depends on the host: the expectations hold on big-endian and 32-bit hosts too
// (long travels as 8 bytes in arrays whatever sizeof(long) is; wchar_t as 4).

#include <bifrons/bifrons.hpp>
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <bit>
#include <bitset>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <valarray>
#include <variant>
#include <vector>

namespace {

// ---- helpers ------------------------------------------------------------------------------

/// Parses hex digit pairs; whitespace between bytes is ignored.
std::vector<std::byte> hex(std::string_view text) {
  const auto digit = [](char c) -> unsigned {
    if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<unsigned>(c - 'A' + 10);
    ADD_FAILURE() << "bad hex digit '" << c << "'";
    return 0;
  };
  std::vector<std::byte> out;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == ' ' || text[i] == '\n') {
      ++i;
      continue;
    }
    if (i + 1 >= text.size()) {
      ADD_FAILURE() << "odd number of hex digits in \"" << text << "\"";
      break;
    }
    out.push_back(static_cast<std::byte>(digit(text[i]) << 4 | digit(text[i + 1])));
    i += 2;
  }
  return out;
}

/// "0a 1b ..." for readable failure messages.
std::string to_hex(std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  for (const std::byte b : bytes) {
    if (!s.empty()) s += ' ';
    s += digits[std::to_integer<unsigned>(b) >> 4];
    s += digits[std::to_integer<unsigned>(b) & 0xf];
  }
  return s;
}

/// Value equality for the round trip: floating point compares bit patterns (so -0.0 and NaN
/// payloads count), unique_ptr compares what it points to.
template <class T>
bool same(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
  else if constexpr (std::is_same_v<T, double>)
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
  else
    return a == b;
}
template <class T>
bool same(const std::unique_ptr<T>& a, const std::unique_ptr<T>& b) {
  return a && b ? same(*a, *b) : !a && !b;
}

/// from_bytes<T>(bytes) equals value.
template <class T>
void expect_decodes(std::string_view bytes, const T& value) {
  SCOPED_TRACE(testing::Message() << "decoding " << bytes);
  const auto result = bifrons::try_from_bytes<T>(hex(bytes));
  ASSERT_TRUE(result) << bifrons::describe(result.code()) << " at byte " << result.offset();
  EXPECT_TRUE(same(*result, value));
}

/// The example in both directions: value encodes to exactly bytes, and bytes decode to value.
template <class T>
void expect_example(const T& value, std::string_view bytes) {
  SCOPED_TRACE(testing::Message() << "example " << bytes);
  const std::vector<std::byte> expected = hex(bytes);
  EXPECT_EQ(to_hex(bifrons::to_bytes(value)), to_hex(expected));
  EXPECT_EQ(bifrons::serialized_size(value), expected.size());
  expect_decodes(bytes, value);
}

/// from_bytes<T>(bytes) fails with code at offset, and reports bytes_missing (section 26: the
/// bytes that unexpected_end and count_exceeds_input say the input lacked; 0 for the others).
template <class T>
void expect_error(std::string_view bytes, bifrons::errc code, std::size_t offset, std::size_t bytes_missing = 0) {
  SCOPED_TRACE(testing::Message() << "rejecting " << bytes);
  const auto result = bifrons::try_from_bytes<T>(hex(bytes));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.code(), code) << bifrons::describe(result.code());
  EXPECT_EQ(result.offset(), offset);
  EXPECT_EQ(result.bytes_missing(), bytes_missing);
}

TEST(FormatExampleHelpers, HexParsesPairsAndIgnoresSpaces) {
  EXPECT_EQ(to_hex(hex("00 7f\n80 ff")), "00 7f 80 ff");
  EXPECT_EQ(hex("0A1b").size(), 2u);
  EXPECT_TRUE(same(std::make_unique<int>(1), std::make_unique<int>(1)));
  EXPECT_FALSE(same(std::make_unique<int>(1), std::unique_ptr<int>()));
  EXPECT_FALSE(same(0.0, -0.0));
}

// ---- the types of the examples (docs/format.md spells them the same way) -------------------

enum class Side : std::int8_t { buy = 1, sell = -1 };
enum class Status : std::uint16_t { ok = 200, moved = 301 };

struct Limits {
  std::uint32_t daily;
  std::uint32_t monthly;
  friend bool operator==(const Limits&, const Limits&) = default;
};
struct Order {
  std::int32_t id;
  std::string symbol;
  double price = 0;
  friend bool operator==(const Order&, const Order&) = default;
};
struct Account {
  std::int32_t id;
  std::string name;
  Limits limits;
  std::vector<Order> orders;
  friend bool operator==(const Account&, const Account&) = default;
};

struct Blob {
  std::vector<std::uint8_t> data;
  friend bool operator==(const Blob&, const Blob&) = default;
};

struct Reading {
  static constexpr std::uint32_t bifrons_version = 2;
  std::int32_t millikelvin = 0;  // version 1 stored kelvin

  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    ar(millikelvin);
    if constexpr (Ar::is_loading) {
      if (version < 2) millikelvin *= 1000;
    }
  }
  friend bool operator==(const Reading&, const Reading&) = default;
};

struct PointV1 {
  std::int32_t x;
  std::int32_t y;
  friend bool operator==(const PointV1&, const PointV1&) = default;
};
struct PointV2 {
  std::int32_t x;
  std::int32_t y;
  std::int32_t z = 0;
  friend bool operator==(const PointV2&, const PointV2&) = default;
};

struct ItemV1 {
  std::int32_t id;
  std::string note;
  std::int32_t qty;
  friend bool operator==(const ItemV1&, const ItemV1&) = default;
};
struct ItemV2 {
  std::int32_t id;
  bifrons::deprecated<std::string> note;
  std::int32_t qty;
  friend bool operator==(const ItemV2&, const ItemV2&) = default;
};

// ---- the examples, numbered as in docs/format.md --------------------------------------------

TEST(FormatExamples, Example01SmallIntegers) {
  expect_example(std::uint32_t{0}, "00");
  expect_example(std::uint32_t{1}, "01");
  expect_example(std::int32_t{1}, "02");
  expect_example(std::int32_t{-1}, "01");
  expect_example(std::int32_t{63}, "7e");
  expect_example(std::int32_t{-64}, "7f");
  expect_example(std::int32_t{64}, "80 01");
  expect_example(std::uint8_t{200}, "c8 01");
  expect_example(std::int8_t{-128}, "ff 01");
  expect_example(char{'A'}, "41");
  expect_example(true, "01");
}

TEST(FormatExamples, Example02LargeAndNegativeIntegers) {
  expect_example(std::uint32_t{300}, "ac 02");
  expect_example(std::int64_t{-300}, "d7 04");
  expect_example(std::uint32_t{4294967295u}, "ff ff ff ff 0f");
  expect_example(std::numeric_limits<std::int64_t>::max(), "fe ff ff ff ff ff ff ff ff 01");
  expect_example(std::numeric_limits<std::int64_t>::min(), "ff ff ff ff ff ff ff ff ff 01");
  expect_example(std::numeric_limits<std::uint64_t>::max(), "ff ff ff ff ff ff ff ff ff 01");
}

TEST(FormatExamples, Example03Enums) {
  expect_example(Side::sell, "01");
  expect_example(Side::buy, "02");
  expect_example(Status::moved, "ad 02");
}

TEST(FormatExamples, Example04FloatingPoint) {
  expect_example(1.5, "00 00 00 00 00 00 f8 3f");
  expect_example(-2.0, "00 00 00 00 00 00 00 c0");
  expect_example(1.0f, "00 00 80 3f");
  expect_example(-0.0f, "00 00 00 80");
}

TEST(FormatExamples, Example05Strings) {
  expect_example(std::string{}, "00");
  expect_example(std::string{"hi"}, "02 68 69");
  expect_example(std::u8string{u8"\u00e9"}, "02 c3 a9");
  expect_example(std::u16string{u"h\u00e9"}, "02 68 00 e9 00");
  expect_example(std::u32string{U"\u20ac"}, "01 ac 20 00 00");
  expect_example(std::wstring{L"h"}, "01 68 00 00 00");
}

TEST(FormatExamples, Example06ArithmeticBlocks) {
  expect_example(std::vector<std::int32_t>{1, -2, 256}, "03 01 00 00 00 fe ff ff ff 00 01 00 00");
  expect_example(std::vector<std::int8_t>{-1, 1}, "02 ff 01");
  expect_example(std::vector<long>{-1}, "01 ff ff ff ff ff ff ff ff");
  expect_example(std::array<std::int16_t, 2>{1, -1}, "01 00 ff ff");
}

TEST(FormatExamples, Example07VectorOfStrings) {
  expect_example(std::vector<std::string>{"a", "bc"}, "02 01 61 02 62 63");
}

TEST(FormatExamples, Example08NestedStruct) {
  const Account account{7, "Ann", {500, 10000}, {{1, "AB", 2.5}}};
  expect_example(account, "30 0e 03 41 6e 6e 08 f4 03 90 4e 01 18 02 02 41 42 00 00 00 00 00 00 04 40");
}

TEST(FormatExamples, Example09TwoByteEnvelopeHeader) {
  Blob blob;
  for (std::uint8_t i = 0; i < 63; ++i) blob.data.push_back(i);
  expect_example(blob, R"(80 01 3f
00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f
10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f
20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f
30 31 32 33 34 35 36 37 38 39 3a 3b 3c 3d 3e)");
}

TEST(FormatExamples, Example10VersionedStruct) {
  expect_example(Reading{300000}, "09 02 c0 cf 24");
  // Written by version 1 of Reading (kelvin): the hook sees version 1 and converts.
  expect_decodes("07 01 d8 04", Reading{300000});
}

TEST(FormatExamples, Example11AppendedField) {
  expect_example(PointV1{3, -4}, "04 06 07");
  expect_example(PointV2{3, -4, 1}, "06 06 07 02");
  expect_decodes("06 06 07 02", PointV1{3, -4});    // old reader: skips z
  expect_decodes("04 06 07", PointV2{3, -4, 0});    // new reader: z keeps its default
}

TEST(FormatExamples, Example12Optional) {
  expect_example(std::optional<std::int32_t>{}, "00");
  expect_example(std::optional<std::int32_t>{5}, "01 0a");
  expect_example(std::optional<std::string>{""}, "01 00");
}

TEST(FormatExamples, Example13Variant) {
  using V = std::variant<std::int32_t, std::string>;
  expect_example(V{std::int32_t{5}}, "00 0a");
  expect_example(V{std::string{"hi"}}, "01 02 68 69");
  expect_example(std::variant<std::monostate, std::int32_t>{}, "00");
}

TEST(FormatExamples, Example14MapAndSet) {
  expect_example(std::map<std::string, std::int32_t>{{"b", -1}, {"a", 1}}, "02 01 61 02 01 62 01");
  expect_example(std::set<std::int32_t>{300, -1}, "02 01 d8 04");
}

TEST(FormatExamples, Example15Bits) {
  expect_example(std::vector<bool>{true, false, true, true, false, false, false, false, true}, "09 0d 01");
  expect_example(std::bitset<10>{0b10'0000'0001}, "01 02");
  expect_example(std::array<bool, 3>{true, false, true}, "01 00 01");
}

TEST(FormatExamples, Example16DeprecatedField) {
  expect_example(ItemV1{5, "hi", 3}, "0a 0a 02 68 69 06");
  expect_example(ItemV2{5, {}, 3}, "06 0a 00 06");
  expect_decodes("0a 0a 02 68 69 06", ItemV2{5, {}, 3});  // new reader discards the note
  expect_decodes("06 0a 00 06", ItemV1{5, "", 3});        // old reader sees an empty note
}

TEST(FormatExamples, Example17UniquePtr) {
  expect_example(std::unique_ptr<std::int32_t>{}, "00");
  expect_example(std::make_unique<std::int32_t>(7), "01 0e");
  expect_example(std::make_unique<PointV1>(PointV1{3, -4}), "01 04 06 07");
}

TEST(FormatExamples, Example18ConcatenatedValues) {
  const std::vector<std::byte> expected = hex("02 01 61 04 06 07");
  std::vector<std::byte> out;
  bifrons::writer w(out);
  w(std::int32_t{1}, std::string{"a"}, PointV1{3, -4});
  EXPECT_EQ(to_hex(out), to_hex(expected));

  std::int32_t n = 0;
  std::string s;
  PointV1 p{};
  bifrons::reader r(expected);
  r(n, s, p);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(n, 1);
  EXPECT_EQ(s, "a");
  EXPECT_EQ(p, (PointV1{3, -4}));
}

TEST(FormatExamples, Example19RejectedInputs) {
  using bifrons::errc;
  expect_error<std::uint32_t>("80 00", errc::malformed_varint, 0);
  expect_error<std::uint64_t>("ff ff ff ff ff ff ff ff ff 02", errc::malformed_varint, 0);
  expect_error<std::uint32_t>("80 80 80 80 10", errc::value_out_of_range, 0);
  expect_error<bool>("02", errc::invalid_value, 0);
  expect_error<std::optional<std::int32_t>>("02", errc::invalid_value, 0);
  expect_error<std::variant<std::int32_t, std::string>>("02 0a", errc::invalid_value, 0);
  expect_error<std::string>("05 68 69", errc::count_exceeds_input, 0, 3);
  expect_error<std::set<std::string>>("02 01 61 01 61", errc::duplicate_key, 3);
  expect_error<std::uint32_t>("01 02", errc::trailing_bytes, 1);
  expect_error<PointV1>("04 06", errc::unexpected_end, 2, 1);
  expect_error<std::vector<bool>>("09 0d 03", errc::invalid_value, 2);
}

// Byte strings quoted in the text of docs/format.md outside the numbered examples.
TEST(FormatExamples, InlineExamples) {
  expect_error<std::uint32_t>("81 00", bifrons::errc::malformed_varint, 0);  // section 2
  expect_example(std::vector<std::int8_t>{-1}, "01 ff");                     // section 7
  expect_example(std::string{"\xc3\xa9"}, "02 c3 a9");                       // section 8
  expect_example(std::u16string{u"\u00e9"}, "01 e9 00");
  expect_example(std::u32string{U"\u00e9"}, "01 e9 00 00 00");
  expect_example(std::wstring{L"\u00e9"}, "01 e9 00 00 00");
}

// ---- section 28: records ------------------------------------------------------------------

struct RecPoint {
  std::int16_t x = 0;
  std::int16_t y = 0;
  friend bool operator==(const RecPoint&, const RecPoint&) = default;
};
struct RecTick {
  std::int32_t id = 0;
  double price = 0;
  friend bool operator==(const RecTick&, const RecTick&) = default;
};
struct RecTrade {
  bool live = false;
  Side side = Side::buy;
  char symbol[3] = {};
  long qty = 0;
  RecPoint at;
  friend bool operator==(const RecTrade&, const RecTrade&) = default;
};
struct RecTickV2 {
  std::int32_t id = 0;
  double price = 0;
  std::uint16_t venue = 7;
  friend bool operator==(const RecTickV2&, const RecTickV2&) = default;
};
struct RecBook {
  std::string name;
  std::vector<RecTick> ticks;
  friend bool operator==(const RecBook&, const RecBook&) = default;
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_record<RecPoint> = true;
template <>
inline constexpr bool bifrons::enable_record<RecTick> = true;
template <>
inline constexpr bool bifrons::enable_record<RecTrade> = true;
template <>
inline constexpr bool bifrons::enable_record<RecTickV2> = true;

namespace {

TEST(FormatExamples, Section28Records) {
  expect_example(RecPoint{1, -2}, "08 01 00 fe ff");
  expect_example(RecTick{7, 1.5}, "18 07 00 00 00 00 00 00 00 00 00 f8 3f");
  expect_example(std::vector<RecPoint>{{1, -2}, {3, 4}}, "02 04 01 00 fe ff 03 00 04 00");
  expect_example(std::vector<RecPoint>{}, "00");
  expect_example(std::array<RecPoint, 2>{{{1, -2}, {3, 4}}}, "04 01 00 fe ff 03 00 04 00");
  expect_example(std::array<RecPoint, 0>{}, "");
  expect_example(std::optional<RecPoint>{RecPoint{1, -2}}, "01 08 01 00 fe ff");
  expect_example(RecBook{"b", {{1, 0.5}}}, "20 01 62 01 0c 01 00 00 00 00 00 00 00 00 00 e0 3f");
  expect_decodes("01 0c 07 00 00 00 00 00 00 00 00 00 f8 3f", std::vector<RecTickV2>{{7, 1.5, 7}});
  expect_decodes("01 0e 07 00 00 00 00 00 00 00 00 00 f8 3f 09 00", std::vector<RecTick>{{7, 1.5}});
  const std::string_view trade = "01 11 01 ff 49 42 4d fe ff ff ff ff ff ff ff 01 00 fe ff";
  expect_example(std::vector<RecTrade>{{true, Side::sell, {'I', 'B', 'M'}, -2, {1, -2}}}, trade);

  using bifrons::errc;
  expect_error<std::vector<RecTick>>("01 06 00 00 00 00 00 00", errc::invalid_stride, 1);
  expect_error<RecTick>("0c 00 00 00 00 00 00", errc::invalid_stride, 0);
  expect_error<RecTick>("19 00 00 00 00 00 00 00 00 00 00 00 00", errc::invalid_value, 0);
  expect_error<RecTick>("18 00 00 00 00 00 00 00 00 00 00 00", errc::unexpected_end, 12, 1);
  expect_error<std::vector<RecPoint>>("03 04 00 00 00 00 00 00 00 00", errc::count_exceeds_input, 0, 4);
  expect_error<std::vector<RecPoint>>("01 80 01 00 00", errc::count_exceeds_input, 0, 126);
  expect_error<std::array<RecPoint, 2>>("04 01 00 fe ff", errc::unexpected_end, 5, 4);
  expect_error<std::vector<RecTrade>>("01 11 02 ff 49 42 4d fe ff ff ff ff ff ff ff 01 00 fe ff", errc::invalid_value,
                                      2);
  if constexpr (sizeof(long) == 4)
    expect_error<std::vector<RecTrade>>("01 11 01 ff 49 42 4d 00 00 00 00 01 00 00 00 01 00 fe ff",
                                        errc::value_out_of_range, 7);
}

}  // namespace

// ---- section 23: pointers ----------------------------------------------------------------------

namespace {

struct Link {
  std::int32_t value = 0;
  std::shared_ptr<Link> next;
  std::weak_ptr<Link> prev;
};

TEST(FormatExamples, Section23Pointers) {
  const auto p = std::make_shared<std::int32_t>(7);
  EXPECT_EQ(to_hex(bifrons::to_bytes(std::vector<std::shared_ptr<std::int32_t>>{p, p, nullptr})),
            to_hex(hex("03 01 0e 03 00")));
  const auto shared = bifrons::from_bytes<std::vector<std::shared_ptr<std::int32_t>>>(hex("03 01 0e 03 00"));
  ASSERT_EQ(shared.size(), 3u);
  ASSERT_TRUE(shared[0]);
  EXPECT_EQ(*shared[0], 7);
  EXPECT_EQ(shared[1], shared[0]);
  EXPECT_EQ(shared[2], nullptr);
  auto first = std::make_shared<Link>();
  first->next = std::make_shared<Link>();
  first->next->value = 1;
  first->next->prev = first;
  EXPECT_EQ(to_hex(bifrons::to_bytes(first)), to_hex(hex("01 0e 00 01 06 02 00 03 00")));
  const auto back = bifrons::from_bytes<std::shared_ptr<Link>>(hex("01 0e 00 01 06 02 00 03 00"));
  ASSERT_TRUE(back && back->next);
  EXPECT_EQ(back->next->value, 1);
  EXPECT_EQ(back->next->prev.lock(), back);
  first->next->prev.reset();

  using bifrons::errc;
  expect_error<std::shared_ptr<Link>>("01 06 02 03 00", errc::invalid_value, 3);
  expect_error<std::shared_ptr<std::int32_t>>("02 00", errc::invalid_value, 0);
  expect_error<std::shared_ptr<std::int32_t>>("03", errc::invalid_value, 0);
}

}  // namespace

// ---- section 23: polymorphic objects (tag 2), and section 5's virtual bases --------------------

namespace fx {

struct Shape {
  std::int32_t id = 0;
  virtual ~Shape() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
struct Circle final : Shape {
  std::int32_t radius = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), radius);
  }
};

struct Root {
  std::int32_t root = 0;
  virtual ~Root() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(root);
  }
};
struct Left : virtual Root {
  std::int32_t left = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), left);
  }
};
struct Right : virtual Root {
  std::int32_t right = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), right);
  }
};
struct Join final : Left, Right {
  std::int32_t join = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Left>(*this), bifrons::base<Right>(*this), join);
  }
};

}  // namespace fx

BIFRONS_REGISTER(fx::Circle, "Circle");

namespace {

/// typeid of what p points to (clang warns about typeid of an expression that calls a function).
template <class P>
const std::type_info& dynamic_type(const P& p) {
  const auto& object = *p;
  return typeid(object);
}

TEST(FormatExamples, Section23Polymorphic) {
  constexpr std::string_view doc =
      "04"
      "02 00 01 06 43 69 72 63 6c 65 01  00 06 02 02 04"
      "02 01 00 06 02 06 0c"
      "01 02 08"
      "00";
  std::vector<std::unique_ptr<fx::Shape>> shapes;
  for (const auto& [id, radius] : {std::pair{1, 2}, std::pair{3, 6}}) {
    auto c = std::make_unique<fx::Circle>();
    c->id = id;
    c->radius = radius;
    shapes.push_back(std::move(c));
  }
  shapes.push_back(std::make_unique<fx::Shape>());
  shapes.back()->id = 4;
  shapes.push_back(nullptr);
  EXPECT_EQ(to_hex(bifrons::to_bytes(shapes)), to_hex(hex(doc)));
  EXPECT_EQ(bifrons::serialized_size(shapes), hex(doc).size());
  const auto back = bifrons::from_bytes<std::vector<std::unique_ptr<fx::Shape>>>(hex(doc));
  ASSERT_EQ(back.size(), 4u);
  const auto* second = dynamic_cast<const fx::Circle*>(back[1].get());
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->id, 3);
  EXPECT_EQ(second->radius, 6);
  EXPECT_EQ(dynamic_type(back[2]), typeid(fx::Shape));
  EXPECT_EQ(back[3], nullptr);

  fx::Join j;
  j.root = 1;
  j.left = 2;
  j.right = 3;
  j.join = 4;
  EXPECT_EQ(to_hex(bifrons::to_bytes(j)), to_hex(hex("0e 06 02 02 04 02 06 08")));
  const auto join = bifrons::from_bytes<fx::Join>(hex("0e 06 02 02 04 02 06 08"));
  EXPECT_EQ(join.root, 1);
  EXPECT_EQ(join.right, 3);

  using bifrons::errc;
  // An unregistered name, a name list of none, a type index past the list.
  expect_error<std::unique_ptr<fx::Shape>>("02 00 01 01 58 01 00 00", errc::unknown_type, 0);
  expect_error<std::unique_ptr<fx::Shape>>("02 00 00 01 00", errc::invalid_value, 2);
  expect_error<std::unique_ptr<fx::Shape>>("02 02 00 00", errc::invalid_value, 1);
}

}  // namespace

// ---- sections 1, 6, 12, 22, 26, 31 and 34: canonical bytes, leniencies and errors --------------

namespace {

using bifrons::errc;

/// Strict reading (read_options::canonical_only).
constexpr bifrons::read_options strict{.canonical_only = true};

/// `bytes` read as T leniently give `value`, whose encoding is `canonical`; a strict read refuses
/// `bytes` with non_canonical at `offset` and accepts `canonical`.
template <class T>
void expect_lenient(std::string_view bytes, const T& value, std::string_view canonical, std::size_t offset) {
  SCOPED_TRACE(testing::Message() << "lenient " << bytes);
  expect_decodes(bytes, value);
  EXPECT_EQ(to_hex(bifrons::to_bytes(bifrons::from_bytes<T>(hex(bytes)))), to_hex(hex(canonical)));
  const auto refused = bifrons::try_from_bytes<T>(hex(bytes), strict);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.code(), errc::non_canonical);
  EXPECT_EQ(refused.offset(), offset);
  EXPECT_EQ(refused.bytes_missing(), 0u);
  const auto accepted = bifrons::try_from_bytes<T>(hex(canonical), strict);
  ASSERT_TRUE(accepted) << bifrons::describe(accepted.code()) << " at byte " << accepted.offset();
  EXPECT_TRUE(same(*accepted, value));
}

TEST(FormatExamples, Section01ReaderLeniencies) {
  // Sets and maps in any order.
  expect_lenient("02 04 02", std::set<std::int32_t>{1, 2}, "02 02 04", 1);
  expect_lenient("02 80 61", std::set<char>{'a', '\x80'}, "02 61 80", 1);
  // Bytes a struct's fields do not use (a newer writer's appended fields), skipped unexamined.
  expect_lenient("08 02 04 ff ff", PointV1{1, 2}, "04 02 04", 0);
  // Missing trailing fields (an older writer), at their defaults.
  expect_lenient("02 02", PointV1{1, 0}, "04 02 00", 0);
  // A class version on a class without one, read and ignored.
  expect_lenient("07 07 02 04", PointV1{1, 2}, "04 02 04", 0);
  // Another class version than the reader's (its hook converts): written back with its own.
  expect_lenient("07 01 d8 04", Reading{300000}, "09 02 c0 cf 24", 0);
  // Anything inside deprecated<T>: "hi" is read and discarded, an empty string written back.
  expect_lenient("0a 0a 02 68 69 06", ItemV2{5, {}, 3}, "06 0a 00 06", 0);
}

/// A versioned class whose hook records the version of the data it reads.
struct Seen {
  static constexpr std::uint32_t bifrons_version = 3;
  std::int32_t x = 5;
  std::uint32_t version_read = 99;  // not serialized
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    ar(x);
    if constexpr (Ar::is_loading) version_read = version;
  }
};
struct HolderV1 {
  Seen seen;
  std::int32_t tail = 0;
};
struct HolderV2 {
  bifrons::deprecated<Seen> seen;
  std::int32_t tail = 0;
};

TEST(FormatExamples, Section06TheEmptyEnvelopeOfARetiredVersionedStructHasNoVersion) {
  // Every envelope a writer writes for Seen carries its version: body 03 0e, header (2 << 1) | 1.
  EXPECT_EQ(to_hex(bifrons::to_bytes(Seen{7})), "05 03 0e");
  // deprecated<Seen> writes the empty envelope 00: no fields, no version.
  EXPECT_EQ(to_hex(bifrons::to_bytes(HolderV2{{}, 1})), "04 00 02");
  // An old reader sees every field of Seen missing and version 0, as for data from before Seen had
  // versions: x keeps its member initializer.
  const auto old = bifrons::from_bytes<HolderV1>(hex("04 00 02"));
  EXPECT_EQ(old.seen.x, 5);
  EXPECT_EQ(old.seen.version_read, 0u);
  EXPECT_EQ(old.tail, 1);
}

TEST(FormatExamples, Section12EqualKeysAreOneKey) {
  // -0.0 and 0.0 are different values with different bytes ...
  expect_example(std::set<double>{-0.0}, "01 00 00 00 00 00 00 00 80");
  expect_example(std::set<double>{0.0}, "01 00 00 00 00 00 00 00 00");
  // ... but one key of a set: the second is a duplicate, found after it is read (at its offset).
  expect_error<std::set<double>>("02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80", errc::duplicate_key, 9);
}

struct Balance {
  std::string currency;
  double amount = 0;
};

struct HeroV1 {
  std::int32_t hp = 0;
  std::int32_t mana = 50;
  std::int32_t level = 0;
};
struct HeroV2 {
  std::int32_t hp = 0;
  bifrons::deprecated<std::int32_t> mana;
  std::int32_t level = 0;
};

TEST(FormatExamples, Section22WhatDeprecatedWrites) {
  using bifrons::deprecated;
  // A struct: the empty envelope. Anything else: T{} as any writer writes it, structs inside it in
  // full (Balance{} is 12 00 and eight zero bytes: 10 bytes).
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<Balance>{})), "00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::array<Balance, 2>>{})),
            "12 00 00 00 00 00 00 00 00 00 12 00 00 00 00 00 00 00 00 00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::pair<Balance, std::int32_t>>{})),
            "12 00 00 00 00 00 00 00 00 00 00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::variant<Balance, std::int32_t>>{})),
            "00 12 00 00 00 00 00 00 00 00 00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::optional<Balance>>{})), "00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::vector<Balance>>{})), "00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::int32_t>{})), "00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<double>{})), "00 00 00 00 00 00 00 00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::bitset<10>>{})), "00 00");
  EXPECT_EQ(to_hex(bifrons::to_bytes(deprecated<std::tuple<>>{})), "");

  // An old reader reads what deprecated<T> wrote, T{}: mana is 0, not its member initializer 50.
  EXPECT_EQ(to_hex(bifrons::to_bytes(HeroV2{10, {}, 3})), "06 14 00 06");
  const auto old = bifrons::from_bytes<HeroV1>(hex("06 14 00 06"));
  EXPECT_EQ(old.hp, 10);
  EXPECT_EQ(old.mana, 0);
  EXPECT_EQ(old.level, 3);
  // A field missing from the data (a short envelope) is what keeps its initializer.
  EXPECT_EQ(bifrons::from_bytes<HeroV1>(hex("02 14")).mana, 50);
}

TEST(FormatExamples, Section26ErrorPrecedenceAndOffsets) {
  // The first error ends the read. An element's own errors come before duplicate_key, which is
  // found once the whole element (key and value) is read, and reported at the element.
  expect_error<std::map<std::int32_t, std::string>>("02 02 00 02 05 61", errc::count_exceeds_input, 4, 4);
  expect_error<std::map<std::int32_t, std::string>>("02 02 00 02 00", errc::duplicate_key, 3);
  // Checks on a count, in order, all at the count: max_elements, then the bytes left, then the
  // budget.
  const auto limited = [](std::string_view bytes, bifrons::read_options options) {
    const auto r = bifrons::try_from_bytes<std::vector<std::int32_t>>(hex(bytes), options);
    return std::tuple(r.code(), r.offset(), r.bytes_missing());
  };
  EXPECT_EQ(limited("05 00", {.max_alloc_bytes = 1, .max_elements = 4}),
            std::tuple(errc::element_limit_exceeded, std::size_t{0}, std::size_t{0}));
  EXPECT_EQ(limited("05 00", {.max_alloc_bytes = 1}),
            std::tuple(errc::count_exceeds_input, std::size_t{0}, std::size_t{19}));
  EXPECT_EQ(limited("02 00 00 00 00 00 00 00 00", {.max_alloc_bytes = 7}),
            std::tuple(errc::allocation_limit_exceeded, std::size_t{0}, std::size_t{0}));
  // An invalid element of an arithmetic block is reported at that element.
  expect_error<std::array<bool, 3>>("01 00 02", errc::invalid_value, 2);
  expect_error<std::vector<std::int8_t>>("03 00 01", errc::count_exceeds_input, 0, 1);
  // unexpected_end: where the input (or the enclosing body) ends, with the bytes missing.
  expect_error<std::string>("", errc::unexpected_end, 0, 1);
  expect_error<double>("00 00 00", errc::unexpected_end, 3, 5);
  expect_error<std::pair<PointV1, std::int32_t>>("04 02", errc::unexpected_end, 2, 1);
  expect_error<PointV1>("04 02 80", errc::unexpected_end, 3, 1);
}

TEST(FormatExamples, Section27TheBudgetCountsHostSizeofs) {
  // Four empty strings (05 would be five): charged sizeof(std::string) each, which is 32 with
  // libstdc++ on 64-bit hosts and 24 on 32-bit ones: whether a read fits depends on the host.
  const auto read = [](std::size_t budget) {
    return bifrons::try_from_bytes<std::vector<std::string>>(hex("04 00 00 00 00"), {.max_alloc_bytes = budget});
  };
  EXPECT_TRUE(read(4 * sizeof(std::string)));
  const auto refused = read(4 * sizeof(std::string) - 1);
  EXPECT_EQ(refused.code(), errc::allocation_limit_exceeded);
  EXPECT_EQ(refused.offset(), 0u);
}

TEST(FormatExamples, Section31MinimumEncodedSizes) {
  // A count of 4 with no bytes after it: count_exceeds_input, with 4 x the element's minimum size
  // missing (tuple<T> is encoded as T, one element after another, never as a block).
  const auto missing = []<class T>(std::type_identity<T>) {
    const auto r = bifrons::try_from_bytes<std::vector<std::tuple<T>>>(hex("04"));
    EXPECT_EQ(r.code(), errc::count_exceeds_input);
    return r.bytes_missing() / 4;
  };
  EXPECT_EQ(missing(std::type_identity<bool>{}), 1u);
  EXPECT_EQ(missing(std::type_identity<char>{}), 1u);
  EXPECT_EQ(missing(std::type_identity<std::byte>{}), 1u);
  EXPECT_EQ(missing(std::type_identity<std::int64_t>{}), 1u);
  EXPECT_EQ(missing(std::type_identity<Side>{}), 1u);
  EXPECT_EQ(missing(std::type_identity<float>{}), 4u);
  EXPECT_EQ(missing(std::type_identity<double>{}), 8u);
  EXPECT_EQ(missing(std::type_identity<std::string>{}), 1u);
  EXPECT_EQ(missing(std::type_identity<std::vector<double>>{}), 1u);
  EXPECT_EQ((missing(std::type_identity<std::map<std::int32_t, double>>{})), 1u);
  EXPECT_EQ(missing(std::type_identity<std::array<std::int16_t, 3>>{}), 6u);  // a block of 3 x 2
  EXPECT_EQ((missing(std::type_identity<std::array<std::string, 3>>{})), 3u);
  EXPECT_EQ(missing(std::type_identity<std::bitset<10>>{}), 2u);
  EXPECT_EQ((missing(std::type_identity<std::pair<std::int32_t, double>>{})), 9u);
  EXPECT_EQ(missing(std::type_identity<std::optional<double>>{}), 1u);
  EXPECT_EQ((missing(std::type_identity<std::variant<double, std::int32_t>>{})), 1u);
  EXPECT_EQ(missing(std::type_identity<std::complex<double>>{}), 16u);
  EXPECT_EQ(missing(std::type_identity<std::unique_ptr<double>>{}), 1u);
  EXPECT_EQ(missing(std::type_identity<PointV1>{}), 1u);  // the empty envelope
  EXPECT_EQ(missing(std::type_identity<bifrons::deprecated<double>>{}), 8u);
  // Types of zero bytes skip the check: four of them take no input.
  EXPECT_EQ(bifrons::from_bytes<std::vector<std::monostate>>(hex("04")).size(), 4u);
  EXPECT_EQ((bifrons::from_bytes<std::vector<std::tuple<>>>(hex("04")).size()), 4u);
  EXPECT_EQ((bifrons::from_bytes<std::vector<std::array<double, 0>>>(hex("04")).size()), 4u);
}

TEST(FormatExamples, Section34StrictReading) {
  // Canonical bytes read the same, strict or not.
  const Account account{7, "Ann", {500, 10000}, {{1, "AB", 2.5}}};
  const auto bytes = bifrons::to_bytes(account);
  const auto strict_read = bifrons::try_from_bytes<Account>(bytes, strict);
  ASSERT_TRUE(strict_read);
  EXPECT_EQ(*strict_read, account);
  // The throwing forms and reading into an existing object refuse the same.
  try {
    (void)bifrons::from_bytes<PointV1>(hex("02 02"), strict);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::non_canonical);
    EXPECT_EQ(e.offset(), 0u);
    EXPECT_STREQ(e.what(), "bifrons: not the canonical encoding of the value read at byte 0");
  }
  PointV1 existing{9, 9};
  try {
    bifrons::from_bytes(hex("02 04"), existing, strict);  // y missing: written back as 04 04 00
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::non_canonical);
  }
  // The offset is the first byte that differs from the canonical encoding.
  expect_lenient("01 02 02", std::vector<PointV1>{{1, 0}}, "01 04 02 00", 1);
  // Other errors come first: strict reading only judges a value that was read.
  const auto truncated = bifrons::try_from_bytes<PointV1>(hex("04 02"), strict);
  EXPECT_EQ(truncated.code(), errc::unexpected_end);
  EXPECT_EQ(truncated.offset(), 2u);
}

}  // namespace

// ---- section 29: minimal types ------------------------------------------------------------------

namespace {

struct UserId {
  std::uint64_t v = 0;
  template <class Archive>
  std::uint64_t save_minimal(const Archive&) const {
    return v;
  }
  template <class Archive>
  void load_minimal(const Archive&, const std::uint64_t& value) {
    v = value;
  }
  friend bool operator==(const UserId&, const UserId&) = default;
};
struct Label {
  std::string text;
  template <class Archive>
  std::string save_minimal(const Archive&) const {
    return text;
  }
  template <class Archive>
  void load_minimal(const Archive& ar, const std::string& value) {
    if (value.empty()) ar.fail(bifrons::errc::invalid_value);
    text = value;
  }
  friend bool operator==(const Label&, const Label&) = default;
};
struct Login {
  UserId user;
  Label label;
  std::int32_t tries = 0;
  friend bool operator==(const Login&, const Login&) = default;
};

TEST(FormatExamples, Section29MinimalTypes) {
  expect_example(UserId{300}, "ac 02");
  expect_example(Label{"ab"}, "02 61 62");
  expect_example(Login{{1}, {"ab"}, -1}, "0a 01 02 61 62 01");
  expect_example(std::vector<UserId>{{1}, {300}}, "02 01 ac 02");
  expect_example(std::filesystem::path("a/b"), "03 61 2f 62");
  expect_example(std::filesystem::path(u8"\u00e9"), "02 c3 a9");
  // An atomic: the bytes of its T (serialized_size counts the widest T instead).
  EXPECT_EQ(to_hex(bifrons::to_bytes(std::atomic<std::int32_t>(-2))), "03");
  std::atomic<std::int32_t> atomic{0};
  bifrons::from_bytes(hex("03"), atomic);
  EXPECT_EQ(atomic.load(), -2);
  EXPECT_EQ(to_hex(bifrons::to_bytes(std::valarray<std::int16_t>{1, -1})), "02 01 00 ff ff");
  const auto valarray = bifrons::from_bytes<std::valarray<std::int16_t>>(hex("02 01 00 ff ff"));
  ASSERT_EQ(valarray.size(), 2u);
  EXPECT_EQ(valarray[1], -1);
  expect_decodes("08 01 02 61 62", Login{{1}, {"ab"}, 0});

  using bifrons::errc;
  expect_error<Label>("00", errc::invalid_value, 1);
  expect_error<Label>("03 61 62", errc::count_exceeds_input, 0, 1);
  expect_error<UserId>("80", errc::unexpected_end, 1, 1);
}

}  // namespace
