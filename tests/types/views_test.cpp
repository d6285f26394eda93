// Zero-copy views (bifrons/types/views.hpp): string_view and span<const T> are written like
// string and vector, and read as views pointing into the input bytes. Multi-byte elements need an
// aligned block on a little-endian host; otherwise errc::misaligned_view. block_view<T> needs
// neither: it loads each element where it is used, from any address, on any host.
#include <bifrons/record.hpp>
#include <bifrons/schema.hpp>
#include <bifrons/types/views.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <numeric>
#include <ranges>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

constexpr bool little_endian = std::endian::native == std::endian::little;

/// True when [p, p + n) lies inside [first, first + size).
template <class T, class B>
bool points_into(const T* p, std::size_t n, const B* first, std::size_t size) {
  const auto* begin = reinterpret_cast<const std::byte*>(first);
  const auto* q = reinterpret_cast<const std::byte*>(p);
  return q >= begin && q + n * sizeof(T) <= begin + size;
}

// ---- string_view ------------------------------------------------------------------------------------

TEST(StringView, WrittenLikeAString) {
  EXPECT_EQ(hex_of(std::string_view("abc")), "03 61 62 63");
  EXPECT_EQ(hex_of(std::string_view()), "00");
  EXPECT_EQ(bifrons::to_bytes(std::string_view("hello")), bifrons::to_bytes(std::string("hello")));
  EXPECT_EQ(bifrons::to_bytes(std::u16string_view(u"h\u00e9")), bifrons::to_bytes(std::u16string(u"h\u00e9")));
  EXPECT_EQ(hex_of(std::wstring_view(L"A")), "01 41 00 00 00");
  EXPECT_EQ(hex_of(std::u8string_view(u8"x")), "01 78");
}

TEST(StringView, ReadPointsIntoTheInput) {
  const bytes b = bifrons::to_bytes(std::string("hello"));
  const auto v = bifrons::from_bytes<std::string_view>(b);
  EXPECT_EQ(v, "hello");
  EXPECT_TRUE(points_into(v.data(), v.size(), b.data(), b.size()));
  EXPECT_EQ(reinterpret_cast<const std::byte*>(v.data()), b.data() + 1);

  // Any byte input will do, e.g. a std::string holding the encoding.
  std::string text;
  bifrons::to_bytes(std::string("world"), text);
  const auto w = bifrons::from_bytes<std::string_view>(text);
  EXPECT_EQ(w, "world");
  EXPECT_EQ(w.data(), text.data() + 1);
}

TEST(StringView, EmptyAndErrors) {
  EXPECT_TRUE(bifrons::from_bytes<std::string_view>(B({0x00})).empty());
  EXPECT_TRUE(fails_with<std::string_view>(B({0x05, 0x61}), errc::count_exceeds_input, 0, 4));
  EXPECT_TRUE(fails_with<std::string_view>(bytes{}, errc::unexpected_end, 0, 1));
  EXPECT_TRUE(fails_with<std::string_view>(B({0x01, 0x61, 0x00}), errc::trailing_bytes, 2));
}

TEST(StringView, ViewsDoNotAllocate) {
  const bytes b = bifrons::to_bytes(std::string(1000, 'v'));
  auto r = bifrons::try_from_bytes<std::string_view>(b, bifrons::read_options{.max_alloc_bytes = 0});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->size(), 1000u);
}

TEST(StringView, InsideContainersAndStructs) {
  const bytes b = bifrons::to_bytes(std::vector<std::string>{"ab", "", "cde"});
  const auto views = bifrons::from_bytes<std::vector<std::string_view>>(b);
  ASSERT_EQ(views.size(), 3u);
  EXPECT_EQ(views[0], "ab");
  EXPECT_EQ(views[2], "cde");
  EXPECT_TRUE(points_into(views[0].data(), 2, b.data(), b.size()));
  EXPECT_TRUE(points_into(views[2].data(), 3, b.data(), b.size()));

  struct Record {
    std::string_view name;
    std::span<const std::uint8_t> payload;
  };
  const std::uint8_t raw[] = {1, 2, 3};
  const bytes rb = bifrons::to_bytes(Record{"rec", raw});
  // body: 03 72 65 63 | 03 01 02 03 -> 8 bytes, header 10.
  EXPECT_EQ(hex(rb), "10 03 72 65 63 03 01 02 03");
  const auto rec = bifrons::from_bytes<Record>(rb);
  EXPECT_EQ(rec.name, "rec");
  ASSERT_EQ(rec.payload.size(), 3u);
  EXPECT_EQ(rec.payload[2], 3);
  EXPECT_TRUE(points_into(rec.payload.data(), 3, rb.data(), rb.size()));
}

