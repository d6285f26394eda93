// Records (bifrons/record.hpp): the bytes of a record alone and of blocks of records, round trips
// through every sequence and array, evolution by appending fields in both directions, and
// hostile strides and counts. The expected bytes are built by hand from docs/format.md.
#include <bifrons/record.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <forward_list>
#include <limits>
#include <list>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "types/test_support.hpp"

namespace {

using namespace bifrons_test;
using bifrons::errc;

enum class Side : std::uint8_t { buy = 1, sell = 2 };

// 12 bytes on the wire, 16 in memory (padding): loaded field by field.
struct Tick {
  std::int32_t id = 0;
  double price = 0;
  friend bool operator==(const Tick&, const Tick&) = default;
};

// Memory layout equals wire layout on little-endian hosts: blocks of them are one memcpy.
struct Pixel {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Pixel&, const Pixel&) = default;
};

struct Wide {
  std::int32_t v[10] = {};
  friend bool operator==(const Wide&, const Wide&) = default;
};

// Every kind of field.
struct Mixed {
  bool flag = false;
  Side side = Side::buy;
  char symbol[4] = {};
  std::array<std::int16_t, 2> pair = {};
  long big = 0;  // 8 bytes on the wire on every host
  wchar_t unit = 0;
  float ratio = 0;
  Pixel color;  // a nested record
  std::byte tag{};
  friend bool operator==(const Mixed&, const Mixed&) = default;
};

// One type in three releases: each appends a field.
struct TickV1 {
  std::int32_t id = 0;
  friend bool operator==(const TickV1&, const TickV1&) = default;
};
struct TickV2 {
  std::int32_t id = 0;
  double price = 0;
  friend bool operator==(const TickV2&, const TickV2&) = default;
};
struct TickV3 {
  std::int32_t id = 0;
  double price = 0;
  std::uint16_t venue = 77;  // a default that is not zero
  friend bool operator==(const TickV3&, const TickV3&) = default;
};

