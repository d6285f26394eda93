// std::variant and std::monostate (bifrons/types/variant.hpp): varint(index), then the
// alternative; monostate takes no bytes; an index past the alternatives is invalid_value.
#include <bifrons/types/memory.hpp>
#include <bifrons/types/variant.hpp>
#include <bifrons/types/vector.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

TEST(Variant, HandComputedBytes) {
  using V = std::variant<int, std::string>;
  EXPECT_EQ(hex_of(V{5}), "00 0a");
  EXPECT_EQ(hex_of(V{std::string("ab")}), "01 02 61 62");
  EXPECT_EQ(hex_of(std::variant<std::monostate, int>{}), "00");
  EXPECT_EQ(hex_of(std::monostate{}), "");
  EXPECT_EQ(bifrons::serialized_size(std::monostate{}), 0u);
  EXPECT_EQ(hex_of(std::variant<int, int>{std::in_place_index<1>, -1}), "01 01");
}

template <class V>
class VariantOf : public ::testing::Test {};
using VariantTypes =
    ::testing::Types<std::variant<int>, std::variant<std::monostate, int, std::string>, std::variant<int, int>,
                     std::variant<bool, double, Point, std::vector<std::string>>,
                     std::variant<std::optional<int>, std::vector<int>, std::monostate>>;
TYPED_TEST_SUITE(VariantOf, VariantTypes);

template <class V, std::size_t I>
V alternative_sample(std::size_t i) {
  using T = std::variant_alternative_t<I, V>;
  if constexpr (std::is_same_v<T, std::monostate>)
    return V{std::in_place_index<I>};
  else if constexpr (std::is_same_v<T, std::vector<std::string>>)
    return V{std::in_place_index<I>, T{"a", "b"}};
  else
    return V{std::in_place_index<I>, sample<T>(i)};
}

template <class V, class F>
void for_each_alternative(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<std::variant_size_v<V>>{});
}

TYPED_TEST(VariantOf, EveryAlternativeRoundTripsWithItsIndex) {
  for_each_alternative<TypeParam>([](auto index) {
    constexpr std::size_t I = decltype(index)::value;
    const TypeParam v = alternative_sample<TypeParam, I>(5);
    const TypeParam back = round_trip(v);
    EXPECT_EQ(back.index(), I);
    EXPECT_EQ(back, v);
    EXPECT_EQ(hex_of(v), hex(cat({varint_bytes(I), bifrons::to_bytes(std::get<I>(v))})));
  });
}

TYPED_TEST(VariantOf, ReadIntoExistingSwitchesAlternative) {
  constexpr std::size_t last = std::variant_size_v<TypeParam> - 1;
  for_each_alternative<TypeParam>([](auto index) {
    constexpr std::size_t I = decltype(index)::value;
    TypeParam existing = alternative_sample<TypeParam, last - I>(9);
    const TypeParam incoming = alternative_sample<TypeParam, I>(2);
    read_into(incoming, existing);
    EXPECT_EQ(existing.index(), I);
    EXPECT_EQ(existing, incoming);
  });
}

TYPED_TEST(VariantOf, IndexOutOfRangeIsInvalid) {
  constexpr std::size_t n = std::variant_size_v<TypeParam>;
  EXPECT_TRUE(fails_with<TypeParam>(varint_bytes(n), errc::invalid_value, 0));
  EXPECT_TRUE(fails_with<TypeParam>(varint_bytes(~std::uint64_t{0}), errc::invalid_value, 0));
  EXPECT_TRUE((fails_with<std::pair<bool, TypeParam>>(cat({B({0x01}), varint_bytes(n + 1)}), errc::invalid_value, 1)));
  EXPECT_TRUE(fails_with<TypeParam>(B({0x80, 0x00}), errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<TypeParam>(bytes{}, errc::unexpected_end, 0, 1));
}

TEST(Variant, TruncatedAlternative) {
  EXPECT_TRUE((fails_with<std::variant<int, std::string>>(B({0x01}), errc::unexpected_end, 1, 1)));
  EXPECT_TRUE((fails_with<std::variant<int, std::string>>(B({0x01, 0x03, 0x61}), errc::count_exceeds_input, 1, 2)));
}

TEST(Variant, ReadIntoSameAlternativeResetsStaleStructFields) {
  std::variant<int, Point> existing = Point{99, "stale"};
  read_into(std::variant<int, Point>{Point{1, ""}}, existing);
  EXPECT_EQ(std::get<Point>(existing), (Point{1, ""}));
}

TEST(Variant, Nested) {
  using Inner = std::variant<int, std::string>;
  using Outer = std::variant<std::vector<Inner>, std::monostate, Inner>;
  const std::vector<Outer> v{Outer{std::vector<Inner>{1, std::string("x")}}, Outer{}, Outer{Inner{"y"}}};
  EXPECT_EQ(round_trip(v), v);
}

/// Its converting constructor throws, which leaves a variant valueless_by_exception (the string
/// member makes it non-trivially-copyable, so emplace constructs in place).
struct Throws {
  std::string text;
  Throws() = default;
  explicit Throws(int) { throw std::runtime_error("no"); }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(text);
  }
};

TEST(Variant, ValuelessIsWrittenWithAnIndexReadersRefuse) {
  std::variant<int, Throws> v;
  EXPECT_THROW(v.emplace<1>(0), std::runtime_error);
  ASSERT_TRUE(v.valueless_by_exception());
  EXPECT_EQ(hex_of(v), "02");
  EXPECT_TRUE((fails_with<std::variant<int, Throws>>(bifrons::to_bytes(v), errc::invalid_value, 0)));
}

TEST(Variant, AlternativeWithoutDefaultConstructor) {
  using V = std::variant<int, Made>;
  EXPECT_EQ(hex_of(V(Made(1, "a"))), "01 06 02 01 61");
  V existing = 5;  // another alternative: Made is made by its load_and_construct
  bifrons::from_bytes(B({0x01, 0x06, 0x02, 0x01, 0x61}), existing);
  ASSERT_EQ(existing.index(), 1u);
  EXPECT_EQ(std::get<1>(existing), Made(1, "a"));
  bifrons::from_bytes(B({0x01, 0x06, 0x04, 0x01, 0x62}), existing);  // the same alternative
  EXPECT_EQ(std::get<1>(existing), Made(2, "b"));
  EXPECT_TRUE(reads_as(B({0x01, 0x00}), V(Made(0, "missing"))));  // an empty envelope: the hook's defaults
}

// The pointer scan looks into every alternative: a variant that may hold a shared_ptr makes the
// value track objects, so an object reached twice through variants is written once and read
// back as one object.
TEST(Variant, AlternativesTakePartInObjectIdentity) {
  static_assert(bifrons::detail::may_hold_pointers<std::variant<int, std::shared_ptr<int>>>());
  static_assert(!bifrons::detail::may_hold_pointers<std::variant<std::monostate, int, std::string>>());
  using V = std::variant<int, std::shared_ptr<std::string>>;
  const auto shared = std::make_shared<std::string>("shared");
  const std::vector<V> written{shared, 7, shared};
  const std::vector<V> read = round_trip(written);
  ASSERT_EQ(read.size(), 3u);
  ASSERT_EQ(read[0].index(), 1u);
  ASSERT_EQ(read[2].index(), 1u);
  EXPECT_EQ(*std::get<1>(read[0]), "shared");
  EXPECT_EQ(std::get<1>(read[0]), std::get<1>(read[2]));  // one object, as written
  EXPECT_EQ(std::get<0>(read[1]), 7);
}
}  // namespace
}  // namespace bifrons_test