// ---- span of one-byte elements: always a view ----------------------------------------------------

template <class T>
class ByteSpan : public ::testing::Test {};
using ByteSpanTypes = ::testing::Types<std::uint8_t, std::int8_t, std::byte, char, unsigned char, char8_t>;
TYPED_TEST_SUITE(ByteSpan, ByteSpanTypes);

TYPED_TEST(ByteSpan, ReadPointsIntoTheInputAtAnyOffset) {
  const std::vector<TypeParam> values = samples<TypeParam>(300);
  const bytes enc = bifrons::to_bytes(std::span<const TypeParam>(values));
  EXPECT_EQ(enc, bifrons::to_bytes(values));
  for (std::size_t offset : {0u, 1u, 3u}) {
    bytes buffer(offset, std::byte{0xee});
    buffer.insert(buffer.end(), enc.begin(), enc.end());
    const std::span<const std::byte> input(buffer.data() + offset, enc.size());
    const auto view = bifrons::from_bytes<std::span<const TypeParam>>(input);
    ASSERT_EQ(view.size(), values.size());
    EXPECT_EQ(reinterpret_cast<const std::byte*>(view.data()), input.data() + 2);  // after a 2-byte count
    EXPECT_TRUE(std::equal(view.begin(), view.end(), values.begin()));
  }
}

// ---- span of multi-byte elements: aligned little-endian blocks only ---------------------------------

template <class T>
class WideSpan : public ::testing::Test {};
using WideSpanTypes = ::testing::Types<std::int32_t, std::uint16_t, std::int64_t, float, double, long, unsigned long,
                                       char16_t, char32_t, wchar_t>;
TYPED_TEST_SUITE(WideSpan, WideSpanTypes);

/// Places the encoding of values in an aligned buffer so that the element block starts at an
/// address that is (aligned) or is not (misaligned) a multiple of alignof(T), and reads it as View.
template <class View, class T>
void check_view(const std::vector<T>& values) {
  const bytes enc = bifrons::to_bytes(values);
  const std::size_t count_size = varint_bytes(values.size()).size();
  constexpr std::size_t align = alignof(T);
  static_assert(align > 1);
  // A view needs the block as it is in memory: little-endian and one wire width per element.
  constexpr bool viewable = little_endian && ref_wire_width<T>() == sizeof(T);

  alignas(16) std::array<std::byte, 4096> storage{};
  ASSERT_LE(enc.size() + 2 * align, storage.size());
  const std::size_t aligned_offset = align - count_size % align;  // block at aligned_offset + count_size
  for (const bool aligned : {true, false}) {
    const std::size_t offset = aligned ? aligned_offset : aligned_offset + 1;
    std::memcpy(storage.data() + offset, enc.data(), enc.size());
    const std::span<const std::byte> input(storage.data() + offset, enc.size());
    const std::byte* block = input.data() + count_size;
    ASSERT_EQ(reinterpret_cast<std::uintptr_t>(block) % align == 0, aligned);

    auto r = bifrons::try_from_bytes<View>(input);
    if (viewable && aligned) {
      ASSERT_TRUE(r) << bifrons::describe(r.code());
      ASSERT_EQ(r->size(), values.size());
      EXPECT_EQ(reinterpret_cast<const std::byte*>(r->data()), block);
      EXPECT_TRUE(std::equal(r->begin(), r->end(), values.begin()));
    } else {
      EXPECT_TRUE(fails_with<View>(input, errc::misaligned_view, count_size)) << "aligned = " << aligned;
    }
  }
}

TYPED_TEST(WideSpan, AlignedLittleEndianBlocksAreViewsOthersMisaligned) {
  check_view<std::span<const TypeParam>>(samples<TypeParam>(5));
  check_view<std::span<const TypeParam>>(samples<TypeParam>(200));  // two-byte count
}

