// std::map and std::multimap (bifrons/types/map.hpp).
#include <bifrons/types/map.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "associative_suite.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

using MapTypes =
    ::testing::Types<std::map<int, std::string>, std::map<std::string, std::vector<int>>, std::map<std::string, Point>,
                     std::map<std::int64_t, double>, std::map<char, bool>, std::map<std::uint16_t, std::optional<int>>,
                     std::multimap<int, int>, std::multimap<std::string, std::optional<int>>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Map, AssociativeSuite, MapTypes);

TEST(Map, KeyThenValue) {
  EXPECT_EQ(hex_of(std::map<int, std::string>{{2, "b"}, {1, "a"}}), "02 02 01 61 04 01 62");
  EXPECT_EQ(hex_of(std::map<std::string, std::vector<int>>{{"k", {1, -1}}}), "01 01 6b 02 01 00 00 00 ff ff ff ff");
  EXPECT_EQ(hex_of(std::multimap<int, int>{{1, 1}, {1, 2}}), "02 02 02 02 04");
}

TEST(Map, DuplicateKey) {
  EXPECT_TRUE((fails_with<std::map<int, std::string>>(B({0x02, 0x02, 0x01, 0x61, 0x02, 0x01, 0x62}),
                                                      errc::duplicate_key, 4)));
  const auto multi =
      bifrons::from_bytes<std::multimap<int, std::string>>(B({0x02, 0x02, 0x01, 0x61, 0x02, 0x01, 0x62}));
  EXPECT_EQ(multi.count(1), 2u);
}

TEST(Map, NestedValues) {
  const std::map<std::string, std::map<int, std::vector<std::string>>> m{
      {"a", {{1, {"x", "y"}}, {2, {}}}}, {"b", {}}, {"", {{-1, {""}}}}};
  EXPECT_EQ(round_trip(m), m);
  const std::vector<std::map<int, Point>> v{{{1, {1, "p"}}}, {}};
  EXPECT_EQ(round_trip(v), v);
}

TEST(Map, ReadIntoExistingStructValues) {
  std::map<int, Point> existing{{1, {100, "stale"}}, {2, {200, "stale"}}};
  const std::map<int, Point> incoming{{1, {1, ""}}};
  read_into(incoming, existing);
  EXPECT_EQ(existing, incoming);
}

TEST(Map, KeysAndValuesWithoutDefaultConstructor) {
  const std::map<int, Made> by_id{{1, Made(1, "a")}};
  EXPECT_EQ(hex_of(by_id), "01 02 06 02 01 61");
  EXPECT_TRUE(reads_as(B({0x01, 0x02, 0x06, 0x02, 0x01, 0x61}), by_id));
  const std::map<Made, int> by_made{{Made(1, "a"), 5}};
  EXPECT_EQ(hex_of(by_made), "01 06 02 01 61 0a");
  EXPECT_TRUE(reads_as(B({0x01, 0x06, 0x02, 0x01, 0x61, 0x0a}), by_made));
  const std::set<Made> set{Made(1, "a"), Made(2, "b")};
  EXPECT_TRUE(reads_as(bifrons::to_bytes(set), set));
  EXPECT_TRUE(fails_with<std::set<Made>>(B({0x02, 0x06, 0x02, 0x01, 0x61, 0x06, 0x02, 0x01, 0x62}), errc::duplicate_key,
                                         5));
}
}  // namespace
}  // namespace bifrons_test
