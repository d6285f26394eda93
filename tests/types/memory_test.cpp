// std::unique_ptr, std::shared_ptr and std::weak_ptr (bifrons/types/memory.hpp): the pointer
// encoding of docs/format.md, "Pointers": tag 0 (null), 1 (a new object, then its encoding) or
// 3 + k (a reference to the object with id k + 1).
#include <bifrons/types/memory.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
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
  EXPECT_TRUE(fails_with<std::unique_ptr<int>>(B({0x01}), errc::unexpected_end, 1, 1));
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
  // The object, and its entry in the reader's object table.
  constexpr std::size_t cost = 1000 + bifrons::detail::object_entry_cost;
  auto poor = bifrons::try_from_bytes<Big>(b, bifrons::read_options{.max_alloc_bytes = cost - 1});
  ASSERT_FALSE(poor);
  EXPECT_EQ(poor.code(), errc::allocation_limit_exceeded);
  EXPECT_TRUE(bifrons::try_from_bytes<Big>(b, bifrons::read_options{.max_alloc_bytes = cost}));
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

TEST(UniquePtr, ABackReferenceIsInvalid) {
  // Object 1 is the shared int; a unique_ptr cannot share it.
  using T = std::tuple<std::shared_ptr<int>, std::unique_ptr<int>>;
  EXPECT_TRUE(fails_with<T>(B({0x01, 0x02, 0x03}), errc::invalid_value, 2));
}

TEST(UniquePtr, WritingADeepChainFailsCleanly) {
  // The writer recurses once per pointer: past write_session::max_depth it refuses the value
  // rather than exhausting the stack.
  constexpr int n = static_cast<int>(bifrons::detail::write_session::max_depth) + 1;
  std::unique_ptr<Node> head = chain(n);
  const auto size = [&] { (void)bifrons::serialized_size(head); };
  EXPECT_THROW(size(), bifrons::error);
  std::array<std::byte, 16> buffer{};
  const auto r = bifrons::try_to_bytes(head, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::depth_limit_exceeded);
  // The chain is freed iteratively: the nodes' own destructors would recurse as deeply.
  while (head) head = std::move(head->next);
}

// ---- shared_ptr ----------------------------------------------------------------------------

TEST(SharedPtr, HandComputedBytes) {
  // The example of docs/format.md: p, p, nullptr with *p == 7.
  const auto p = std::make_shared<std::int32_t>(7);
  EXPECT_EQ(hex_of(std::vector<std::shared_ptr<std::int32_t>>{p, p, nullptr}), "03 01 0e 03 00");
  // Two objects: the second reference names id 2 (tag 4).
  const auto q = std::make_shared<std::int32_t>(-1);
  EXPECT_EQ(hex_of(std::vector<std::shared_ptr<std::int32_t>>{p, q, q, p}), "04 01 0e 01 01 04 03");
}

TEST(SharedPtr, SharedObjectsComeBackShared) {
  const auto a = std::make_shared<Point>(Point{1, "a"});
  const auto b = std::make_shared<Point>(Point{2, "b"});
  const std::vector<std::shared_ptr<Point>> v{a, b, a, nullptr, a, b};
  const auto back = round_trip(v);
  ASSERT_EQ(back.size(), 6u);
  ASSERT_TRUE(back[0] && back[1]);
  EXPECT_EQ(*back[0], (Point{1, "a"}));
  EXPECT_EQ(*back[1], (Point{2, "b"}));
  EXPECT_EQ(back[2], back[0]);
  EXPECT_EQ(back[4], back[0]);
  EXPECT_EQ(back[5], back[1]);
  EXPECT_EQ(back[3], nullptr);
  EXPECT_NE(back[0], back[1]);
  // The same use_count pattern: three owners of one object, two of the other.
  EXPECT_EQ(back[0].use_count(), 3);
  EXPECT_EQ(back[1].use_count(), 2);
}

TEST(SharedPtr, ToConst) {
  const auto p = std::make_shared<const std::string>("shared");
  const auto back = round_trip(std::pair<std::shared_ptr<const std::string>, std::shared_ptr<const std::string>>{p, p});
  ASSERT_TRUE(back.first);
  EXPECT_EQ(*back.first, "shared");
  EXPECT_EQ(back.first, back.second);
}

