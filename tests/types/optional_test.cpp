// std::optional (bifrons/types/optional.hpp): one byte 0/1, then the value if there is one.
#include <bifrons/types/optional.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

TEST(Optional, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::optional<int>{}), "00");
  EXPECT_EQ(hex_of(std::optional<int>{5}), "01 0a");
  EXPECT_EQ(hex_of(std::optional<std::string>{""}), "01 00");
  EXPECT_EQ(hex_of(std::optional<std::optional<bool>>{std::optional<bool>{}}), "01 00");
  EXPECT_EQ(hex_of(std::optional<std::optional<bool>>{true}), "01 01 01");
}

template <class T>
class OptionalOf : public ::testing::Test {};
using OptionalTypes =
    ::testing::Types<std::optional<int>, std::optional<bool>, std::optional<double>, std::optional<std::string>,
                     std::optional<Point>, std::optional<std::vector<std::string>>,
                     std::optional<std::vector<std::optional<int>>>, std::optional<std::optional<int>>,
                     std::optional<std::map<std::string, std::vector<int>>>>;
TYPED_TEST_SUITE(OptionalOf, OptionalTypes);

template <class O>
O engaged_sample() {
  using T = typename O::value_type;
  if constexpr (std::is_same_v<T, std::vector<std::string>>)
    return T{"a", "", "long string"};
  else if constexpr (std::is_same_v<T, std::vector<std::optional<int>>>)
    return T{1, std::nullopt, -3};
  else if constexpr (std::is_same_v<T, std::optional<int>>)
    return T{42};
  else if constexpr (std::is_same_v<T, std::map<std::string, std::vector<int>>>)
    return T{{"x", {1, 2}}, {"y", {}}};
  else
    return sample<T>(3);
}

TYPED_TEST(OptionalOf, EmptyAndEngagedRoundTrip) {
  const TypeParam none;
  EXPECT_EQ(hex_of(none), "00");
  EXPECT_EQ(round_trip(none), none);
  const TypeParam some = engaged_sample<TypeParam>();
  EXPECT_EQ(round_trip(some), some);
  EXPECT_EQ(hex_of(some), hex(cat({B({0x01}), bifrons::to_bytes(*some)})));
}

TYPED_TEST(OptionalOf, ReadIntoExisting) {
  const TypeParam some = engaged_sample<TypeParam>();
  TypeParam existing = some;
  read_into(TypeParam{}, existing);
  EXPECT_FALSE(existing.has_value());
  read_into(some, existing);
  EXPECT_EQ(existing, some);
}

TYPED_TEST(OptionalOf, TagOtherThanZeroOrOneIsInvalid) {
  EXPECT_TRUE(fails_with<TypeParam>(B({0x02}), errc::invalid_value, 0));
  EXPECT_TRUE(fails_with<TypeParam>(B({0xff, 0x00}), errc::invalid_value, 0));
  EXPECT_TRUE((fails_with<std::pair<std::uint8_t, TypeParam>>(B({0x00, 0x02}), errc::invalid_value, 1)));
}

TYPED_TEST(OptionalOf, MissingValueIsUnexpectedEnd) {
  EXPECT_TRUE(fails_with<TypeParam>(B({0x01}), errc::unexpected_end, 1,
                                    min_encoded_size<typename TypeParam::value_type>()));
  EXPECT_TRUE(fails_with<TypeParam>(bytes{}, errc::unexpected_end, 0, 1));
}

TEST(Optional, ReadIntoEngagedStructResetsStaleFields) {
  std::optional<Point> existing = Point{99, "stale"};
  read_into(std::optional<Point>{Point{1, ""}}, existing);
  ASSERT_TRUE(existing);
  EXPECT_EQ(*existing, (Point{1, ""}));
}

TEST(Optional, OfATypeWithoutDefaultConstructor) {
  // Made has no default constructor: its load_and_construct makes it, in the optional.
  EXPECT_EQ(hex_of(std::optional<Made>(Made(1, "a"))), "01 06 02 01 61");
  EXPECT_TRUE(reads_as(B({0x01, 0x06, 0x02, 0x01, 0x61}), std::optional<Made>(Made(1, "a"))));
  std::optional<Made> existing = Made(9, "old");
  bifrons::from_bytes(B({0x01, 0x06, 0x02, 0x01, 0x61}), existing);  // replaced by a new one
  EXPECT_EQ(existing, Made(1, "a"));
  bifrons::from_bytes(B({0x00}), existing);
  EXPECT_FALSE(existing);
  EXPECT_TRUE(fails_with<std::optional<Made>>(B({0x01, 0x06, 0x02}), errc::unexpected_end, 3, 2));
}

TEST(Optional, OfConst) {
  // Written as optional<T>; read by replacing the value (a const value cannot be read into).
  EXPECT_EQ(hex_of(std::optional<const std::string>("ab")), "01 02 61 62");
  std::optional<const std::string> existing = "old";
  bifrons::from_bytes(B({0x01, 0x02, 0x61, 0x62}), existing);
  ASSERT_TRUE(existing);
  EXPECT_EQ(*existing, "ab");
  EXPECT_TRUE(reads_as(B({0x01, 0x06, 0x02, 0x01, 0x61}), std::optional<const Made>(Made(1, "a"))));
  EXPECT_TRUE(reads_as(B({0x01, 0x04, 0x02, 0x00}), std::optional<const Point>(Point{1, ""})));
}
}  // namespace
}  // namespace bifrons_test
