// std::deque (bifrons/types/deque.hpp): the sequence encoding, the same bytes as std::vector.
#include <bifrons/types/deque.hpp>

#include <cstdint>
#include <deque>
#include <string>

#include "sequence_suite.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

using DequeTypes =
    ::testing::Types<std::deque<std::int8_t>, std::deque<std::uint16_t>, std::deque<std::int32_t>,
                     std::deque<std::int64_t>, std::deque<long>, std::deque<unsigned long>, std::deque<char>,
                     std::deque<char16_t>, std::deque<wchar_t>, std::deque<float>, std::deque<double>, std::deque<bool>,
                     std::deque<std::byte>, std::deque<std::string>, std::deque<Point>, std::deque<std::vector<int>>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Deque, SequenceSuite, DequeTypes);

TEST(Deque, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::deque<std::int16_t>{1, -2}), "02 01 00 fe ff");
  EXPECT_EQ(hex_of(std::deque<long>{-2}), "01 fe ff ff ff ff ff ff ff");
  EXPECT_EQ(hex_of(std::deque<std::string>{"hi"}), "01 02 68 69");
}

TEST(Deque, BoolElementsAreOneByteEach) {
  // Unlike vector<bool>, a deque<bool> is an ordinary block of 0/1 bytes.
  EXPECT_EQ(hex_of(std::deque<bool>{true, false, true}), "03 01 00 01");
  EXPECT_TRUE(fails_with<std::deque<bool>>(B({0x01, 0x02}), errc::invalid_value, 1));
  EXPECT_TRUE(fails_with<std::deque<bool>>(B({0x01, 0xff}), errc::invalid_value, 1));
}

TEST(Deque, NestedDeques) {
  const std::deque<std::deque<std::string>> d{{"x"}, {}, {"y", "z"}};
  EXPECT_EQ(round_trip(d), d);
  // Same bytes as the vector form: a field may change between the two.
  const std::vector<std::vector<std::string>> v{{"x"}, {}, {"y", "z"}};
  EXPECT_EQ(bifrons::to_bytes(d), bifrons::to_bytes(v));
}

}  // namespace
}  // namespace bifrons_test