/// A tree whose nodes know their parents: weak_ptr back up, shared_ptr down.
struct TreeNode {
  std::int32_t value = 0;
  std::vector<std::shared_ptr<TreeNode>> children;
  std::weak_ptr<TreeNode> parent;
};

std::shared_ptr<TreeNode> add_child(const std::shared_ptr<TreeNode>& parent, std::int32_t value) {
  auto child = std::make_shared<TreeNode>();
  child->value = value;
  child->parent = parent;
  parent->children.push_back(child);
  return child;
}

TEST(SharedPtr, TreeWithWeakParents) {
  auto root = std::make_shared<TreeNode>();
  root->value = 1;
  const auto left = add_child(root, 2);
  add_child(root, 3);
  add_child(left, 4);
  const auto back = round_trip(root);
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->parent.expired());
  ASSERT_EQ(back->children.size(), 2u);
  const auto& l = back->children[0];
  EXPECT_EQ(l->value, 2);
  EXPECT_EQ(back->children[1]->value, 3);
  EXPECT_EQ(l->parent.lock(), back);
  EXPECT_EQ(back->children[1]->parent.lock(), back);
  ASSERT_EQ(l->children.size(), 1u);
  EXPECT_EQ(l->children[0]->value, 4);
  EXPECT_EQ(l->children[0]->parent.lock(), l);
  // Each node has exactly its one owner: nothing else in the message shares it.
  EXPECT_EQ(back.use_count(), 1);
  EXPECT_EQ(l.use_count(), 1);
}

/// A doubly linked list: shared_ptr forward, weak_ptr back.
struct Link2 {
  std::int32_t value = 0;
  std::shared_ptr<Link2> next;
  std::weak_ptr<Link2> prev;
};

TEST(SharedPtr, DoublyLinkedList) {
  auto head = std::make_shared<Link2>();
  auto node = head;
  for (std::int32_t i = 1; i < 5; ++i) {
    node->next = std::make_shared<Link2>();
    node->next->value = i;
    node->next->prev = node;
    node = node->next;
  }
  // Bytes of a two-node list: tag 1, envelope {0, next: tag 1, envelope {1, null, ref 1}, null}.
  auto two = std::make_shared<Link2>();
  two->next = std::make_shared<Link2>();
  two->next->value = 1;
  two->next->prev = two;
  EXPECT_EQ(hex_of(two), "01 0e 00 01 06 02 00 03 00");

  const auto back = round_trip(head);
  std::shared_ptr<Link2> previous;
  std::int32_t count = 0;
  for (auto n = back; n; n = n->next, ++count) {
    EXPECT_EQ(n->value, count);
    EXPECT_EQ(n->prev.lock(), previous);
    previous = n;
  }
  EXPECT_EQ(count, 5);
}

TEST(SharedPtr, CycleOfOwnersIsRefusedAtWrite) {
  // a -> b -> a through shared_ptrs leaks; the writer says so instead of writing it.
  auto a = std::make_shared<Link2>();
  a->next = std::make_shared<Link2>();
  a->next->next = a;
  const auto write = [&] { (void)bifrons::to_bytes(a); };
  try {
    write();
    ADD_FAILURE() << "a cycle of shared_ptrs was written";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::ownership_cycle);
  }
  std::array<std::byte, 64> buffer{};
  const auto r = bifrons::try_to_bytes(a, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::ownership_cycle);
  a->next->next.reset();  // break the test's own cycle
}

TEST(SharedPtr, CycleOfOwnersIsRefusedAtRead) {
  // Link2 {value 1, next: a reference to object 1, which is still being read}.
  EXPECT_TRUE(fails_with<std::shared_ptr<Link2>>(B({0x01, 0x06, 0x02, 0x03, 0x00}), errc::invalid_value, 3));
  // The same reference from a weak_ptr is fine: prev of the only node is the node itself.
  const auto self = bifrons::from_bytes<std::shared_ptr<Link2>>(B({0x01, 0x06, 0x02, 0x00, 0x03}));
  ASSERT_TRUE(self);
  EXPECT_EQ(self->prev.lock(), self);
  EXPECT_EQ(self.use_count(), 1);
}