// A struct (envelope, varints) holding records.
struct Book {
  std::string name;
  std::vector<Tick> ticks;
  Tick last;
  friend bool operator==(const Book&, const Book&) = default;
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_record<Tick> = true;
template <>
inline constexpr bool bifrons::enable_record<Pixel> = true;
template <>
inline constexpr bool bifrons::enable_record<Wide> = true;
template <>
inline constexpr bool bifrons::enable_record<Mixed> = true;
template <>
inline constexpr bool bifrons::enable_record<TickV1> = true;
template <>
inline constexpr bool bifrons::enable_record<TickV2> = true;
template <>
inline constexpr bool bifrons::enable_record<TickV3> = true;

namespace {

constexpr bool little = std::endian::native == std::endian::little;

bytes tick_bytes(std::int32_t id, double price) {
  bytes out;
  put_le(out, static_cast<std::uint32_t>(id), 4);
  put_le(out, std::bit_cast<std::uint64_t>(price), 8);
  return out;
}

bytes mixed_bytes(const Mixed& m) {
  bytes out;
  put_le(out, m.flag ? 1 : 0, 1);
  put_le(out, static_cast<std::uint8_t>(m.side), 1);
  for (char c : m.symbol) put_le(out, static_cast<unsigned char>(c), 1);
  for (std::int16_t x : m.pair) put_le(out, static_cast<std::uint16_t>(x), 2);
  put_le(out, static_cast<std::uint64_t>(static_cast<std::int64_t>(m.big)), 8);
  put_le(out, static_cast<std::uint32_t>(m.unit), 4);
  put_le(out, std::bit_cast<std::uint32_t>(m.ratio), 4);
  put_le(out, m.color.r, 1);
  put_le(out, m.color.g, 1);
  put_le(out, m.color.b, 1);
  put_le(out, m.color.a, 1);
  put_le(out, std::to_integer<unsigned>(m.tag), 1);
  return out;
}

Mixed sample_mixed(int i) {
  Mixed m;
  m.flag = i % 2 == 1;
  m.side = i % 3 == 0 ? Side::sell : Side::buy;
  m.symbol[0] = static_cast<char>('A' + i % 26);
  m.symbol[3] = '\xE9';
  m.pair = {static_cast<std::int16_t>(-i), static_cast<std::int16_t>(i * 300)};
  m.big = -100007L * (i + 1);
  m.unit = static_cast<wchar_t>(0x20AC + i);
  m.ratio = 0.25f * static_cast<float>(i);
  m.color = Pixel{static_cast<std::uint8_t>(i), 2, 3, 4};
  m.tag = static_cast<std::byte>(0xA0 + i);
  return m;
}

// ---- layout ---------------------------------------------------------------------------------

TEST(RecordLayout, SizesAndMemcpyEligibility) {
  using bifrons::detail::record_layout;
  EXPECT_EQ(record_layout<Tick>::size, 12u);
  // 4 bytes of padding where double is 8-aligned; none on i686, where it is 4-aligned.
  EXPECT_EQ(record_layout<Tick>::memory_is_wire, little && sizeof(Tick) == 12);
  EXPECT_EQ(record_layout<Pixel>::size, 4u);
  EXPECT_TRUE(record_layout<Pixel>::memory_is_wire);  // one-byte fields have no byte order
  EXPECT_EQ(record_layout<Wide>::size, 40u);
  EXPECT_EQ(record_layout<Wide>::memory_is_wire, little);
  EXPECT_EQ(record_layout<Mixed>::size, 1u + 1 + 4 + 4 + 8 + 4 + 4 + 4 + 1);
  EXPECT_FALSE(record_layout<Mixed>::memory_is_wire);  // bool: not every byte is a value
  // Field boundaries: a stride may end after any whole field.
  EXPECT_TRUE(record_layout<Tick>::whole_fields(0));
  EXPECT_TRUE(record_layout<Tick>::whole_fields(4));
  EXPECT_FALSE(record_layout<Tick>::whole_fields(5));
  EXPECT_TRUE(record_layout<Tick>::whole_fields(12));
  EXPECT_TRUE(record_layout<Tick>::whole_fields(13));  // a newer writer's longer record
}

// ---- bytes ----------------------------------------------------------------------------------

TEST(RecordBytes, Alone) {
  // Like a struct envelope without version: varint(12 << 1), then the 12 bytes.
  EXPECT_EQ(hex_of(Tick{7, 1.5}), hex(cat({B({0x18}), tick_bytes(7, 1.5)})));
  EXPECT_EQ(bifrons::serialized_size(Tick{}), 13u);
  const Mixed m = sample_mixed(5);
  EXPECT_EQ(hex_of(m), hex(cat({varint_bytes(31 << 1), mixed_bytes(m)})));
}

TEST(RecordBytes, Block) {
  const std::vector<Tick> v{{1, 0.5}, {-2, -4.0}};
  const bytes expected = cat({B({0x02, 0x0C}), tick_bytes(1, 0.5), tick_bytes(-2, -4.0)});
  EXPECT_EQ(hex_of(v), hex(expected));
  EXPECT_EQ(bifrons::serialized_size(v), expected.size());
  // Every sequence writes the same block, so a field may change between them.
  EXPECT_EQ(hex_of(std::deque<Tick>(v.begin(), v.end())), hex(expected));
  EXPECT_EQ(hex_of(std::list<Tick>(v.begin(), v.end())), hex(expected));
  EXPECT_EQ(hex_of(std::forward_list<Tick>(v.begin(), v.end())), hex(expected));
  // An empty sequence is its count alone.
  EXPECT_EQ(hex_of(std::vector<Tick>{}), "00");
  // Fixed arrays: the stride, then the records (the count is in the type).
  const std::array<Tick, 2> a{{{1, 0.5}, {-2, -4.0}}};
  EXPECT_EQ(hex_of(a), hex(cat({B({0x0C}), tick_bytes(1, 0.5), tick_bytes(-2, -4.0)})));
  EXPECT_EQ(bifrons::serialized_size(a), 25u);
  EXPECT_EQ(hex_of(std::array<Tick, 0>{}), "");
  // A memcpy block writes the same bytes as a field-by-field one.
  std::vector<Pixel> px{{1, 2, 3, 4}, {5, 6, 7, 8}};
  EXPECT_EQ(hex_of(px), "02 04 01 02 03 04 05 06 07 08");
  // Appended to a container as the count, the stride, then the block (also for an empty one).
  std::string appended = "p";
  bifrons::to_bytes(px, appended);
  bifrons::to_bytes(std::vector<Pixel>{}, appended);
  EXPECT_EQ(hex(appended), "70 02 04 01 02 03 04 05 06 07 08 00");
  std::vector<Mixed> mixed{sample_mixed(1), sample_mixed(2)};
  EXPECT_EQ(hex_of(mixed), hex(cat({B({0x02, 31}), mixed_bytes(mixed[0]), mixed_bytes(mixed[1])})));
}

TEST(RecordBytes, InsideAStruct) {
  const Book book{"ab", {{3, 2.0}}, {4, 8.0}};
  const bytes body = cat({B({0x02, 'a', 'b', 0x01, 0x0C}), tick_bytes(3, 2.0), B({0x18}), tick_bytes(4, 8.0)});
  EXPECT_EQ(hex_of(book), hex(cat({varint_bytes(body.size() << 1), body})));
}

// ---- round trips ----------------------------------------------------------------------------

template <class C>
void expect_round_trip(const C& c) {
  EXPECT_TRUE(round_trip(c) == c);
  C reused = c;  // reading over a container that already holds the values
  read_into(c, reused);
  EXPECT_TRUE(reused == c);
}

TEST(RecordRoundTrip, EveryContainer) {
  std::vector<Mixed> mixed;
  for (int i = 0; i < 40; ++i) mixed.push_back(sample_mixed(i));
  expect_round_trip(mixed);
  expect_round_trip(std::deque<Mixed>(mixed.begin(), mixed.end()));
  expect_round_trip(std::list<Mixed>(mixed.begin(), mixed.end()));
  expect_round_trip(std::forward_list<Mixed>(mixed.begin(), mixed.end()));
  expect_round_trip(std::array<Mixed, 3>{mixed[1], mixed[2], mixed[3]});
  expect_round_trip(sample_mixed(9));
  expect_round_trip(std::optional<Tick>(Tick{1, 2}));
  expect_round_trip(std::map<int, Tick>{{1, {2, 3}}, {4, {5, 6}}});
  expect_round_trip(Book{"book", {{1, 2}, {3, 4}, {5, 6}}, {7, 8}});
}

TEST(RecordRoundTrip, MemcpyBlocksOfEverySize) {
  std::mt19937 rng(42);
  for (std::size_t n : {0u, 1u, 2u, 3u, 16u, 17u, 1000u}) {
    std::vector<Wide> v(n);
    for (Wide& w : v)
      for (std::int32_t& x : w.v) x = static_cast<std::int32_t>(rng());
    SCOPED_TRACE(n);
    expect_round_trip(v);
    // Into a vector that holds more records, and one that holds fewer.
    std::vector<Wide> longer(n + 5), shorter(n / 2);
    read_into(v, longer);
    EXPECT_TRUE(longer == v);
    read_into(v, shorter);
    EXPECT_TRUE(shorter == v);
    // From every alignment of the input: a block that is not aligned for Wide is read record by
    // record (up to 16), copied from the aligned address before it and moved into place, or,
    // where that address is before the input, read into resized storage (containers.hpp,
    // replace_with_block).
    const std::pair<std::int8_t, std::vector<Wide>> after_a_field{-1, v};
    const bytes alone = bifrons::to_bytes(v), in_struct = bifrons::to_bytes(after_a_field);
    for (std::size_t shift = 0; shift < 8; ++shift) {
      const bytes a = cat({bytes(shift), alone}), b = cat({bytes(shift), in_struct});
      EXPECT_TRUE(bifrons::from_bytes<std::vector<Wide>>(std::span(a).subspan(shift)) == v) << shift;
      EXPECT_TRUE((bifrons::from_bytes<std::pair<std::int8_t, std::vector<Wide>>>(std::span(b).subspan(shift)) ==
                   after_a_field))
          << shift;
    }
  }
}

struct Holder {
  Tick ticks[3];
  friend bool operator==(const Holder&, const Holder&) = default;
};

TEST(RecordRoundTrip, CArrayMember) { expect_round_trip(Holder{{{1, 1}, {2, 2}, {3, 3}}}); }

TEST(RecordView, SpanOfRecordsIsAViewWhenLayoutAndAlignmentAllow) {
  const std::vector<Wide> v{{{1, 2, 3}}, {{-4, 5}}};
  const bytes b = bifrons::to_bytes(v);  // count, stride 40, then the block at offset 2
  alignas(16) std::byte storage[128] = {};
  for (std::size_t shift : {2u, 3u}) {
    std::memcpy(storage + shift, b.data(), b.size());
    const std::span<const std::byte> input(storage + shift, b.size());
    const bool aligned = (shift + 2) % alignof(Wide) == 0;
    if (bifrons::detail::record_layout<Wide>::memory_is_wire && aligned) {
      const auto view = bifrons::from_bytes<std::span<const Wide>>(input);
      ASSERT_EQ(view.size(), 2u);
      EXPECT_EQ(static_cast<const void*>(view.data()), static_cast<const void*>(storage + shift + 2));
      EXPECT_TRUE(view[0] == v[0] && view[1] == v[1]);
    } else {
      EXPECT_TRUE(fails_with<std::span<const Wide>>(input, errc::misaligned_view, 2)) << shift;
    }
  }
  // A record whose memory layout is not its wire layout (padding) cannot be viewed.
  EXPECT_TRUE(fails_with<std::span<const Tick>>(bifrons::to_bytes(std::vector<Tick>{{1, 2}}), errc::misaligned_view,
                                                2));
  // A span writes what a vector writes.
  EXPECT_EQ(hex_of(std::span<const Wide>(v)), hex_of(v));
  EXPECT_EQ(bifrons::serialized_size(std::span<const Wide>(v)), bifrons::serialized_size(v));
  // An empty block is an empty view.
  EXPECT_TRUE(bifrons::from_bytes<std::span<const Wide>>(B({0x00})).empty());
}

// ---- evolution ------------------------------------------------------------------------------

TEST(RecordEvolution, NewerReaderDefaultsWhatTheDataLacks) {
  const std::vector<TickV1> old{{1}, {2}, {3}};
  EXPECT_TRUE(reads_as(bifrons::to_bytes(old), std::vector<TickV3>({{1, 0, 77}, {2, 0, 77}, {3, 0, 77}})));
  EXPECT_TRUE(reads_as(bifrons::to_bytes(TickV2{5, 2.5}), TickV3{5, 2.5, 77}));
  EXPECT_TRUE(reads_as(bifrons::to_bytes(std::array<TickV1, 2>{{{8}, {9}}}),
                       std::array<TickV3, 2>{{{8, 0, 77}, {9, 0, 77}}}));
  // Over objects that hold other values, the fields the data lacks are reset to their defaults.
  std::vector<TickV3> reused{{9, 9, 9}, {9, 9, 9}, {9, 9, 9}, {9, 9, 9}};
  bifrons::from_bytes(bifrons::to_bytes(old), reused);
  EXPECT_EQ(reused, (std::vector<TickV3>{{1, 0, 77}, {2, 0, 77}, {3, 0, 77}}));
  TickV3 one{9, 9, 9};
  bifrons::from_bytes(bifrons::to_bytes(TickV1{4}), one);
  EXPECT_EQ(one, (TickV3{4, 0, 77}));
  std::array<TickV3, 2> arr{{{9, 9, 9}, {9, 9, 9}}};
  bifrons::from_bytes(bifrons::to_bytes(std::array<TickV2, 2>{{{1, 1.5}, {2, 2.5}}}), arr);
  EXPECT_EQ(arr, (std::array<TickV3, 2>{{{1, 1.5, 77}, {2, 2.5, 77}}}));
}

TEST(RecordEvolution, OlderReaderSkipsWhatItDoesNotKnow) {
  const std::vector<TickV3> fresh{{1, 1.5, 5}, {2, 2.5, 6}};
  EXPECT_TRUE(reads_as(bifrons::to_bytes(fresh), std::vector<TickV1>({{1}, {2}})));
  EXPECT_TRUE(reads_as(bifrons::to_bytes(fresh), std::vector<TickV2>({{1, 1.5}, {2, 2.5}})));
  EXPECT_TRUE(reads_as(bifrons::to_bytes(TickV3{3, 3.5, 7}), TickV1{3}));
  // The value after the block is still found: the reader skipped whole strides.
  using Pair = std::pair<std::vector<TickV3>, std::int32_t>;
  using OldPair = std::pair<std::vector<TickV1>, std::int32_t>;
  EXPECT_TRUE(reads_as(bifrons::to_bytes(Pair{fresh, -3}), OldPair{{{1}, {2}}, -3}));
}

// ---- hostile input --------------------------------------------------------------------------

TEST(RecordHostile, StrideInsideAField) {
  // Tick's fields end at 4 and 12: a stride of 6 cuts the double.
  const bytes b = cat({B({0x01, 0x06}), bytes(6, std::byte{0})});
  EXPECT_TRUE(fails_with<std::vector<Tick>>(b, errc::invalid_stride, 1));
  EXPECT_TRUE((fails_with<std::array<Tick, 1>>(B({0x06, 0, 0, 0, 0, 0, 0}), errc::invalid_stride, 0)));
  EXPECT_TRUE(fails_with<Tick>(cat({B({6 << 1}), bytes(6, std::byte{0})}), errc::invalid_stride, 0));
}

TEST(RecordHostile, CountTimesStrideBeyondTheInput) {
  // count * stride overflows 64 bits: refused by division, before any multiplication. (With the
  // default limits the element limit refuses the count first.)
  const std::uint64_t count = std::numeric_limits<std::size_t>::max() / 8;  // x 16 wraps size_t
  const bytes overflow = cat({varint_bytes(count), varint_bytes(16), bytes(32, std::byte{0})});
  EXPECT_TRUE(fails_with<std::vector<Tick>>(overflow, errc::element_limit_exceeded, 0));
  bifrons::read_options lifted;
  lifted.max_elements = ~std::size_t{0};
  lifted.max_alloc_bytes = ~std::size_t{0};
  const auto r = bifrons::try_from_bytes<std::vector<Tick>>(overflow, lifted);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.code(), errc::count_exceeds_input);
  EXPECT_EQ(r.offset(), 0u);
  EXPECT_EQ(r.bytes_missing(), 0xFFFF'FFFFu);  // beyond counting: saturated
  // A stride larger than the whole input (2^40 - 8 bytes missing, saturated).
  const bytes huge_stride = cat({B({0x01}), varint_bytes(std::uint64_t{1} << 40), bytes(8, std::byte{0})});
  EXPECT_TRUE(fails_with<std::vector<Tick>>(huge_stride, errc::count_exceeds_input, 0, 0xFFFF'FFFFu));
  // Truncated: three records announced, two and a half present.
  const bytes truncated = cat({B({0x03, 0x0C}), bytes(30, std::byte{0})});
  EXPECT_TRUE(fails_with<std::vector<Tick>>(truncated, errc::count_exceeds_input, 0, 6));
  // A fixed array has no count: the block ends past the input, which is where it is reported.
  EXPECT_TRUE((fails_with<std::array<Tick, 3>>(cat({B({0x0C}), bytes(30, std::byte{0})}), errc::unexpected_end, 31,
                                               6)));
  EXPECT_TRUE(fails_with<Tick>(cat({B({0x18}), bytes(11, std::byte{0})}), errc::unexpected_end, 12, 1));
}

// A block of records whose memory is their wire layout, as the whole input, is read without a
// source (sequence_codec::read_whole); any input that is not exactly such a block goes to the
// general reader, which reports what is wrong with its offset, as try_from_bytes does.
TEST(RecordHostile, AWholeInputBlockFailsAsTheGeneralReaderSays) {
  const std::vector<Wide> v(3, Wide{{1, 2, 3}});
  const bytes b = bifrons::to_bytes(v);  // count 3, stride 40, 120 bytes
  for (std::size_t cut = 0; cut < b.size(); cut += 5) {
    const bytes shorter(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(cut));
    const auto general = bifrons::try_from_bytes<std::vector<Wide>>(shorter);
    ASSERT_FALSE(general);
    EXPECT_TRUE(fails_with<std::vector<Wide>>(shorter, general.code(), general.offset(), general.bytes_missing()))
        << cut;
  }
  bytes longer = b;
  longer.push_back(std::byte{0});
  EXPECT_TRUE(fails_with<std::vector<Wide>>(longer, errc::trailing_bytes, b.size()));
  // Another stride of the same total size (4 records of 30 bytes: a stride inside a field) and a
  // record limit below the count are the general reader's errors too.
  const bytes other_stride = cat({B({0x04, 30}), bytes(120, std::byte{0})});
  EXPECT_TRUE(fails_with<std::vector<Wide>>(other_stride, errc::invalid_stride, 1));
  bifrons::read_options few;
  few.max_elements = 2;
  std::vector<Wide> out(5);
  try {
    bifrons::from_bytes(b, out, few);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::element_limit_exceeded);
  }
}

TEST(RecordHostile, ZeroStrideIsBoundedByTheLimits) {
  // A stride of 0 (a writer's record without fields) makes every record free on the wire:
  // the element limit and the allocation budget bound the count instead.
  const bytes many = cat({varint_bytes(std::uint64_t{1} << 40), B({0x00})});
  EXPECT_TRUE(fails_with<std::vector<Tick>>(many, errc::element_limit_exceeded, 0));
  bifrons::read_options tight;
  tight.max_alloc_bytes = 1000;
  const bytes hundred = cat({varint_bytes(100), B({0x00})});
  auto r = bifrons::try_from_bytes<std::vector<Tick>>(hundred, tight);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.code(), errc::allocation_limit_exceeded);
  EXPECT_EQ(r.offset(), 0u);
  // Within the limits, records of a zero stride read as defaults.
  EXPECT_TRUE(reads_as(cat({B({0x02, 0x00})}), std::vector<TickV3>({{0, 0, 77}, {0, 0, 77}})));
}

TEST(RecordHostile, InvalidFieldValues) {
  Mixed m = sample_mixed(1);
  bytes b = cat({B({0x01, 31}), mixed_bytes(m)});
  b[2] = std::byte{2};  // the bool
  EXPECT_TRUE(fails_with<std::vector<Mixed>>(b, errc::invalid_value, 2));
  // The second record's bool: the offset points into the block.
  bytes two = cat({B({0x02, 31}), mixed_bytes(m), mixed_bytes(m)});
  two[2 + 31] = std::byte{7};
  EXPECT_TRUE(fails_with<std::vector<Mixed>>(two, errc::invalid_value, 2 + 31));
  // A record alone has no version: the header's low bit must be 0.
  EXPECT_TRUE(fails_with<Tick>(cat({B({0x19}), tick_bytes(1, 1)}), errc::invalid_value, 0));
  if constexpr (sizeof(long) == 4) {
    // An 8-byte long that a 32-bit long cannot hold.
    bytes wide = mixed_bytes(m);
    wide[10 + 4] = std::byte{0x01};  // bits 32..39 of `big`
    EXPECT_TRUE(fails_with<Mixed>(cat({B({62}), wide}), errc::value_out_of_range, 1 + 10));
  }
}

}  // namespace