TYPED_TEST(WideSpan, WrittenLikeAVector) {
  std::vector<TypeParam> values = samples<TypeParam>(17);
  EXPECT_EQ(bifrons::to_bytes(std::span<const TypeParam>(values)), bifrons::to_bytes(values));
  EXPECT_EQ(bifrons::to_bytes(std::span<TypeParam>(values)), bifrons::to_bytes(values));  // writing needs no const
  EXPECT_EQ(hex_of(std::span<const TypeParam>()), "00");
}

TYPED_TEST(WideSpan, EmptyAndTruncated) {
  EXPECT_TRUE(bifrons::from_bytes<std::span<const TypeParam>>(B({0x00})).empty());
  EXPECT_TRUE(fails_with<std::span<const TypeParam>>(B({0x02, 0x00}), errc::count_exceeds_input, 0,
                                                     2 * min_element_size<TypeParam>() - 1));
}

TEST(WideSpan, HandComputedBytes) {
  const std::int32_t values[] = {1, -2};
  EXPECT_EQ(hex_of(std::span<const std::int32_t>(values)), "02 01 00 00 00 fe ff ff ff");
  EXPECT_EQ(hex_of(std::span<const std::int32_t, 2>(values)), "02 01 00 00 00 fe ff ff ff");
  const long longs[] = {-1};
  EXPECT_EQ(hex_of(std::span<const long>(longs)), "01 ff ff ff ff ff ff ff ff");
}

TEST(WideStringView, AlignedLittleEndianBlocksAreViewsOthersMisaligned) {
  check_view<std::u16string_view>(std::vector<char16_t>{u'a', u'\u00e9', u'z'});
  check_view<std::u32string_view>(std::vector<char32_t>{U'a', U'\U0001F600'});
  check_view<std::wstring_view>(std::vector<wchar_t>{L'w', L'x'});
}

// ---- views read through a reader -----------------------------------------------------------------

TEST(Views, ThroughAReader) {
  bytes b;
  bifrons::writer w(b);
  w(std::string("one"), std::vector<std::uint8_t>{9, 8});
  bifrons::reader r(b);
  std::string_view s;
  std::span<const std::uint8_t> sp;
  r(s, sp);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(s, "one");
  EXPECT_TRUE(points_into(s.data(), s.size(), b.data(), b.size()));
  ASSERT_EQ(sp.size(), 2u);
  EXPECT_EQ(sp[1], 8);
  EXPECT_TRUE(points_into(sp.data(), sp.size(), b.data(), b.size()));

  // An istream reader owns its buffer: the view points there and stays valid with the reader.
  std::istringstream in(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  bifrons::reader sr(in);
  std::string_view s2;
  sr(s2);
  EXPECT_EQ(s2, "one");
}

// ---- block_view ------------------------------------------------------------------------------------

/// A record whose memory is its wire layout on a little-endian host (no padding: 4 + 8 bytes).
struct Tick {
  std::int32_t id = 0;
  double price = 0;
};
/// An older writer's Tick (the id only) and a newer writer's (a venue appended).
struct OldTick {
  std::int32_t id = 0;
};
struct NewTick {
  std::int32_t id = 0;
  double price = 0;
  std::int16_t venue = 0;
};
/// A record whose bytes are not always a value: a bool must be 0 or 1.
struct Flagged {
  std::int32_t id = 0;
  bool on = false;
};
/// 64 bytes: written back, a record of stride 0 takes 64 bytes where the input had none.
struct Big {
  std::int32_t v[16] = {};
};
/// A record without padding (4 + 4 + 8 bytes): on a little-endian host its memory is its wire
/// layout, and for_each loads it at a stride known at compile time.
struct Quote {
  std::int32_t id = 0;
  std::int32_t qty = 0;
  std::int64_t px = 0;
};
/// An older writer's Quote (two fields, stride 8) and a newer writer's (a venue appended, 20).
struct OldQuote {
  std::int32_t id = 0;
  std::int32_t qty = 0;
};
struct NewQuote {
  std::int32_t id = 0;
  std::int32_t qty = 0;
  std::int64_t px = 0;
  std::int32_t venue = 0;
};

}  // namespace
}  // namespace bifrons_test