TEST(SharedPtr, AWeakLinkBreaksTheCycle) {
  // a's weak prev introduces b, whose shared next owns a, which is still being written: not a
  // cycle of owners (a does not own b), so both sides accept it.
  auto a = std::make_shared<Link2>();
  auto b = std::make_shared<Link2>();
  a->value = 1;
  b->value = 2;
  a->prev = b;
  b->next = a;
  // a: tag 1, {1, next null, prev: tag 1, {2, next: ref to a, prev null}}.
  EXPECT_EQ(hex_of(a), "01 0e 02 00 01 06 04 03 00");
  const auto back = round_trip(a);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->value, 1);
  // Nothing in the message owns b: it is gone after the read, as the weak_ptr says.
  EXPECT_TRUE(back->prev.expired());
  EXPECT_EQ(back.use_count(), 1);
  b->next.reset();
}

TEST(SharedPtr, AliasingPointersWithOtherOwnersAreRefused) {
  struct Pair {
    std::int32_t a = 1, b = 2;
  };
  const auto owner = std::make_shared<Pair>();
  const std::shared_ptr<std::int32_t> alias(owner, &owner->b);
  const std::shared_ptr<std::int32_t> other(std::make_shared<std::int32_t>(9), &owner->b);
  std::array<std::byte, 64> buffer{};
  const auto r = bifrons::try_to_bytes(std::vector<std::shared_ptr<std::int32_t>>{alias, other}, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::ownership_conflict);
  // A lone aliasing pointer is written as the object it points to.
  const auto back = round_trip(alias);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, 2);
}

TEST(SharedPtr, ReferencesAreCheckedOnRead) {
  using I = std::shared_ptr<std::int32_t>;
  // A reference to an object not read yet (forward, or past every object).
  EXPECT_TRUE(fails_with<I>(B({0x03}), errc::invalid_value, 0));
  EXPECT_TRUE((fails_with<std::pair<I, I>>(B({0x01, 0x02, 0x04}), errc::invalid_value, 2)));
  // To an object of another type: never reinterpreted.
  EXPECT_TRUE((fails_with<std::pair<I, std::shared_ptr<std::int64_t>>>(B({0x01, 0x02, 0x03}), errc::invalid_value, 2)));
  // To an object a unique_ptr owns.
  EXPECT_TRUE((fails_with<std::pair<std::unique_ptr<std::int32_t>, I>>(B({0x01, 0x02, 0x03}), errc::invalid_value, 2)));
  // Tag 2 (a polymorphic object) for a non-polymorphic type.
  EXPECT_TRUE(fails_with<I>(B({0x02, 0x00}), errc::invalid_value, 0));
  // The good case for contrast.
  const auto back = bifrons::from_bytes<std::pair<I, I>>(B({0x01, 0x02, 0x03}));
  EXPECT_EQ(back.first, back.second);
}

TEST(SharedPtr, ReadingAlwaysAllocates) {
  // An object being reused may be shared with owners outside the message: never written into.
  auto outside = std::make_shared<std::int32_t>(5);
  std::shared_ptr<std::int32_t> p = outside;
  read_into(std::make_shared<std::int32_t>(6), p);
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, 6);
  EXPECT_EQ(*outside, 5);
  EXPECT_NE(p, outside);
}

TEST(SharedPtr, ObjectLimitAndBudget) {
  const std::vector<std::shared_ptr<std::int32_t>> three{
      std::make_shared<std::int32_t>(1), std::make_shared<std::int32_t>(2), std::make_shared<std::int32_t>(3)};
  const bytes b = bifrons::to_bytes(three);
  auto r = bifrons::try_from_bytes<std::vector<std::shared_ptr<std::int32_t>>>(b,
                                                                               bifrons::read_options{.max_objects = 2});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::object_limit_exceeded);
  EXPECT_EQ(r.offset(), 5u);  // the third tag
  EXPECT_TRUE(bifrons::try_from_bytes<std::vector<std::shared_ptr<std::int32_t>>>(b, bifrons::read_options{
                                                                                         .max_objects = 3}));
  // References take no object of their own.
  const auto p = std::make_shared<std::int32_t>(1);
  const bytes refs = bifrons::to_bytes(std::vector<std::shared_ptr<std::int32_t>>(100, p));
  EXPECT_TRUE(bifrons::try_from_bytes<std::vector<std::shared_ptr<std::int32_t>>>(refs, bifrons::read_options{
                                                                                            .max_objects = 1}));
}

