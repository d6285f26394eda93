// std::unique_ptr to a non-polymorphic type (bifrons/types/memory.hpp): varint tag 0 (null) or
// 1 followed by the value; other tags are reserved and rejected.
#include <bifrons/types/memory.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

TEST(UniquePtr, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::unique_ptr<int>{}), "00");
  EXPECT_EQ(hex_of(std::make_unique<int>(5)), "01 0a");
  EXPECT_EQ(hex_of(std::make_unique<std::string>("ab")), "01 02 61 62");
  EXPECT_EQ(hex_of(std::make_unique<std::unique_ptr<int>>()), "01 00");
}

TEST(UniquePtr, RoundTrips) {
  EXPECT_EQ(round_trip(std::unique_ptr<int>{}), nullptr);
  const auto i = round_trip(std::make_unique<std::int64_t>(std::numeric_limits<std::int64_t>::min()));
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(*i, std::numeric_limits<std::int64_t>::min());
  const auto s = round_trip(std::make_unique<std::vector<std::string>>(std::vector<std::string>{"a", "b"}));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(*s, (std::vector<std::string>{"a", "b"}));
  const auto p = round_trip(std::make_unique<Point>(Point{-4, "four"}));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, (Point{-4, "four"}));
  const auto nested = round_trip(std::make_unique<std::unique_ptr<int>>(std::make_unique<int>(9)));
  ASSERT_TRUE(nested && *nested);
  EXPECT_EQ(**nested, 9);
}

TEST(UniquePtr, ReservedTagsAreInvalid) {
  EXPECT_TRUE(fails_with<std::unique_ptr<int>>(B({0x02, 0x00}), errc::invalid_value, 0));
  EXPECT_TRUE(fails_with<std::unique_ptr<int>>(B({0x03}), errc::invalid_value, 0));
  EXPECT_TRUE(fails_with<std::unique_ptr<int>>(B({0x80, 0x01}), errc::invalid_value, 0));
  EXPECT_TRUE((fails_with<std::pair<int, std::unique_ptr<int>>>(B({0x00, 0x02}), errc::invalid_value, 1)));
  EXPECT_TRUE(fails_with<std::unique_ptr<int>>(B({0x80, 0x00}), errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<std::unique_ptr<int>>(B({0x01}), errc::unexpected_end, 1));
}

TEST(UniquePtr, ReadIntoExistingReusesTheObject) {
  auto existing = std::make_unique<Point>(Point{1, "stale"});
  const Point* address = existing.get();
  read_into(std::make_unique<Point>(Point{2, ""}), existing);
  ASSERT_NE(existing, nullptr);
  EXPECT_EQ(existing.get(), address);
  EXPECT_EQ(*existing, (Point{2, ""}));
  read_into(std::unique_ptr<Point>{}, existing);
  EXPECT_EQ(existing, nullptr);
}

TEST(UniquePtr, AllocationIsChargedToTheBudget) {
  using Big = std::unique_ptr<std::array<char, 1000>>;
  const bytes b = bifrons::to_bytes(std::make_unique<std::array<char, 1000>>());
  auto poor = bifrons::try_from_bytes<Big>(b, bifrons::read_options{.max_alloc_bytes = 999});
  ASSERT_FALSE(poor);
  EXPECT_EQ(poor.code(), errc::allocation_limit_exceeded);
  EXPECT_TRUE(bifrons::try_from_bytes<Big>(b, bifrons::read_options{.max_alloc_bytes = 1000}));
}

/// An aggregate with move-only members: reflection handles them.
struct Holder {
  std::unique_ptr<std::string> name;
  std::vector<std::unique_ptr<int>> items;
};

TEST(UniquePtr, MoveOnlyAggregateMembers) {
  Holder h;
  h.name = std::make_unique<std::string>("n");
  h.items.push_back(std::make_unique<int>(1));
  h.items.push_back(nullptr);
  // body: 01 01 6e | 02 01 02 00 -> 7 bytes, header 0e.
  EXPECT_EQ(hex_of(h), "0e 01 01 6e 02 01 02 00");
  const Holder back = round_trip(h);
  ASSERT_TRUE(back.name);
  EXPECT_EQ(*back.name, "n");
  ASSERT_EQ(back.items.size(), 2u);
  ASSERT_TRUE(back.items[0]);
  EXPECT_EQ(*back.items[0], 1);
  EXPECT_EQ(back.items[1], nullptr);
}

/// A singly linked list: each node is a struct envelope nested in the previous one.
struct Node {
  int value = 0;
  std::unique_ptr<Node> next;
};

std::unique_ptr<Node> chain(int n) {
  std::unique_ptr<Node> head;
  for (int i = n; i > 0; --i) head = std::make_unique<Node>(Node{i, std::move(head)});
  return head;
}

int length(const Node* n) {
  int k = 0;
  for (; n; n = n->next.get()) ++k;
  return k;
}

TEST(UniquePtr, RecursiveStructsAndTheDepthLimit) {
  // Nodes nest one struct per element: the default max_depth (64) allows 64 of them.
  const bytes ok = bifrons::to_bytes(chain(64));
  const auto back = bifrons::from_bytes<std::unique_ptr<Node>>(ok);
  EXPECT_EQ(length(back.get()), 64);
  EXPECT_EQ(back->value, 1);

  const bytes deep = bifrons::to_bytes(chain(65));
  auto r = bifrons::try_from_bytes<std::unique_ptr<Node>>(deep);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::depth_limit_exceeded);
  auto allowed = bifrons::try_from_bytes<std::unique_ptr<Node>>(deep, bifrons::read_options{.max_depth = 65});
  ASSERT_TRUE(allowed);
  EXPECT_EQ(length(allowed->get()), 65);
}

}  // namespace
}  // namespace bifrons_test
