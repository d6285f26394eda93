// std::list (bifrons/types/list.hpp): the sequence encoding, the same bytes as std::vector.
#include <bifrons/types/list.hpp>

#include <cstdint>
#include <list>
#include <string>

#include "sequence_suite.hpp"

namespace bifrons_test {
namespace {

using ListTypes =
    ::testing::Types<std::list<std::int8_t>, std::list<std::uint32_t>, std::list<std::int64_t>, std::list<long>,
                     std::list<char32_t>, std::list<wchar_t>, std::list<double>, std::list<bool>, std::list<std::byte>,
                     std::list<std::string>, std::list<Point>, std::list<std::optional<int>>>;
INSTANTIATE_TYPED_TEST_SUITE_P(List, SequenceSuite, ListTypes);

TEST(List, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::list<std::int16_t>{1, -2}), "02 01 00 fe ff");
  EXPECT_EQ(hex_of(std::list<unsigned long>{1}), "01 01 00 00 00 00 00 00 00");
  EXPECT_EQ(hex_of(std::list<std::string>{"", "a"}), "02 00 01 61");
}

TEST(List, NestedLists) {
  const std::list<std::list<int>> l{{1, 2, 3}, {}, {-4}};
  EXPECT_EQ(round_trip(l), l);
  EXPECT_EQ(bifrons::to_bytes(l), bifrons::to_bytes(std::vector<std::vector<int>>{{1, 2, 3}, {}, {-4}}));
}

TEST(List, ReadIntoExistingListKeepsNoStaleNodes) {
  std::list<Point> existing{{1, "one"}, {2, "two"}, {3, "three"}};
  const std::list<Point> incoming{{9, ""}};
  read_into(incoming, existing);
  EXPECT_EQ(existing, incoming);
}

}  // namespace
}  // namespace bifrons_test
