// The varints of detail/encoding.hpp through the public API, at every length: the writer's bytes
// against a byte-at-a-time reference, and the reader's values and errors, through the three paths
// a varint can take (a value alone, a field of a struct read without bounds checks, and a field of
// a struct read with them), also where the input ends right after the varint.
#include <bifrons/bifrons.hpp>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using bifrons::errc;

std::vector<std::byte> reference_varint(std::uint64_t v) {
  std::vector<std::byte> out;
  do {
    const auto group = static_cast<std::uint8_t>(v & 0x7f);
    v >>= 7;
    out.push_back(static_cast<std::byte>(v != 0 ? group | 0x80 : group));
  } while (v != 0);
  return out;
}

// Every bit width, at its lowest, its highest and random values between.
std::vector<std::uint64_t> values_of_every_width() {
  std::vector<std::uint64_t> values{0};
  std::mt19937_64 rng(64);
  for (unsigned width = 1; width <= 64; ++width) {
    const std::uint64_t low = std::uint64_t{1} << (width - 1);
    const std::uint64_t high = width == 64 ? std::numeric_limits<std::uint64_t>::max() : (low << 1) - 1;
    values.push_back(low);
    values.push_back(high);
    for (int k = 0; k < 4; ++k) values.push_back(low | (rng() & (high - low)));
  }
  return values;
}

// Fields of a fixed width only: read by the unchecked reader when the input has room.
struct Scalars {
  std::uint64_t a = 0;
  std::uint32_t b = 0;
  std::int64_t c = 0;
  friend bool operator==(const Scalars&, const Scalars&) = default;
};
// A string among them: read by the checked reader.
struct WithString {
  std::uint64_t a = 0;
  std::string s;
  friend bool operator==(const WithString&, const WithString&) = default;
};

TEST(Varint, BytesMatchTheReferenceAtEveryWidth) {
  for (const std::uint64_t v : values_of_every_width()) {
    SCOPED_TRACE(testing::Message() << "value " << v);
    EXPECT_EQ(bifrons::to_bytes(v), reference_varint(v));
    EXPECT_EQ(bifrons::serialized_size(v), reference_varint(v).size());
    EXPECT_EQ(bifrons::from_bytes<std::uint64_t>(reference_varint(v)), v);
    const auto signed_value = static_cast<std::int64_t>(v);
    EXPECT_EQ(bifrons::from_bytes<std::int64_t>(bifrons::to_bytes(signed_value)), signed_value);
  }
}

TEST(Varint, FieldsOfEveryWidthRoundTripThroughBothStructReaders) {
  const std::vector<std::uint64_t> values = values_of_every_width();
  std::vector<Scalars> scalars;
  std::vector<WithString> with_string;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint64_t v = values[i];
    scalars.push_back({v, static_cast<std::uint32_t>(v >> 32), static_cast<std::int64_t>(~v)});
    with_string.push_back({v, std::string(i % 3, 'x')});
    // Alone: the last field's varint ends the input (the reader's ten-byte check fails there).
    EXPECT_EQ(bifrons::from_bytes<Scalars>(bifrons::to_bytes(scalars.back())), scalars.back());
    EXPECT_EQ(bifrons::from_bytes<WithString>(bifrons::to_bytes(with_string.back())), with_string.back());
  }
  EXPECT_EQ(bifrons::from_bytes<std::vector<Scalars>>(bifrons::to_bytes(scalars)), scalars);
  EXPECT_EQ(bifrons::from_bytes<std::vector<WithString>>(bifrons::to_bytes(with_string)), with_string);
}

std::vector<std::byte> bytes(std::initializer_list<int> list) {
  std::vector<std::byte> out;
  for (const int b : list) out.push_back(static_cast<std::byte>(b));
  return out;
}

// The nine- and ten-byte spellings that are not varints of a 64-bit value: a ninth byte of 0 (a
// second spelling of an eight-byte varint), a tenth of 0, of 2 and above (past 64 bits), and one
// that continues.
const std::vector<std::vector<std::byte>>& malformed_long_varints() {
  static const std::vector<std::vector<std::byte>> all = {
      bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}),
      bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00}),
      bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}),
      bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}),
      bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00}),
  };
  return all;
}

TEST(Varint, MalformedLongVarintsFailAtTheirFirstByteWherePadded) {
  for (const auto& varint : malformed_long_varints()) {
    // Alone, then with bytes after it (the reader then has ten bytes to look at), then as the
    // first field of each struct, with the rest of the struct after it.
    for (const std::size_t padding : {std::size_t{0}, std::size_t{4}}) {
      std::vector<std::byte> in = varint;
      in.resize(in.size() + padding);
      SCOPED_TRACE(testing::Message() << "varint of " << varint.size() << " bytes, padding " << padding);
      const auto alone = bifrons::try_from_bytes<std::uint64_t>(in);
      ASSERT_FALSE(alone);
      EXPECT_EQ(alone.code(), errc::malformed_varint);
      EXPECT_EQ(alone.offset(), 0u);
    }
    // In a struct: a, then b and c of Scalars (or the empty s of WithString). Without room
    // after the struct its fields are read with bounds checks; with 64 bytes after it, Scalars is
    // read by the unchecked reader first. Either way the error is the varint's, at its first byte.
    for (const std::size_t padding : {std::size_t{0}, std::size_t{64}}) {
      SCOPED_TRACE(testing::Message() << "in a struct, varint of " << varint.size() << " bytes, padding " << padding);
      const auto in_struct = [&](std::size_t other_fields) {
        std::vector<std::byte> in{static_cast<std::byte>((varint.size() + other_fields) << 1)};
        in.insert(in.end(), varint.begin(), varint.end());
        in.resize(in.size() + other_fields + padding);
        return in;
      };
      const auto scalars = bifrons::try_from_bytes<Scalars>(in_struct(2));
      ASSERT_FALSE(scalars);
      EXPECT_EQ(scalars.code(), errc::malformed_varint);
      EXPECT_EQ(scalars.offset(), 1u);
      const auto with_string = bifrons::try_from_bytes<WithString>(in_struct(1));
      ASSERT_FALSE(with_string);
      EXPECT_EQ(with_string.code(), errc::malformed_varint);
      EXPECT_EQ(with_string.offset(), 1u);
    }
  }
}

TEST(Varint, LongVarintsCutShortReportTheMissingBytes) {
  const std::vector<std::byte> whole = bifrons::to_bytes(std::numeric_limits<std::uint64_t>::max());
  ASSERT_EQ(whole.size(), 10u);
  for (std::size_t cut = 1; cut < whole.size(); ++cut) {
    const auto result = bifrons::try_from_bytes<std::uint64_t>(std::span(whole).first(cut));
    ASSERT_FALSE(result);
    EXPECT_EQ(result.code(), errc::unexpected_end) << cut;
    EXPECT_EQ(result.offset(), cut);
  }
}

TEST(Varint, A32BitFieldRefusesANineByteValue) {
  // Canonical, but above 2^32: out of range for the field, whichever reader meets it.
  const std::vector<std::byte> nine = reference_varint(std::uint64_t{1} << 56);
  ASSERT_EQ(nine.size(), 9u);
  const auto alone = bifrons::try_from_bytes<std::uint32_t>(nine);
  ASSERT_FALSE(alone);
  EXPECT_EQ(alone.code(), errc::value_out_of_range);
  EXPECT_EQ(alone.offset(), 0u);
}

}  // namespace