template <>
inline constexpr bool bifrons::enable_record<bifrons_test::Tick> = true;
template <>
inline constexpr bool bifrons::enable_record<bifrons_test::OldTick> = true;
template <>
inline constexpr bool bifrons::enable_record<bifrons_test::NewTick> = true;
template <>
inline constexpr bool bifrons::enable_record<bifrons_test::Flagged> = true;
template <>
inline constexpr bool bifrons::enable_record<bifrons_test::Big> = true;
template <>
inline constexpr bool bifrons::enable_record<bifrons_test::Quote> = true;
template <>
inline constexpr bool bifrons::enable_record<bifrons_test::OldQuote> = true;
template <>
inline constexpr bool bifrons::enable_record<bifrons_test::NewQuote> = true;

namespace bifrons_test {
namespace {

/// The encoding of v copied to every offset 0..15 of a buffer: no alignment is assumed anywhere.
template <class F>
void at_every_offset(const bytes& encoding, F&& f) {
  for (std::size_t offset = 0; offset < 16; ++offset) {
    bytes shifted(offset + encoding.size());
    std::copy(encoding.begin(), encoding.end(), shifted.begin() + static_cast<std::ptrdiff_t>(offset));
    f(std::span<const std::byte>(shifted).subspan(offset), offset);
  }
}

TEST(BlockView, ReadsNumbersInPlaceAtAnyAlignment) {
  static_assert(std::ranges::random_access_range<bifrons::block_view<double>>);
  static_assert(std::ranges::sized_range<bifrons::block_view<double>>);
  std::vector<std::int64_t> numbers(37);
  std::iota(numbers.begin(), numbers.end(), std::int64_t{-18});
  numbers[5] = INT64_MIN;
  numbers[6] = INT64_MAX;
  const bytes encoding = bifrons::to_bytes(numbers);
  at_every_offset(encoding, [&](std::span<const std::byte> in, std::size_t offset) {
    const auto view = bifrons::from_bytes<bifrons::block_view<std::int64_t>>(in);
    ASSERT_EQ(view.size(), numbers.size()) << offset;
    EXPECT_TRUE(std::ranges::equal(view, numbers)) << offset;
    EXPECT_EQ(view[5], INT64_MIN);
    EXPECT_EQ(view.back(), numbers.back());
    // In place: its bytes are the input's, after the count.
    EXPECT_EQ(view.bytes().data(), in.data() + 1);
    EXPECT_EQ(view.end() - view.begin(), 37);
    EXPECT_EQ(*(view.begin() + 36), numbers[36]);
  });
}

TEST(BlockView, WritesTheBytesOfAVectorSoFieldsMayChangeBetweenThem) {
  const std::vector<float> v{1.5f, -0.0f, 3e38f};
  const bytes encoding = bifrons::to_bytes(v);
  const auto view = bifrons::from_bytes<bifrons::block_view<float>>(encoding);
  EXPECT_EQ(bifrons::to_bytes(view), encoding);
  EXPECT_EQ(bifrons::to_bytes(bifrons::block_view<float>()), bifrons::to_bytes(std::vector<float>()));
  // The schema says what a span<const float>'s says: a sequence the reader views.
  EXPECT_EQ(bifrons::schema<bifrons::block_view<float>>(), bifrons::schema<std::span<const float>>());
}

TEST(BlockView, ChecksElementsWhoseBytesMayNotBeAValueWhenRead) {
  // bool: 0 or 1, checked when the view is read; the error is at the element.
  EXPECT_TRUE(fails_with<bifrons::block_view<bool>>(B({0x03, 0x01, 0x00, 0x02}), errc::invalid_value, 3));
  const bytes valid = B({0x03, 0x01, 0x00, 0x01});  // the view lives no longer than its bytes
  const auto ok = bifrons::from_bytes<bifrons::block_view<bool>>(valid);
  EXPECT_TRUE(ok[0] && !ok[1] && ok[2]);
}

TEST(BlockView, ReadsRecordsOfAnyWritersStride) {
  const std::vector<Tick> ticks{{1, 1.5}, {2, -2.25}, {3, 1e300}};
  const bytes encoding = bifrons::to_bytes(ticks);
  at_every_offset(encoding, [&](std::span<const std::byte> in, std::size_t offset) {
    const auto view = bifrons::from_bytes<bifrons::block_view<Tick>>(in);
    ASSERT_EQ(view.size(), 3u) << offset;
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(view[i].id, ticks[i].id);
      EXPECT_EQ(view[i].price, ticks[i].price);
    }
    EXPECT_EQ(view.stride(), 12u);
  });
  EXPECT_EQ(bifrons::to_bytes(bifrons::from_bytes<bifrons::block_view<Tick>>(encoding)), encoding);
  // A newer writer's records: the fields this reader knows, at the newer stride.
  const std::vector<NewTick> newer{{7, 7.5, 3}, {8, 8.5, 4}};
  const bytes newer_bytes = bifrons::to_bytes(newer);
  const auto from_newer = bifrons::from_bytes<bifrons::block_view<Tick>>(newer_bytes);
  ASSERT_EQ(from_newer.size(), 2u);
  EXPECT_EQ(from_newer.stride(), 14u);
  EXPECT_EQ(from_newer[1].id, 8);
  EXPECT_EQ(from_newer[1].price, 8.5);
  // Written again, in this reader's layout: what a vector<Tick> read from the same bytes writes.
  EXPECT_EQ(bifrons::to_bytes(from_newer), bifrons::to_bytes(bifrons::from_bytes<std::vector<Tick>>(newer_bytes)));
  // An older writer's: the fields it lacks have their defaults.
  const std::vector<OldTick> older{{5}, {6}};
  const bytes older_bytes = bifrons::to_bytes(older);
  const auto from_older = bifrons::from_bytes<bifrons::block_view<Tick>>(older_bytes);
  ASSERT_EQ(from_older.size(), 2u);
  EXPECT_EQ(from_older[1].id, 6);
  EXPECT_EQ(from_older[1].price, 0.0);
}

TEST(BlockView, RecordsOfAWriterWithNoFieldsAreDefaultsOfNoBytes) {
  // Three records of stride 0 (an older writer's record before any field): no bytes, but three
  // elements, each the reader's defaults; written again in this reader's layout.
  const bytes encoding = B({0x03, 0x00});
  const auto view = bifrons::from_bytes<bifrons::block_view<Tick>>(encoding);
  ASSERT_EQ(view.size(), 3u);
  EXPECT_EQ(std::ranges::distance(view), 3);
  EXPECT_EQ(std::ranges::count_if(view, [](const Tick& t) { return t.id == 0 && t.price == 0; }), 3);
  EXPECT_EQ(bifrons::to_bytes(view), bifrons::to_bytes(std::vector<Tick>(3)));
  EXPECT_EQ(bifrons::serialized_size(view), bifrons::to_bytes(view).size());
}

TEST(BlockView, RecordsShorterThanTheReadersAreChargedWhatTheyGrowTo) {
  // 2^23 records of stride 0 in 5 bytes: written back they would take 512 MiB, past the default
  // budget. The view is charged that growth, as a vector of them is. (The review's input had
  // 2^26, which on a 32-bit host made the size wrap and the write overflow its buffer; a vector
  // refuses that many 64-byte elements there by its max_size, before the budget.)
  const bytes hostile = B({0x80, 0x80, 0x80, 0x04, 0x00});
  EXPECT_TRUE(fails_with<std::vector<Big>>(hostile, errc::allocation_limit_exceeded, 0));
  EXPECT_TRUE(fails_with<bifrons::block_view<Big>>(hostile, errc::allocation_limit_exceeded, 0));
  EXPECT_TRUE(fails_with<bifrons::block_view<Big>>(B({0x80, 0x80, 0x80, 0x20, 0x00}), errc::allocation_limit_exceeded,
                                                   0));
  // Within the budget it reads, and its size is what it writes.
  const bytes fine = B({0x10, 0x00});
  const auto view = bifrons::from_bytes<bifrons::block_view<Big>>(fine);
  EXPECT_EQ(view.size(), 16u);
  EXPECT_EQ(bifrons::serialized_size(view), bifrons::to_bytes(view).size());
  EXPECT_EQ(bifrons::to_bytes(view), bifrons::to_bytes(std::vector<Big>(16)));
}

TEST(BlockView, ChecksRecordsWhoseBytesMayNotBeAValueWhenRead) {
  const bytes good = bifrons::to_bytes(std::vector<Flagged>{{1, true}, {2, false}});
  const auto view = bifrons::from_bytes<bifrons::block_view<Flagged>>(good);
  EXPECT_TRUE(view[0].on);
  EXPECT_FALSE(view[1].on);
  bytes bad = good;
  bad.back() = std::byte{2};  // the second record's bool
  EXPECT_TRUE(fails_with<bifrons::block_view<Flagged>>(bad, errc::invalid_value, bad.size() - 1));
}

TEST(BlockView, EveryTruncationFailsCleanly) {
  const bytes encoding = bifrons::to_bytes(std::vector<Tick>{{1, 1.5}, {2, 2.5}});
  for (std::size_t n = 0; n < encoding.size(); ++n)
    EXPECT_FALSE(bifrons::try_from_bytes<bifrons::block_view<Tick>>(std::span(encoding).first(n))) << n;
}

// ---- block_view::for_each ---------------------------------------------------------------------------

static_assert(bifrons::detail::record_layout<Quote>::memory_is_wire == little_endian,
              "the for_each tests below cover the loop at the record's own size on little-endian hosts");

/// The elements for_each gives, in the order it gives them.
template <class T>
std::vector<T> each_of(const bifrons::block_view<T>& view) {
  std::vector<T> out;
  view.for_each([&](const T& e) { out.push_back(e); });
  return out;
}

bool same(const Quote& a, const Quote& b) { return a.id == b.id && a.qty == b.qty && a.px == b.px; }

std::vector<Quote> quotes(std::size_t n) {
  std::vector<Quote> q(n);
  for (std::size_t i = 0; i < n; ++i)
    q[i] = {static_cast<std::int32_t>(i) - 7, static_cast<std::int32_t>(1000 - 3 * i),
            static_cast<std::int64_t>(i) * -1234567890123LL};
  return q;
}

TEST(BlockViewForEach, GivesTheElementsInOrderAsTheIteratorsDo) {
  // The view's own elements, and the values written, at every misalignment.
  const std::vector<Quote> written = quotes(41);
  at_every_offset(bifrons::to_bytes(written), [&](std::span<const std::byte> in, std::size_t offset) {
    const auto view = bifrons::from_bytes<bifrons::block_view<Quote>>(in);
    ASSERT_EQ(view.stride(), sizeof(Quote));
    const std::vector<Quote> seen = each_of(view);
    ASSERT_EQ(seen.size(), written.size()) << offset;
    for (std::size_t i = 0; i < seen.size(); ++i) {
      EXPECT_TRUE(same(seen[i], written[i])) << "offset " << offset << ", element " << i;
      EXPECT_TRUE(same(seen[i], view[i])) << "offset " << offset << ", element " << i;
    }
  });
}

TEST(BlockViewForEach, Numbers) {
  std::vector<double> written(33);
  for (std::size_t i = 0; i < written.size(); ++i) written[i] = static_cast<double>(i) * -1.25 + 0.5;
  at_every_offset(bifrons::to_bytes(written), [&](std::span<const std::byte> in, std::size_t offset) {
    EXPECT_EQ(each_of(bifrons::from_bytes<bifrons::block_view<double>>(in)), written) << offset;
  });
  const bytes flags = B({0x03, 0x01, 0x00, 0x01});
  EXPECT_EQ(each_of(bifrons::from_bytes<bifrons::block_view<bool>>(flags)), (std::vector<bool>{true, false, true}));
}

TEST(BlockViewForEach, RecordsOfANewerWriterGiveTheFieldsThisReaderKnows) {
  std::vector<NewQuote> newer;
  for (const Quote& q : quotes(9)) newer.push_back({q.id, q.qty, q.px, q.id * 2});
  at_every_offset(bifrons::to_bytes(newer), [&](std::span<const std::byte> in, std::size_t offset) {
    const auto view = bifrons::from_bytes<bifrons::block_view<Quote>>(in);
    ASSERT_EQ(view.stride(), 20u);
    const std::vector<Quote> seen = each_of(view);
    ASSERT_EQ(seen.size(), newer.size());
    for (std::size_t i = 0; i < seen.size(); ++i) {
      EXPECT_TRUE(same(seen[i], Quote{newer[i].id, newer[i].qty, newer[i].px})) << offset << ", " << i;
      EXPECT_TRUE(same(seen[i], view[i])) << offset << ", " << i;
    }
  });
}

TEST(BlockViewForEach, RecordsOfAnOlderWriterHaveTheMissingFieldsAtTheirDefaults) {
  const std::vector<OldQuote> older{{1, 10}, {-2, 20}, {3, -30}};
  at_every_offset(bifrons::to_bytes(older), [&](std::span<const std::byte> in, std::size_t offset) {
    const auto view = bifrons::from_bytes<bifrons::block_view<Quote>>(in);
    ASSERT_EQ(view.stride(), 8u);
    const std::vector<Quote> seen = each_of(view);
    ASSERT_EQ(seen.size(), older.size());
    for (std::size_t i = 0; i < seen.size(); ++i)
      EXPECT_TRUE(same(seen[i], Quote{older[i].id, older[i].qty, 0})) << offset << ", " << i;
  });
  // Stride 0: records with no bytes, each the reader's defaults.
  const bytes none = B({0x02, 0x00});
  const std::vector<Quote> defaults = each_of(bifrons::from_bytes<bifrons::block_view<Quote>>(none));
  ASSERT_EQ(defaults.size(), 2u);
  EXPECT_TRUE(same(defaults[0], Quote{}) && same(defaults[1], Quote{}));
}

TEST(BlockViewForEach, RecordsWhoseMemoryIsNotTheirWireLayout) {
  // Tick has padding and Flagged a bool: loaded field by field.
  const std::vector<Tick> ticks{{1, 1.5}, {2, -2.25}};
  const std::vector<Tick> seen = each_of(bifrons::from_bytes<bifrons::block_view<Tick>>(bifrons::to_bytes(ticks)));
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].id, 2);
  EXPECT_EQ(seen[1].price, -2.25);
  const bytes flagged = bifrons::to_bytes(std::vector<Flagged>{{4, true}, {5, false}});
  const std::vector<Flagged> flags = each_of(bifrons::from_bytes<bifrons::block_view<Flagged>>(flagged));
  ASSERT_EQ(flags.size(), 2u);
  EXPECT_TRUE(flags[0].id == 4 && flags[0].on);
  EXPECT_TRUE(flags[1].id == 5 && !flags[1].on);
}