/// A binary tree as the benchmarks have it: shared_ptr children, a weak_ptr to the parent.
struct BinaryNode {
  std::int32_t value = 0;
  std::shared_ptr<BinaryNode> left, right;
  std::weak_ptr<BinaryNode> parent;
};

std::shared_ptr<BinaryNode> binary_tree(int depth, std::int32_t& next, const std::shared_ptr<BinaryNode>& parent) {
  auto node = std::make_shared<BinaryNode>();
  node->value = next++;
  node->parent = parent;
  if (depth > 0) {
    node->left = binary_tree(depth - 1, next, node);
    node->right = binary_tree(depth - 1, next, node);
  }
  return node;
}

/// Checks a tree that binary_tree made and a read returned: the values in order, every parent
/// link, and that every node has exactly one owner (its parent's shared_ptr, or the caller's).
void check_binary_tree(const std::shared_ptr<BinaryNode>& node, const BinaryNode* parent, int depth,
                       std::int32_t& next) {
  ASSERT_TRUE(node);
  EXPECT_EQ(node->value, next++);
  EXPECT_EQ(node.use_count(), 1);
  EXPECT_EQ(node->parent.lock().get(), parent);
  if (depth == 0) {
    EXPECT_FALSE(node->left || node->right);
    return;
  }
  check_binary_tree(node->left, node.get(), depth - 1, next);
  check_binary_tree(node->right, node.get(), depth - 1, next);
}

TEST(SharedPtr, ATreeOfManyObjectsKeepsEveryLinkAndOneOwnerPerNode) {
  // 511 objects: the reader's object table grows several times while the tree is read, and the
  // parent links of all but the first 125 objects are references with two-byte tags.
  std::int32_t next = 0;
  const auto tree = binary_tree(8, next, nullptr);
  const auto back = round_trip(tree);
  std::int32_t checked = 0;
  check_binary_tree(back, nullptr, 8, checked);
  EXPECT_EQ(checked, 511);
  // Read into a tree that exists already: every node is new, the old ones are freed.
  std::shared_ptr<BinaryNode> existing = binary_tree(2, next, nullptr);
  const std::weak_ptr<BinaryNode> old_root = existing;
  read_into(tree, existing);
  EXPECT_TRUE(old_root.expired());
  checked = 0;
  check_binary_tree(existing, nullptr, 8, checked);
}

