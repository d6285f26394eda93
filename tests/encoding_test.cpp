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

// ---- review: 64-bit fields of every kind (integers and enums with a 64-bit underlying type),
// with long spellings in every position of a struct, read by both struct readers and checked
// against a byte-at-a-time reference; inputs cut at every length (AddressSanitizer catches a read
// past them); values written into buffers of exactly their size.

enum class SignedWide : std::int64_t {};
enum class UnsignedWide : std::uint64_t {};

struct Wide {
  std::uint64_t a = 0;
  SignedWide e{};
  std::uint32_t b = 0;
  UnsignedWide u{};
  std::int64_t c = 0;
  friend bool operator==(const Wide&, const Wide&) = default;
};
// Wide nested before more bytes: with them, Wide's fields are read by the unchecked reader first.
struct WideThenTail {
  Wide wide;
  std::vector<std::byte> tail;
};

// A varint's value, or why it is not one, read byte by byte as the format defines it.
struct reference_read {
  enum { ok, cut, malformed } outcome;
  std::uint64_t value;
  std::size_t end;
};
reference_read reference_decode(const std::vector<std::byte>& in, std::size_t at, std::size_t limit) {
  std::uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (at == limit) return {reference_read::cut, 0, at};
    const auto b = static_cast<std::uint8_t>(in[at++]);
    if (shift == 63 && b > 1) return {reference_read::malformed, 0, at};
    value |= std::uint64_t{b & 0x7fu} << shift;
    if (b < 0x80) {
      if (b == 0 && shift != 0) return {reference_read::malformed, 0, at};
      return {reference_read::ok, value, at};
    }
  }
}

// What reading a Wide whose body is `body` gives, by the reference: its fields, or the code of
// the first error and the offset in body of the field at fault (unexpected_end: no offset).
struct reference_wide {
  errc code = errc::ok;
  std::size_t offset = 0;
  Wide value;
};
reference_wide reference_wide_read(const std::vector<std::byte>& body) {
  reference_wide out;
  std::uint64_t raw[5] = {};
  std::size_t at = 0;
  for (int field = 0; field < 5 && at < body.size(); ++field) {
    const reference_read r = reference_decode(body, at, body.size());
    if (r.outcome != reference_read::ok) {
      out.code = r.outcome == reference_read::cut ? errc::unexpected_end : errc::malformed_varint;
      out.offset = at;
      return out;
    }
    if (field == 2 && r.value > 0xffffffffu) {
      out.code = errc::value_out_of_range;
      out.offset = at;
      return out;
    }
    raw[field] = r.value;
    at = r.end;
  }
  const auto unzig = [](std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  };
  out.value = {raw[0], SignedWide{unzig(raw[1])}, static_cast<std::uint32_t>(raw[2]), UnsignedWide{raw[3]},
               unzig(raw[4])};
  return out;
}

void append(std::vector<std::byte>& out, const std::vector<std::byte>& more) {
  out.insert(out.end(), more.begin(), more.end());
}

// A piece of a body: a varint of random width, or a spelling of 8 to 11 bytes whose first eight
// bytes all continue, or a few bytes that continue (a varint the body's end cuts).
std::vector<std::byte> random_piece(std::mt19937_64& rng) {
  std::vector<std::byte> out;
  const auto pick = [&](std::initializer_list<int> choices) {
    return static_cast<std::byte>(*(choices.begin() + static_cast<std::ptrdiff_t>(rng() % choices.size())));
  };
  switch (rng() % 4) {
    case 0: {
      const unsigned width = 1 + static_cast<unsigned>(rng() % 64);
      const std::uint64_t v = width == 64 ? rng() | (std::uint64_t{1} << 63)
                                          : (rng() >> (64 - width)) | (std::uint64_t{1} << (width - 1));
      return reference_varint(v);
    }
    case 1:
    case 2: {
      for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>(0x80 | (rng() & 0x7f)));
      if (rng() % 4 == 0) std::fill(out.begin(), out.end(), pick({0x80, 0xff}));
      out.push_back(pick({0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff, static_cast<int>(rng() & 0xff)}));
      if (static_cast<std::uint8_t>(out.back()) >= 0x80)
        out.push_back(pick({0x00, 0x01, 0x02, 0x7f, 0x80, 0x81, static_cast<int>(rng() & 0xff)}));
      if (static_cast<std::uint8_t>(out.back()) >= 0x80 && out.size() == 10)
        out.push_back(static_cast<std::byte>(rng() & 0xff));
      return out;
    }
    default: {
      const auto n = static_cast<std::size_t>(1 + rng() % 9);
      for (std::size_t i = 0; i < n; ++i) out.push_back(static_cast<std::byte>(0x80 | (rng() & 0x7f)));
      return out;
    }
  }
}

