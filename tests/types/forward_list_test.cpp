// std::forward_list (bifrons/types/forward_list.hpp): the sequence encoding, the same bytes as
// std::vector, although forward_list has no size() (the count is computed by walking it).
#include <bifrons/types/forward_list.hpp>

#include <cstdint>
#include <forward_list>
#include <string>

#include "sequence_suite.hpp"

namespace bifrons_test {
namespace {

using ForwardListTypes = ::testing::Types<std::forward_list<std::int8_t>, std::forward_list<std::uint64_t>,
                                          std::forward_list<long>, std::forward_list<wchar_t>, std::forward_list<float>,
                                          std::forward_list<bool>, std::forward_list<std::string>,
                                          std::forward_list<Point>, std::forward_list<std::pair<int, std::string>>>;
INSTANTIATE_TYPED_TEST_SUITE_P(ForwardList, SequenceSuite, ForwardListTypes);

TEST(ForwardList, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::forward_list<std::int16_t>{1, -2}), "02 01 00 fe ff");
  EXPECT_EQ(hex_of(std::forward_list<std::string>{"ab"}), "01 02 61 62");
  EXPECT_EQ(bifrons::serialized_size(std::forward_list<long>(300)), 2u + 300u * 8u);
}

TEST(ForwardList, NestedInVector) {
  const std::vector<std::forward_list<std::string>> v{{"a", "b"}, {}, {"c"}};
  EXPECT_EQ(round_trip(v), v);
  EXPECT_EQ(bifrons::to_bytes(v), bifrons::to_bytes(std::vector<std::vector<std::string>>{{"a", "b"}, {}, {"c"}}));
}

}  // namespace
}  // namespace bifrons_test