TEST(SharedPtr, BackReferencesReachEveryObjectOfALongMessage) {
  struct Many {
    std::vector<std::shared_ptr<std::int32_t>> owners;
    std::vector<std::weak_ptr<std::int32_t>> watchers;
    std::vector<std::shared_ptr<std::int32_t>> again;  // owners, last first
  };
  Many m;
  constexpr std::int32_t n = 300;
  for (std::int32_t i = 0; i < n; ++i) m.owners.push_back(std::make_shared<std::int32_t>(i));
  for (std::int32_t i = 0; i < n; ++i) m.watchers.push_back(m.owners[static_cast<std::size_t>(i)]);
  for (std::int32_t i = n; i-- > 0;) m.again.push_back(m.owners[static_cast<std::size_t>(i)]);
  const auto back = round_trip(m);
  ASSERT_EQ(back.owners.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(back.watchers.size(), static_cast<std::size_t>(n));
  ASSERT_EQ(back.again.size(), static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    const auto& owner = back.owners[i];
    ASSERT_TRUE(owner);
    EXPECT_EQ(*owner, static_cast<std::int32_t>(i));
    EXPECT_EQ(owner.use_count(), 2);  // owners[i] and again[n - 1 - i]: the reader keeps none
    EXPECT_EQ(back.again[static_cast<std::size_t>(n) - 1 - i], owner);
    EXPECT_EQ(back.watchers[i].lock(), owner);
  }
}

TEST(SharedPtr, TwoByteTagsAreCheckedOnRead) {
  using I = std::shared_ptr<std::int32_t>;
  using W = std::weak_ptr<std::int32_t>;
  // Tag 128 names object 126, which the value does not have.
  EXPECT_TRUE(fails_with<I>(B({0x80, 0x01}), errc::invalid_value, 0));
  EXPECT_TRUE(fails_with<W>(B({0x80, 0x01}), errc::invalid_value, 0));
  // Tag 3 spelled with two bytes is not minimal.
  EXPECT_TRUE(fails_with<I>(B({0x83, 0x00}), errc::malformed_varint, 0));
  EXPECT_TRUE(fails_with<W>(B({0x83, 0x00}), errc::malformed_varint, 0));
  // The input ends inside the tag.
  EXPECT_TRUE(fails_with<I>(B({0x80}), errc::unexpected_end, 1, 1));
  EXPECT_TRUE(fails_with<W>(B({0x80}), errc::unexpected_end, 1, 1));
  // Object 126 exists: 126 objects, then a reference to the last.
  std::vector<std::shared_ptr<std::int32_t>> v;
  for (std::int32_t i = 0; i < 126; ++i) v.push_back(std::make_shared<std::int32_t>(i));
  v.push_back(v.back());
  const bytes b = bifrons::to_bytes(v);
  ASSERT_GE(b.size(), 2u);
  EXPECT_EQ(b[b.size() - 2], std::byte{0x80});
  EXPECT_EQ(b[b.size() - 1], std::byte{0x01});
  const auto back = round_trip(v);
  ASSERT_EQ(back.size(), 127u);
  EXPECT_EQ(back[126], back[125]);
  EXPECT_EQ(back[125].use_count(), 2);
}

// ---- weak_ptr ------------------------------------------------------------------------------

TEST(WeakPtr, ExpiredReadsExpired) {
  std::weak_ptr<std::int32_t> w;
  {
    const auto p = std::make_shared<std::int32_t>(1);
    w = p;
  }
  EXPECT_EQ(hex_of(w), "00");
  EXPECT_TRUE(round_trip(w).expired());
}

TEST(WeakPtr, PointsToTheObjectTheMessageOwns) {
  struct Both {
    std::shared_ptr<std::int32_t> owner;
    std::weak_ptr<std::int32_t> watcher;
  };
  const auto p = std::make_shared<std::int32_t>(4);
  EXPECT_EQ(hex_of(Both{p, p}), "06 01 08 03");
  const auto back = round_trip(Both{p, p});
  EXPECT_EQ(back.watcher.lock(), back.owner);
  // The weak_ptr first: it carries the object, the shared_ptr refers back to it.
  struct WeakFirst {
    std::weak_ptr<std::int32_t> watcher;
    std::shared_ptr<std::int32_t> owner;
  };
  EXPECT_EQ(hex_of(WeakFirst{p, p}), "06 01 08 03");
  const auto first = round_trip(WeakFirst{p, p});
  ASSERT_TRUE(first.owner);
  EXPECT_EQ(*first.owner, 4);
  EXPECT_EQ(first.watcher.lock(), first.owner);
  EXPECT_EQ(first.owner.use_count(), 1);
}

TEST(WeakPtr, ObjectOwnedOnlyOutsideTheMessageReadsExpired) {
  // Written once (its value travels), but nothing in the message owns it after reading.
  const auto outside = std::make_shared<std::int32_t>(8);
  const std::weak_ptr<std::int32_t> w = outside;
  EXPECT_EQ(hex_of(w), "01 10");
  EXPECT_TRUE(round_trip(w).expired());
}

TEST(WeakPtr, AFailedReadLeavesItEmpty) {
  const auto outside = std::make_shared<std::int32_t>(1);
  std::weak_ptr<std::int32_t> w = outside;
  EXPECT_THROW(bifrons::from_bytes(B({0x03}), w), bifrons::error);  // a reference to no object
  EXPECT_TRUE(w.expired());
  w = outside;
  EXPECT_THROW(bifrons::from_bytes(B({0x80, 0x01}), w), bifrons::error);  // the same, in two bytes
  EXPECT_TRUE(w.expired());
  w = outside;
  EXPECT_THROW(bifrons::from_bytes(B({0x02, 0x00}), w), bifrons::error);  // tag 2 for an int
  EXPECT_TRUE(w.expired());
  EXPECT_EQ(outside.use_count(), 1);
}

// ---- objects without a default constructor, and const objects -------------------------------------------

TEST(UniquePtr, ToConst) {
  EXPECT_EQ(hex_of(std::make_unique<const int>(5)), "01 0a");
  const auto back = round_trip(std::make_unique<const std::string>("ab"));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, "ab");
  // Read into a pointer that holds an object already: a const object is replaced, not read into.
  auto existing = std::make_unique<const Point>(Point{9, "old"});
  read_into(std::make_unique<const Point>(Point{1, ""}), existing);
  ASSERT_TRUE(existing);
  EXPECT_EQ(*existing, (Point{1, ""}));
}