TEST(Varint, LongSpellingsInEveryFieldReadAsTheReferenceByBothStructReaders) {
  std::mt19937_64 rng(2026);
  int unchecked_accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    std::vector<std::byte> body;
    const auto pieces = static_cast<std::size_t>(rng() % 6);
    for (std::size_t i = 0; i < pieces; ++i) append(body, random_piece(rng));
    SCOPED_TRACE(testing::Message() << "round " << round << ", body of " << body.size() << " bytes");
    const reference_wide expected = reference_wide_read(body);

    // Unversioned (the unchecked reader first, where 64 bytes follow) and versioned (the checked
    // reader alone: a version byte 0 before the fields).
    for (const bool versioned : {false, true}) {
      SCOPED_TRACE(versioned ? "versioned" : "unversioned");
      std::vector<std::byte> wide = reference_varint(((body.size() + (versioned ? 1 : 0)) << 1) | (versioned ? 1 : 0));
      if (versioned) wide.push_back(std::byte{0});
      const std::size_t fields_at = wide.size();
      append(wide, body);

      std::vector<std::byte> with_tail = wide;
      append(with_tail, reference_varint(64));
      with_tail.resize(with_tail.size() + 64, std::byte{0x5a});
      std::vector<std::byte> outer = reference_varint(with_tail.size() << 1);
      const std::size_t outer_header = outer.size();
      append(outer, with_tail);

      const auto alone = bifrons::try_from_bytes<Wide>(wide);
      const auto nested = bifrons::try_from_bytes<WideThenTail>(outer);
      if (expected.code == errc::ok) {
        ASSERT_TRUE(alone) << alone.message();
        EXPECT_EQ(*alone, expected.value);
        ASSERT_TRUE(nested) << nested.message();
        EXPECT_EQ(nested->wide, expected.value);
        if (!versioned) ++unchecked_accepted;
      } else {
        ASSERT_FALSE(alone);
        EXPECT_EQ(alone.code(), expected.code) << alone.message();
        ASSERT_FALSE(nested);
        EXPECT_EQ(nested.code(), expected.code) << nested.message();
        if (expected.code != errc::unexpected_end) {
          EXPECT_EQ(alone.offset(), fields_at + expected.offset);
          EXPECT_EQ(nested.offset(), outer_header + fields_at + expected.offset);
        }
      }
    }
  }
  // The rounds reached the unchecked reader's success path, not only its fallback.
  EXPECT_GT(unchecked_accepted, 1000);
}

TEST(Varint, StructsOfWideFieldsCutAtEveryLengthFailWithoutReadingPastTheInput) {
  std::mt19937_64 rng(7);
  const std::vector<std::uint64_t> values = values_of_every_width();
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint64_t v = values[i];
    const WideThenTail whole{{v, SignedWide{static_cast<std::int64_t>(~v)}, static_cast<std::uint32_t>(v >> 20),
                              UnsignedWide{values[values.size() - 1 - i]}, static_cast<std::int64_t>(v)},
                             std::vector<std::byte>(i % 70, std::byte{1})};
    const std::vector<std::byte> encoded = bifrons::to_bytes(whole);
    for (std::size_t cut = 0; cut < encoded.size(); ++cut) {
      // A copy of exactly `cut` bytes: a read past it is a heap overflow.
      const std::vector<std::byte> prefix(encoded.begin(), encoded.begin() + static_cast<std::ptrdiff_t>(cut));
      const auto result = bifrons::try_from_bytes<WideThenTail>(prefix);
      ASSERT_FALSE(result) << "value " << v << ", cut at " << cut;
      EXPECT_EQ(result.code(), errc::unexpected_end) << result.message();
    }
    const auto read = bifrons::try_from_bytes<WideThenTail>(encoded);
    ASSERT_TRUE(read) << read.message();
    EXPECT_EQ(read->wide, whole.wide);
  }
}

// Written into heap buffers of exactly its size, then one byte short: a store past them is an
// overflow.
template <class T>
void expect_written_exactly(const T& value) {
  const std::vector<std::byte> written = bifrons::to_bytes(value);
  std::vector<std::byte> exact(written.size(), std::byte{0xee});
  const auto used = bifrons::try_to_bytes(value, std::span(exact));
  ASSERT_TRUE(used) << used.message();
  EXPECT_EQ(*used, written.size());
  EXPECT_EQ(exact, written);
  std::vector<std::byte> short_by_one(written.size() - 1);
  const auto refused = bifrons::try_to_bytes(value, std::span(short_by_one));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.code(), errc::buffer_too_small);
}

std::uint64_t zigzag_reference(std::int64_t v) {
  return static_cast<std::uint64_t>(v) << 1 ^ static_cast<std::uint64_t>(v >> 63);
}

TEST(Varint, WideFieldsWrittenIntoBuffersOfExactlyTheirSize) {
  for (const std::uint64_t v : values_of_every_width()) {
    SCOPED_TRACE(testing::Message() << "value " << v);
    const auto s = static_cast<std::int64_t>(v);
    const Wide wide{v, SignedWide{s}, static_cast<std::uint32_t>(v), UnsignedWide{v}, ~s};
    expect_written_exactly(v);
    expect_written_exactly(s);
    expect_written_exactly(SignedWide{s});
    expect_written_exactly(wide);
    // The writer's bytes of each field are the reference's.
    std::vector<std::byte> fields;
    append(fields, reference_varint(v));
    append(fields, reference_varint(zigzag_reference(s)));
    append(fields, reference_varint(static_cast<std::uint32_t>(v)));
    append(fields, reference_varint(v));
    append(fields, reference_varint(zigzag_reference(~s)));
    std::vector<std::byte> expected = reference_varint(fields.size() << 1);
    append(expected, fields);
    EXPECT_EQ(bifrons::to_bytes(wide), expected);
  }
}
