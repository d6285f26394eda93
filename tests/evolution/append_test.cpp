// Appending fields, on hand-computed bytes: an old reader gets the fields it knows and skips the
// rest (rule 1), a new reader keeps the defaults of the fields the data lacks (rule 2), also for
// bodies that need 1-, 2-, 3- and 4-byte envelope headers. hooks_test.cpp runs the same rules
// for every hook style and every pair of releases.

#include "evolution_support.hpp"

namespace evo {

using bifrons::errc;

// ---- the same rules on hand-computed bytes --------------------------------------------------------

// Data1{42, "x"}: body = zigzag(42) = 84 = 0x54, then "x" = 01 78: 3 bytes, header 3 << 1 = 6.
const std::vector<std::byte> data1_bytes = bytes_of({0x06, 0x54, 0x01, 0x78});

// Data2{42, "x", {1, 2, 3}, blue}: the Data1 body, then the int32 vector as count 3 and one
// 12-byte little-endian block, then blue = 3 as a varint: 17 bytes, header 34 = 0x22.
const std::vector<std::byte> data2_bytes =
    bytes_of({0x22, 0x54, 0x01, 0x78, 0x03, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0x03});

TEST(AppendBytes, WritersProduceTheDocumentedEnvelopes) {
  EXPECT_EQ(bifrons::to_bytes(Data1{42, "x"}), data1_bytes);
  EXPECT_EQ(bifrons::to_bytes(Data2{42, "x", {1, 2, 3}, Color::blue}), data2_bytes);
}

TEST(AppendBytes, OldReaderGetsKnownFieldsAndSkipsAppendedOnes) {
  const auto v1 = bifrons::from_bytes<Data1>(data2_bytes);
  EXPECT_EQ(v1.id, 42);
  EXPECT_EQ(v1.name, "x");
}

TEST(AppendBytes, OldReaderSkipsAppendedBytesItCannotInterpret) {
  // A newer writer appended two bytes that are not even a valid varint: the old reader never
  // looks at them, it jumps to the envelope's end.
  const auto v1 = bifrons::from_bytes<Data1>(bytes_of({0x0A, 0x54, 0x01, 0x78, 0xFF, 0xFF}));
  EXPECT_EQ(v1.id, 42);
  EXPECT_EQ(v1.name, "x");
}

TEST(AppendBytes, NewReaderKeepsDefaultsOfMissingFields) {
  const auto v3 = bifrons::from_bytes<Data3>(data1_bytes);
  EXPECT_EQ(v3.id, 42);
  EXPECT_EQ(v3.name, "x");
  EXPECT_EQ(v3.list, (std::vector<std::int32_t>{7, 8}));
  EXPECT_EQ(v3.color, Color::green);
  EXPECT_EQ(v3.ratio, 0.25);
  EXPECT_EQ(v3.note, std::optional<std::string>("n"));
  EXPECT_EQ(v3.where.x, 3);
  EXPECT_EQ(v3.where.y, 4);
  EXPECT_EQ(v3.counts, (std::map<std::string, std::int32_t>{{"d", 1}}));
  EXPECT_EQ(v3.big, std::uint64_t{1} << 40);

  const auto from_v2 = bifrons::from_bytes<Data3>(data2_bytes);
  EXPECT_EQ(from_v2.list, (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_EQ(from_v2.color, Color::blue);
  EXPECT_EQ(from_v2.ratio, 0.25);
  EXPECT_EQ(from_v2.big, std::uint64_t{1} << 40);
}

TEST(AppendBytes, NewReaderIntoExistingObjectResetsMissingFields) {
  Data3 existing = sample<Data3>(5);
  bifrons::from_bytes(data1_bytes, existing);
  EXPECT_EQ(existing, (project<Data3>(Data1{42, "x"})));
  EXPECT_EQ(existing.list, (std::vector<std::int32_t>{7, 8}));
  EXPECT_EQ(existing.counts, (std::map<std::string, std::int32_t>{{"d", 1}}));
}

TEST(AppendBytes, EnvelopeLongerThanInputIsUnexpectedEnd) {
  // Header says 5 body bytes, 3 follow: reported where the input ends, 2 bytes short.
  auto r = bifrons::try_from_bytes<Data1>(bytes_of({0x0A, 0x54, 0x01, 0x78}));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.code(), errc::unexpected_end);
  EXPECT_EQ(r.offset(), 4u);
  EXPECT_EQ(r.bytes_missing(), 2u);
}

TEST(AppendBytes, FieldCutByTheEnvelopeEndIsAnError) {
  // A field is either whole or missing, never partial: the envelope's end bounds every field.
  // The name's count (2) needs more bytes than the 2-byte body has left (the 'x' after the
  // envelope does not count).
  auto count = bifrons::try_from_bytes<Data1>(bytes_of({0x04, 0x54, 0x02, 0x78}));
  EXPECT_FALSE(count.has_value());
  EXPECT_EQ(count.code(), errc::count_exceeds_input);
  EXPECT_EQ(count.offset(), 2u);
  EXPECT_EQ(count.bytes_missing(), 2u);
  // The envelope ends inside the count's varint (0x80 announces a second byte): reported where
  // the envelope ends.
  auto varint = bifrons::try_from_bytes<Data1>(bytes_of({0x04, 0x54, 0x80, 0x01}));
  EXPECT_FALSE(varint.has_value());
  EXPECT_EQ(varint.code(), errc::unexpected_end);
  EXPECT_EQ(varint.offset(), 3u);
  EXPECT_EQ(varint.bytes_missing(), 1u);
}

// ---- large bodies: 2-, 3- and 4-byte envelope headers ----------------------------------------

struct Big1 {
  std::string blob;
  std::int32_t tail = 5;
  EVO_FIELDS(blob, tail)
};
struct Big2 {
  std::string blob;
  std::int32_t tail = 5;
  std::string extra = "extra";
  std::int32_t last = 6;
  EVO_FIELDS(blob, tail, extra, last)
};
struct Small1 {
  std::int32_t a = 1;
  EVO_FIELDS(a)
};
struct Small2 {
  std::int32_t a = 1;
  std::string huge = "h";
  std::int32_t b = 2;
  EVO_FIELDS(a, huge, b)
};

/// Length n of a blob such that Big1{blob, tail = -3} has a body of exactly `body` bytes:
/// varint(n) + n + 1 (tail -3 zigzags to 5, one byte).
std::size_t blob_for_body(std::size_t body) {
  for (std::size_t n = body; n > 0; --n)
    if (leb128(n).size() + n + 1 == body) return n;
  ADD_FAILURE() << "no blob length gives body " << body;
  return 0;
}

class LargeBody : public ::testing::TestWithParam<std::size_t> {};

// Bodies on both sides of each header-size step: 2 * body < 2^7, 2^14, 2^21.
INSTANTIATE_TEST_SUITE_P(HeaderSteps, LargeBody,
                         ::testing::Values(std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{200},
                                           std::size_t{8191}, std::size_t{8192}, std::size_t{8193},
                                           std::size_t{(1u << 20) - 1}, std::size_t{1u << 20}));

TEST_P(LargeBody, HeaderHasTheDocumentedWidth) {
  const std::size_t body = GetParam();
  const Big1 v{std::string(blob_for_body(body), 'q'), -3};
  const auto bytes = bifrons::to_bytes(v);
  const auto header = leb128(std::uint64_t{body} << 1);
  const std::size_t expected_header_size = body < 64 ? 1 : body < 8192 ? 2 : body < (1u << 20) ? 3 : 4;
  EXPECT_EQ(header.size(), expected_header_size);
  ASSERT_EQ(bytes.size(), header.size() + body);
  EXPECT_EQ(bifrons::serialized_size(v), bytes.size());
  EXPECT_TRUE(std::equal(header.begin(), header.end(), bytes.begin()));
  EXPECT_EQ(bytes.back(), std::byte{0x05});  // tail, the last byte of the body
}

struct BigVersioned {
  static constexpr std::uint32_t bifrons_version = 4;
  std::string blob;
  std::int32_t tail = 5;
  std::string extra = "extra";
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t) {
    ar(blob, tail, extra);
  }
  EVO_FIELDS(blob, tail, extra)
};

TEST_P(LargeBody, VersionedLargeBodyBothDirections) {
  const std::size_t body = GetParam();
  // The version byte (4) joins the body, and bit 0 of the header is set; "" costs one byte.
  const BigVersioned v{std::string(blob_for_body(body - 2), 'v'), -3, ""};
  const auto bytes = bifrons::to_bytes(v);
  const auto header = leb128((std::uint64_t{body} << 1) | 1);
  ASSERT_EQ(bytes.size(), header.size() + body);
  EXPECT_TRUE(std::equal(header.begin(), header.end(), bytes.begin()));
  EXPECT_EQ(bytes[header.size()], std::byte{4});
  EXPECT_EQ(bifrons::from_bytes<Big1>(bytes), (Big1{v.blob, -3}));  // old, unversioned reader

  const auto old = bifrons::to_bytes(Big1{v.blob, -3});
  BigVersioned existing{"stale", 1, "stale"};
  bifrons::from_bytes(old, existing);
  EXPECT_EQ(existing, (BigVersioned{v.blob, -3, "extra"}));
}

TEST_P(LargeBody, NewReadsOldLargeBody) {
  const Big1 old{std::string(blob_for_body(GetParam()), 'q'), -3};
  const auto bytes = bifrons::to_bytes(old);
  const Big2 expected{old.blob, -3, "extra", 6};
  EXPECT_EQ(bifrons::from_bytes<Big2>(bytes), expected);
  Big2 existing{"stale", 9, "stale extra", 99};
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, expected);
}