TEST(UniquePtr, ObjectsWithoutDefaultConstructor) {
  EXPECT_EQ(hex_of(std::make_unique<Made>(1, "a")), "01 06 02 01 61");
  const auto back = bifrons::from_bytes<std::unique_ptr<Made>>(B({0x01, 0x06, 0x02, 0x01, 0x61}));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, Made(1, "a"));
  auto existing = std::make_unique<Made>(9, "old");
  bifrons::from_bytes(B({0x01, 0x06, 0x04, 0x01, 0x62}), existing);
  EXPECT_EQ(*existing, Made(2, "b"));
  const auto to_const = bifrons::from_bytes<std::unique_ptr<const Made>>(B({0x01, 0x06, 0x02, 0x01, 0x61}));
  EXPECT_EQ(*to_const, Made(1, "a"));
  EXPECT_TRUE(fails_with<std::unique_ptr<Made>>(B({0x01, 0x06, 0x02}), errc::unexpected_end, 3, 2));
}

TEST(SharedPtr, ObjectsWithoutDefaultConstructorKeepTheirIdentity) {
  const auto made = std::make_shared<Made>(1, "a");
  using Two = std::pair<std::shared_ptr<Made>, std::weak_ptr<const Made>>;
  // The object once, then a reference to it (id 1: tag 3).
  EXPECT_EQ(hex_of(Two{made, made}), "01 06 02 01 61 03");
  const auto back = bifrons::from_bytes<Two>(B({0x01, 0x06, 0x02, 0x01, 0x61, 0x03}));
  ASSERT_TRUE(back.first);
  EXPECT_EQ(*back.first, Made(1, "a"));
  EXPECT_EQ(back.second.lock(), back.first);
}

/// Made by load_and_construct, and it holds a weak_ptr back to itself: the weak_ptr is read
/// while the object is being made, so its owner exists before it does.
class Knot {
 public:
  Knot(std::int32_t v, std::weak_ptr<Knot> self) : value_(v), self_(std::move(self)) {}
  std::int32_t value() const { return value_; }
  const std::weak_ptr<Knot>& self() const { return self_; }
  void tie(const std::shared_ptr<Knot>& me) { self_ = me; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(value_, self_);
  }
  template <class Archive>
  static Knot load_and_construct(Archive& ar) {
    std::int32_t v = 0;
    std::weak_ptr<Knot> self;
    ar(v, self);
    return Knot(v, std::move(self));
  }

 private:
  std::int32_t value_;
  std::weak_ptr<Knot> self_;
};

TEST(SharedPtr, AnObjectMadeByItsHookMayBeReferredToWhileItIsMade) {
  auto knot = std::make_shared<Knot>(7, std::weak_ptr<Knot>());
  knot->tie(knot);
  // tag 1, the envelope: value 0e, self: a reference to id 1 (03).
  EXPECT_EQ(hex_of(knot), "01 04 0e 03");
  const auto back = bifrons::from_bytes<std::shared_ptr<Knot>>(B({0x01, 0x04, 0x0e, 0x03}));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->value(), 7);
  EXPECT_EQ(back->self().lock(), back);
  EXPECT_EQ(back.use_count(), 1);
}

// ---- one value after another on a thread -------------------------------------------------------
// Each thread keeps its write session and its object table, emptied, for the next value
// (write_session.hpp, source.hpp): nothing of one value may reach the next.

TEST(ValueAfterValue, AFailedWriteLeavesNoErrorAndNoIdsBehind) {
  const auto p = std::make_shared<std::int32_t>(7);
  const std::vector<std::shared_ptr<std::int32_t>> twice{p, p};
  EXPECT_EQ(hex_of(twice), "02 01 0e 03");
  // Fails after giving the first object its id.
  const std::shared_ptr<std::int32_t> other(std::make_shared<std::int32_t>(9), p.get());
  EXPECT_THROW((void)bifrons::to_bytes(std::vector<std::shared_ptr<std::int32_t>>{p, other}), bifrons::error);
  EXPECT_EQ(hex_of(twice), "02 01 0e 03");
  EXPECT_EQ(bifrons::serialized_size(twice), 4u);
}

