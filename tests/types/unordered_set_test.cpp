// std::unordered_set and std::unordered_multiset (bifrons/types/unordered_set.hpp). The byte
// order depends on the hash, so expectations iterate the container itself.
#include <bifrons/types/unordered_set.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <unordered_set>

#include "associative_suite.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

using UnorderedSetTypes =
    ::testing::Types<std::unordered_set<int>, std::unordered_set<std::uint64_t>, std::unordered_set<std::string>,
                     std::unordered_set<char16_t>, std::unordered_multiset<int>, std::unordered_multiset<std::string>>;
INSTANTIATE_TYPED_TEST_SUITE_P(UnorderedSet, AssociativeSuite, UnorderedSetTypes);

TEST(UnorderedSet, SingleElement) {
  EXPECT_EQ(hex_of(std::unordered_set<int>{7}), "01 0e");
  EXPECT_EQ(hex_of(std::unordered_set<std::string>{"hi"}), "01 02 68 69");
}

TEST(UnorderedSet, DuplicateKey) {
  EXPECT_TRUE(fails_with<std::unordered_set<int>>(B({0x02, 0x02, 0x02}), errc::duplicate_key, 2));
  EXPECT_TRUE(reads_as(B({0x03, 0x02, 0x04, 0x02}), std::unordered_multiset<int>{1, 2, 1}));
}

TEST(UnorderedSet, SameElementsAsASetReadBack) {
  // Any order is accepted on reading: a std::set's bytes read as an unordered_set.
  const std::set<int> ordered{5, -3, 1000, 0};
  EXPECT_TRUE(reads_as(bifrons::to_bytes(ordered), std::unordered_set<int>(ordered.begin(), ordered.end())));
}

}  // namespace
}  // namespace bifrons_test
