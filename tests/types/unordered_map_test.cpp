// std::unordered_map and std::unordered_multimap (bifrons/types/unordered_map.hpp).
#include <bifrons/types/unordered_map.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "associative_suite.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

using UnorderedMapTypes =
    ::testing::Types<std::unordered_map<int, std::string>, std::unordered_map<std::string, std::vector<int>>,
                     std::unordered_map<std::uint64_t, Point>, std::unordered_multimap<int, int>,
                     std::unordered_multimap<std::string, std::string>>;
INSTANTIATE_TYPED_TEST_SUITE_P(UnorderedMap, AssociativeSuite, UnorderedMapTypes);

TEST(UnorderedMap, SingleElement) { EXPECT_EQ(hex_of(std::unordered_map<int, std::string>{{-1, "x"}}), "01 01 01 78"); }

TEST(UnorderedMap, DuplicateKey) {
  EXPECT_TRUE((fails_with<std::unordered_map<int, int>>(B({0x03, 0x02, 0x00, 0x04, 0x00, 0x02, 0x06}),
                                                        errc::duplicate_key, 5)));
  const auto multi = bifrons::from_bytes<std::unordered_multimap<int, int>>(B({0x02, 0x02, 0x00, 0x02, 0x06}));
  EXPECT_EQ(multi.count(1), 2u);
}

TEST(UnorderedMap, NestedValues) {
  const std::unordered_map<std::string, std::unordered_map<int, std::vector<std::string>>> m{
      {"a", {{1, {"x"}}, {2, {}}}}, {"b", {}}};
  EXPECT_EQ(round_trip(m), m);
}

}  // namespace
}  // namespace bifrons_test