TEST(ValueAfterValue, ReferencesCannotReachTheObjectsOfAnEarlierValue) {
  using V = std::vector<std::shared_ptr<std::int32_t>>;
  const V first = bifrons::from_bytes<V>(B({0x02, 0x01, 0x0e, 0x03}));
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0], first[1]);
  // A reference to object 1 with no object before it, right after a value that had one.
  EXPECT_TRUE(fails_with<V>(B({0x01, 0x03}), errc::invalid_value, 1));
  // After a failed read (truncated in its second object), the same bytes read whole.
  EXPECT_TRUE(fails_with<V>(B({0x02, 0x01, 0x0e, 0x01}), errc::unexpected_end, 4, 1));
  const V again = bifrons::from_bytes<V>(B({0x02, 0x01, 0x0e, 0x01, 0x10}));
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(*again[0], 7);
  EXPECT_EQ(*again[1], 8);
  EXPECT_NE(again[0], again[1]);
}

TEST(ValueAfterValue, TheObjectsOfAnEarlierValueAreNewInTheNext) {
  // The session keeps its hash index for the next value (write_session.hpp): the objects of
  // one value must not be found in the next, at any size of the index. Each value holds every
  // object twice, so that the index is built and searched; the next value writes some of the
  // same objects, which must be new objects there (tag 1), with ids from 1.
  using V = std::vector<std::shared_ptr<std::int32_t>>;
  for (const std::size_t n : {std::size_t{3}, std::size_t{40}, std::size_t{700}, std::size_t{5}}) {
    V objects;
    for (std::size_t i = 0; i < n; ++i) objects.push_back(std::make_shared<std::int32_t>(static_cast<std::int32_t>(i)));
    V first = objects;
    first.insert(first.end(), objects.begin(), objects.end());
    (void)bifrons::to_bytes(first);
    // The last two objects of the first value, each twice.
    const V next{objects[n - 1], objects[n - 2], objects[n - 1], objects[n - 2]};
    const V back = round_trip(next);
    ASSERT_EQ(back.size(), 4u);
    EXPECT_EQ(back[0], back[2]);
    EXPECT_EQ(back[1], back[3]);
    EXPECT_NE(back[0], back[1]);
    const auto last = static_cast<std::int64_t>(n - 1);
    const bytes expected = cat({B({0x04, 0x01}), varint_bytes(ref_zigzag(last)), B({0x01}),
                                varint_bytes(ref_zigzag(last - 1)), B({0x03, 0x04})});
    EXPECT_EQ(hex(bifrons::to_bytes(next)), hex(expected)) << "after a value of " << 2 * n << " pointers";
  }
}

/// Writes, inside its own encoding, the bytes of another value with pointers: a write session
/// inside a write session.
struct Nests {
  std::shared_ptr<std::int32_t> a;
  template <class Archive>
  void save(Archive& ar) const {
    ar(a, bifrons::to_bytes(std::vector<std::shared_ptr<std::int32_t>>{a, a}), a);
  }
  template <class Archive>
  void load(Archive& ar) {
    std::vector<std::byte> inner;
    std::shared_ptr<std::int32_t> again;
    ar(a, inner, again);
    if (again != a || bifrons::from_bytes<std::vector<std::shared_ptr<std::int32_t>>>(inner).size() != 2)
      throw std::runtime_error("not the value written");
  }
};

TEST(ValueAfterValue, AHookMayWriteAValueWithPointersOfItsOwn) {
  // The outer value: a (new, id 1), the inner value's bytes (its own ids: 02 01 0e 03), a
  // again (a reference to the outer id 1: 03).
  const Nests n{std::make_shared<std::int32_t>(7)};
  EXPECT_EQ(hex_of(n), "10 01 0e 04 02 01 0e 03 03");
  const Nests back = round_trip(n);
  ASSERT_TRUE(back.a);
  EXPECT_EQ(*back.a, 7);
}
}  // namespace
}  // namespace bifrons_test