TEST_P(LargeBody, OldReadsNewLargeBody) {
  const std::size_t n = blob_for_body(GetParam());
  const Big2 fresh{std::string(n, 'q'), -3, std::string(n, 'e'), 77};
  const auto bytes = bifrons::to_bytes(fresh);
  EXPECT_EQ(bifrons::from_bytes<Big1>(bytes), (Big1{fresh.blob, -3}));
}

TEST_P(LargeBody, OldReaderSkipsLargeAppendedFieldAndStaysInSync) {
  const Small2 fresh{-4, std::string(GetParam(), 'h'), 8};
  const std::vector<Small2> many{fresh, Small2{5, "short", 9}, fresh};
  std::vector<std::byte> buffer;
  bifrons::writer w(buffer);
  w(fresh, std::int32_t{-12345}, many, std::string("after"));

  Small1 one{};
  std::int32_t i = 0;
  std::vector<Small1> got{Small1{100}};
  std::string s;
  bifrons::reader r(buffer);
  r(one, i, got, s);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(one.a, -4);
  EXPECT_EQ(i, -12345);
  EXPECT_EQ(got, (std::vector<Small1>{Small1{-4}, Small1{5}, Small1{-4}}));
  EXPECT_EQ(s, "after");
}

TEST_P(LargeBody, NewReaderOfSmallOldDataKeepsLargeDefaults) {
  const auto bytes = bifrons::to_bytes(Small1{-4});
  ASSERT_EQ(bytes, bytes_of({0x02, 0x07}));
  Small2 existing{0, std::string(GetParam(), 'x'), 0};
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, (Small2{-4, "h", 2}));
}

}  // namespace evo
