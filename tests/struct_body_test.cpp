// Structs whose fields are all scalars are read without per-field checks when the input holds
// their largest body (detail/struct_codec.hpp, "reading a body of scalars"). Every way that path
// can be wrong must end on the checked path with the same result: an older writer's shorter body,
// a newer writer's longer one, invalid values, non-minimal and over-long varints, objects being
// reused. Each case is read with the struct followed by enough bytes for the unchecked path, and
// at the very end of the input, where the checked path reads it; both must agree.
#include <bifrons/core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "types/test_support.hpp"

namespace {

using namespace bifrons_test;
using bifrons::errc;

enum class Kind : std::uint16_t { a = 1, b = 300 };

struct V1 {
  std::int32_t x = 0;
  std::uint8_t small = 0;
  friend bool operator==(const V1&, const V1&) = default;
};
struct V2 {
  std::int32_t x = 0;
  std::uint8_t small = 0;
  double d = 0.5;
  Kind kind = Kind::b;
  bool flag = true;
  char code[3] = {'a', 'b', 'c'};
  std::uint64_t big = 7;
  std::int16_t last = -5;
  friend bool operator==(const V2&, const V2&) = default;
};

static_assert(bifrons::detail::struct_codec<V2>::unchecked_body);

// A trailing string long enough that the unchecked path is taken for the struct before it.
const std::string tail(64, 'z');

/// Reads `bytes` (one struct encoding) as T twice: followed by a long string, and alone.
template <class T>
void expect_both_paths(const bytes& one, const T& expected) {
  SCOPED_TRACE(hex(one));
  EXPECT_TRUE(reads_as(one, expected));
  const bytes with_tail = cat({one, bifrons::to_bytes(tail)});
  EXPECT_TRUE(reads_as(with_tail, std::pair<T, std::string>(expected, tail)));
}

template <class T>
void expect_error_both_paths(const bytes& one, errc code, std::size_t offset) {
  SCOPED_TRACE(hex(one));
  EXPECT_TRUE(fails_with<T>(one, code, offset));
  EXPECT_TRUE((fails_with<std::pair<T, std::string>>(cat({one, bifrons::to_bytes(tail)}), code, offset)));
}

TEST(UncheckedBody, SameValuesAsTheCheckedPath) {
  const V2 full{-123456789, 200, -1.25, Kind::a, false, {'x', 'y', 'z'}, 0xFFFF'FFFF'FFFFull, 12345};
  expect_both_paths(bifrons::to_bytes(full), full);
  expect_both_paths(bifrons::to_bytes(V2{}), V2{});
  // Values at the edges of each width: 1-, 2-, 5-byte varints, the largest of each type.
  const V2 edges{std::numeric_limits<std::int32_t>::min(), 255, 0, Kind::b, true, {}, ~std::uint64_t{0}, -32768};
  expect_both_paths(bifrons::to_bytes(edges), edges);
  const V2 small{63, 127, 1, Kind::a, false, {}, 8191, 8191};
  expect_both_paths(bifrons::to_bytes(small), small);
}

TEST(UncheckedBody, OlderWriterShorterBody) {
  // V1's body ends after two fields: the unchecked path reads past it into the string that
  // follows, sees that it did, and the checked path gives the defaults.
  const V1 old{77, 9};
  V2 expected;
  expected.x = 77;
  expected.small = 9;
  expect_both_paths(bifrons::to_bytes(old), expected);
  // Over an object that holds other values, the fields the data lacks are reset.
  std::pair<V2, std::string> reused{V2{1, 2, 3.0, Kind::a, false, {'q', 'q', 'q'}, 4, 5}, "old"};
  bifrons::from_bytes(bifrons::to_bytes(std::pair<V1, std::string>(old, tail)), reused);
  EXPECT_EQ(reused.first, expected);
  EXPECT_EQ(reused.second, tail);
}

TEST(UncheckedBody, NewerWriterLongerBody) {
  const V2 fresh{-5, 6, 7.5, Kind::a, false, {'m', 'n', 'o'}, 99, 100};
  expect_both_paths(bifrons::to_bytes(fresh), V1{-5, 6});
}

TEST(UncheckedBody, InvalidValuesAreFoundWhereTheyAre) {
  const V2 v{1, 2, 3.0, Kind::a, true, {'a', 'b', 'c'}, 4, 5};
  const bytes good = bifrons::to_bytes(v);
  // Layout: header, x (1 byte), small (1), d (8), kind (1), flag (1), code (3), big (1), last (1).
  const std::size_t flag_at = 1 + 1 + 1 + 8 + 1;
  ASSERT_EQ(good[flag_at], std::byte{1});
  bytes bad_bool = good;
  bad_bool[flag_at] = std::byte{2};
  expect_error_both_paths<V2>(bad_bool, errc::invalid_value, flag_at);
  // small = 256 does not fit uint8_t: a two-byte varint 0x80 0x02 in a body one byte longer.
  bytes too_big =
      cat({B({static_cast<unsigned>((good.size()) << 1), 0x02, 0x80, 0x02}), bytes(good.begin() + 3, good.end())});
  expect_error_both_paths<V2>(too_big, errc::value_out_of_range, 2);
  // A non-minimal varint: 0x81 0x00 spells 1 with a trailing zero group.
  bytes padded = cat({B({static_cast<unsigned>((good.size()) << 1), 0x81, 0x00}), bytes(good.begin() + 2, good.end())});
  expect_error_both_paths<V2>(padded, errc::malformed_varint, 1);
}

TEST(UncheckedBody, TenByteVarintGoesToTheCheckedPath) {
  // big = 2^63 takes 10 bytes, more than one 8-byte load holds.
  V2 v;
  v.big = std::uint64_t{1} << 63;
  expect_both_paths(bifrons::to_bytes(v), v);
}

TEST(UncheckedBody, TheDepthLimitHoldsOnBothPaths) {
  // The unchecked path reads no nested struct, so it only checks that one more level is allowed:
  // a V2 in a pair (which is no struct) is at depth 1.
  const V2 v{1, 2, 3.0, Kind::a, true, {'a', 'b', 'c'}, 4, 5};
  const bytes one = bifrons::to_bytes(v);
  const bytes with_tail = cat({one, bifrons::to_bytes(tail)});
  using WithTail = std::pair<V2, std::string>;
  for (const auto& [input, alone] : {std::pair{one, true}, std::pair{with_tail, false}}) {
    const auto refused = alone ? bifrons::try_from_bytes<V2>(input, bifrons::read_options{.max_depth = 0}).code()
                               : bifrons::try_from_bytes<WithTail>(input, bifrons::read_options{.max_depth = 0}).code();
    EXPECT_EQ(refused, errc::depth_limit_exceeded);
  }
  EXPECT_TRUE(bifrons::try_from_bytes<WithTail>(with_tail, bifrons::read_options{.max_depth = 1}));
  // Read one after another (the unchecked path for all but the last), none takes a level for good.
  const std::vector<V2> many(100, v);
  const bytes all = bifrons::to_bytes(many);
  auto read = bifrons::try_from_bytes<std::vector<V2>>(all, bifrons::read_options{.max_depth = 1});
  ASSERT_TRUE(read);
  EXPECT_EQ(*read, many);
  const auto shallow = bifrons::try_from_bytes<std::vector<V2>>(all, bifrons::read_options{.max_depth = 0});
  ASSERT_FALSE(shallow);
  EXPECT_EQ(shallow.code(), errc::depth_limit_exceeded);
  EXPECT_EQ(shallow.offset(), 1u);  // the first element's header, after the count
  // A struct around them: the elements are at depth 2.
  struct Holder {
    std::vector<V2> items;
    std::string after;
  };
  const bytes held = bifrons::to_bytes(Holder{many, tail});
  EXPECT_TRUE(bifrons::try_from_bytes<Holder>(held, bifrons::read_options{.max_depth = 2}));
  const auto one_level = bifrons::try_from_bytes<Holder>(held, bifrons::read_options{.max_depth = 1});
  ASSERT_FALSE(one_level);
  EXPECT_EQ(one_level.code(), errc::depth_limit_exceeded);
  EXPECT_EQ(one_level.offset(), held.size() - all.size() - bifrons::to_bytes(tail).size() + 1);
}

TEST(UncheckedBody, EveryTruncationFails) {
  // Cutting the encoding anywhere fails (never reads past the end, never succeeds).
  const V2 v{-123456789, 200, -1.25, Kind::a, false, {'x', 'y', 'z'}, 0xFFFF'FFFF'FFFFull, 12345};
  const bytes good = bifrons::to_bytes(v);
  for (std::size_t n = 0; n < good.size(); ++n) {
    const bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_FALSE(bifrons::try_from_bytes<V2>(cut).has_value()) << n;
  }
}

}  // namespace
