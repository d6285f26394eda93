// std::queue, std::stack, std::priority_queue (bifrons/types/adapters.hpp): written as their
// underlying container; a priority_queue is re-heapified when read.
#include <bifrons/types/adapters.hpp>

#include <deque>
#include <functional>
#include <list>
#include <queue>
#include <stack>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

/// Pops everything, in the adapter's own order.
template <class A>
auto drain(A a) {
  std::vector<typename A::value_type> out;
  while (!a.empty()) {
    if constexpr (requires { a.front(); })
      out.push_back(a.front());
    else
      out.push_back(a.top());
    a.pop();
  }
  return out;
}

template <class A>
class AdapterOf : public ::testing::Test {};
using AdapterTypes = ::testing::Types<std::queue<int>, std::queue<std::string, std::list<std::string>>,
                                      std::stack<long>, std::stack<Point, std::vector<Point>>, std::priority_queue<int>,
                                      std::priority_queue<double, std::vector<double>, std::greater<>>,
                                      std::priority_queue<std::string, std::deque<std::string>>>;
TYPED_TEST_SUITE(AdapterOf, AdapterTypes);

TYPED_TEST(AdapterOf, RoundTripsInTheSameOrder) {
  for (std::size_t n : {0u, 1u, 7u, 1000u}) {
    TypeParam a;
    for (std::size_t i = 0; i < n; ++i) a.push(sample<typename TypeParam::value_type>(i));
    const TypeParam back = round_trip(a);
    EXPECT_EQ(back.size(), n);
    EXPECT_EQ(drain(back), drain(a)) << "n = " << n;
  }
}

TYPED_TEST(AdapterOf, ReadIntoExistingReplacesTheContents) {
  TypeParam existing;
  for (std::size_t i = 0; i < 20; ++i) existing.push(sample<typename TypeParam::value_type>(i + 100));
  TypeParam incoming;
  for (std::size_t i = 0; i < 3; ++i) incoming.push(sample<typename TypeParam::value_type>(i));
  read_into(incoming, existing);
  EXPECT_EQ(drain(existing), drain(incoming));
}

TEST(Adapter, QueueAndStackAreTheirContainers) {
  std::queue<int> q;
  std::stack<int, std::vector<int>> s;
  for (int i : {1, 2, 3}) {
    q.push(i);
    s.push(i);
  }
  EXPECT_EQ(hex_of(q), "03 01 00 00 00 02 00 00 00 03 00 00 00");
  EXPECT_EQ(bifrons::to_bytes(q), bifrons::to_bytes(std::deque<int>{1, 2, 3}));
  EXPECT_EQ(bifrons::to_bytes(s), bifrons::to_bytes(std::vector<int>{1, 2, 3}));
  // The stack's top is the last element written.
  using Stack = std::stack<int, std::vector<int>>;
  EXPECT_EQ(bifrons::from_bytes<Stack>(bifrons::to_bytes(std::vector<int>{4, 5})).top(), 5);
}

TEST(Adapter, PriorityQueueIsReheapifiedFromHostileOrder) {
  // {1, 2, 3} is not a max-heap; reading must restore the invariant.
  const bytes b = bifrons::to_bytes(std::vector<int>{1, 2, 3});
  const auto pq = bifrons::from_bytes<std::priority_queue<int>>(b);
  EXPECT_EQ(drain(pq), (std::vector<int>{3, 2, 1}));
  const auto min_first = bifrons::from_bytes<std::priority_queue<int, std::vector<int>, std::greater<>>>(
      bifrons::to_bytes(std::vector<int>{3, 1, 2}));
  EXPECT_EQ(drain(min_first), (std::vector<int>{1, 2, 3}));
}

TEST(Adapter, ErrorsComeFromTheContainer) {
  EXPECT_TRUE(fails_with<std::queue<int>>(B({0x02, 0x00, 0x00}), bifrons::errc::count_exceeds_input, 0, 6));
}

}  // namespace
}  // namespace bifrons_test
