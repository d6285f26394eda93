// std::array and C arrays (bifrons/types/array.hpp): the elements with no count.
#include <bifrons/types/array.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

TEST(Array, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::array<std::int16_t, 2>{1, -2}), "01 00 fe ff");
  EXPECT_EQ(hex_of(std::array<int, 0>{}), "");
  EXPECT_EQ(hex_of(std::array<std::string, 3>{"a", "", "b"}), "01 61 00 01 62");
  EXPECT_EQ(hex_of(std::array<long, 1>{-1}), "ff ff ff ff ff ff ff ff");
  EXPECT_EQ(hex_of(std::array<wchar_t, 1>{L'z'}), "7a 00 00 00");
  EXPECT_EQ(hex_of(std::array<bool, 3>{true, false, true}), "01 00 01");
  EXPECT_EQ(hex_of(std::array<std::array<std::int8_t, 2>, 2>{{{1, -1}, {2, -2}}}), "01 ff 02 fe");
}

template <class A>
class ArrayOf : public ::testing::Test {};
using ArrayTypes =
    ::testing::Types<std::array<std::int8_t, 5>, std::array<std::uint16_t, 3>, std::array<std::int64_t, 4>,
                     std::array<long, 3>, std::array<unsigned long, 2>, std::array<char, 7>, std::array<char32_t, 2>,
                     std::array<wchar_t, 3>, std::array<float, 4>, std::array<double, 1>, std::array<bool, 9>,
                     std::array<std::byte, 16>, std::array<std::string, 3>, std::array<Point, 2>,
                     std::array<std::optional<int>, 4>, std::array<int, 0>>;
TYPED_TEST_SUITE(ArrayOf, ArrayTypes);

template <class A>
A array_sample(std::size_t first) {
  A a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = sample<typename A::value_type>(first + i);
  return a;
}

TYPED_TEST(ArrayOf, BytesAreTheElementsWithoutACount) {
  using T = typename TypeParam::value_type;
  const TypeParam a = array_sample<TypeParam>(3);
  const std::vector<T> elems(a.begin(), a.end());
  const bytes with_count = expected_sequence(elems);
  const bytes expected(with_count.begin() + static_cast<std::ptrdiff_t>(varint_bytes(elems.size()).size()),
                       with_count.end());
  EXPECT_EQ(hex_of(a), hex(expected));
}

TYPED_TEST(ArrayOf, RoundTripsAndReadsIntoExisting) {
  const TypeParam a = array_sample<TypeParam>(11);
  EXPECT_EQ(round_trip(a), a);
  TypeParam existing = array_sample<TypeParam>(500);
  read_into(a, existing);
  EXPECT_EQ(existing, a);
}

TYPED_TEST(ArrayOf, TruncatedInputFails) {
  const bytes b = bifrons::to_bytes(array_sample<TypeParam>(1));
  for (std::size_t keep = 0; keep < b.size(); ++keep) {
    auto r = bifrons::try_from_bytes<TypeParam>(bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(keep)));
    ASSERT_FALSE(r.has_value());
    EXPECT_TRUE(r.code() == errc::unexpected_end || r.code() == errc::count_exceeds_input)
        << bifrons::describe(r.code());
  }
}

TEST(Array, InvalidBlockElements) {
  EXPECT_TRUE((fails_with<std::array<bool, 2>>(B({0x02, 0x00}), errc::invalid_value, 0)));
  bytes wide;
  put_le(wide, std::uint64_t{1} << 32, 8);
  if constexpr (sizeof(long) == 4) {
    EXPECT_TRUE((fails_with<std::array<long, 1>>(wide, errc::value_out_of_range, 0)));
  } else {
    EXPECT_EQ(static_cast<std::int64_t>(bifrons::from_bytes<std::array<long, 1>>(wide)[0]), std::int64_t{1} << 32);
  }
}

TEST(Array, LargeArray) {
  auto a = std::make_unique<std::array<std::int32_t, 100000>>();
  for (std::size_t i = 0; i < a->size(); ++i) (*a)[i] = static_cast<std::int32_t>(i * 2654435761u);
  const bytes b = bifrons::to_bytes(*a);
  EXPECT_EQ(b.size(), 400000u);
  auto back = std::make_unique<std::array<std::int32_t, 100000>>();
  bifrons::from_bytes(b, *back);
  EXPECT_TRUE(*back == *a);
}

TEST(CArray, SameBytesAsStdArray) {
  const std::int16_t c[2] = {1, -2};
  EXPECT_EQ(hex_of(c), "01 00 fe ff");
  std::int16_t back[2] = {7, 7};
  bifrons::from_bytes(bifrons::to_bytes(c), back);
  EXPECT_EQ(back[0], 1);
  EXPECT_EQ(back[1], -2);

  const int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
  EXPECT_EQ(bifrons::to_bytes(grid), bifrons::to_bytes(std::array<std::array<int, 3>, 2>{{{1, 2, 3}, {4, 5, 6}}}));
  std::string names[2] = {"x", "yz"};
  EXPECT_EQ(hex_of(names), "01 78 02 79 7a");
}

/// C-array members are not found by reflection: they need a hook.
struct WithCArray {
  char tag[4] = {};
  std::string names[2];
  template <class Ar>
  void serialize(Ar& ar) {
    ar(tag, names);
  }
};

TEST(CArray, MembersThroughAHook) {
  WithCArray w{{'a', 'b', 'c', 'd'}, {"x", ""}};
  EXPECT_EQ(hex_of(w), "0e 61 62 63 64 01 78 00");
  const WithCArray back = round_trip(w);
  EXPECT_EQ(std::string(back.tag, 4), "abcd");
  EXPECT_EQ(back.names[0], "x");
  EXPECT_EQ(back.names[1], "");
}

TEST(Array, RangeTraitsAgreeWithTheStandardConcepts) {
  EXPECT_TRUE((range_traits_agree<std::array<std::int32_t, 3>>()));
  EXPECT_TRUE((range_traits_agree<const std::array<std::string, 2>>()));
  EXPECT_TRUE((range_traits_agree<std::int32_t[4]>()));
  EXPECT_TRUE((range_traits_agree<const double[2][3]>()));
  EXPECT_TRUE((range_traits_agree<std::span<const std::int32_t>>()));
  EXPECT_TRUE((range_traits_agree<std::span<std::string, 2>>()));
  EXPECT_TRUE((range_traits_agree<std::vector<bool>>()));  // a proxy reference; the value is bool
  EXPECT_TRUE((range_traits_agree<std::int32_t>()));
}

}  // namespace
}  // namespace bifrons_test