TEST(BlockViewForEach, EmptyViewsCallNothing) {
  int calls = 0;
  bifrons::block_view<Quote>().for_each([&](const Quote&) { ++calls; });
  bifrons::block_view<std::int32_t>().for_each([&](std::int32_t) { ++calls; });
  const bytes empty = B({0x00});
  bifrons::from_bytes<bifrons::block_view<Quote>>(empty).for_each([&](const Quote&) { ++calls; });
  EXPECT_EQ(calls, 0);
}

template <class View, class F>
concept for_each_takes = requires(const View& v, F f) { v.for_each(f); };
struct modifies_a_quote {
  void operator()(Quote&) const {}
};
struct reads_a_quote {
  void operator()(const Quote&) const {}
};
// The elements are values loaded from the input: a callable that would modify one is refused.
static_assert(!for_each_takes<bifrons::block_view<Quote>, modifies_a_quote>);
static_assert(for_each_takes<bifrons::block_view<Quote>, reads_a_quote>);

/// Callable on an lvalue only: for_each calls f as an lvalue, however it was passed.
struct counter {
  int* n;
  void operator()(const Quote&) & { ++*n; }
};

TEST(BlockViewForEach, CallsTheCallableAsAnLvalue) {
  int n = 0;
  const bytes b = bifrons::to_bytes(quotes(5));
  bifrons::from_bytes<bifrons::block_view<Quote>>(b).for_each(counter{&n});
  EXPECT_EQ(n, 5);
}

}  // namespace
}  // namespace bifrons_test
