// std::set and std::multiset (bifrons/types/set.hpp).
#include <bifrons/types/set.hpp>

#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "associative_suite.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

using SetTypes = ::testing::Types<std::set<int>, std::set<std::int8_t>, std::set<std::uint64_t>, std::set<long>,
                                  std::set<char>, std::set<double>, std::set<std::string>,
                                  std::set<int, std::greater<>>, std::multiset<int>, std::multiset<std::string>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Set, AssociativeSuite, SetTypes);

TEST(Set, IntegersAreVarintsNotABlock) {
  // Sorted: -1 (zigzag 01), 1 (02), 300 (zigzag 600 = d8 04).
  EXPECT_EQ(hex_of(std::set<int>{1, -1, 300}), "03 01 02 d8 04");
  EXPECT_EQ(hex_of(std::set<int, std::greater<>>{1, -1, 300}), "03 d8 04 02 01");
  EXPECT_EQ(hex_of(std::set<std::string>{"b", "a"}), "02 01 61 01 62");
  EXPECT_EQ(hex_of(std::multiset<int>{5, 5}), "02 0a 0a");
}

TEST(Set, DuplicateKey) {
  EXPECT_TRUE(fails_with<std::set<int>>(B({0x02, 0x02, 0x02}), errc::duplicate_key, 2));
  EXPECT_TRUE(fails_with<std::set<std::string>>(B({0x03, 0x01, 0x61, 0x01, 0x62, 0x01, 0x61}), errc::duplicate_key, 5));
  EXPECT_TRUE(reads_as(B({0x02, 0x02, 0x02}), std::multiset<int>{1, 1}));
}

TEST(Set, InvalidElementIsReportedInside) {
  EXPECT_TRUE(fails_with<std::set<bool>>(B({0x02, 0x00, 0x02}), errc::invalid_value, 2));
  EXPECT_TRUE(fails_with<std::set<std::uint8_t>>(B({0x01, 0x80, 0x02}), errc::value_out_of_range, 1));
}

TEST(Set, NestedContainers) {
  const std::set<std::set<int>> nested{{}, {1, 2}, {-3}};
  EXPECT_EQ(round_trip(nested), nested);
  const std::vector<std::multiset<std::string>> v{{"a", "a"}, {}};
  EXPECT_EQ(round_trip(v), v);
}

}  // namespace
}  // namespace bifrons_test
