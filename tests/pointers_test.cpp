// Raw pointers and identity (bifrons/pointers.hpp, bifrons/identity.hpp): non-owning pointers
// written as references to objects written before them, owning raw pointers stated with
// bifrons::owning(), by-value objects with enable_identity, and what a failed read frees.
#include <bifrons/pointers.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "types/test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

/// A graph node held by value in a vector, which non-owning pointers refer to.
struct GNode {
  std::int32_t value = 0;
  GNode* next = nullptr;  // another node of the same graph, or null
};

struct Graph {
  std::vector<GNode> nodes;
  const GNode* current = nullptr;
};

}  // namespace
}  // namespace bifrons_test

template <>
inline constexpr bool bifrons::enable_identity<bifrons_test::GNode> = true;

namespace bifrons_test {
namespace {

/// Where p points inside v, or -1.
template <class T>
std::ptrdiff_t index_in(const std::vector<T>& v, const T* p) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (&v[i] == p) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

Graph sample_graph() {
  Graph g;
  g.nodes.resize(3);
  for (std::size_t i = 0; i < 3; ++i) g.nodes[i].value = static_cast<std::int32_t>(10 * i);
  g.nodes[1].next = &g.nodes[0];  // backwards only: each node is written before what points at it
  g.nodes[2].next = &g.nodes[1];
  g.current = &g.nodes[2];
  return g;
}

TEST(Observer, PointsIntoByValueObjects) {
  const Graph g = sample_graph();
  // Each GNode takes an id when it begins (1, 2, 3); a reference to id k is tag k + 2.
  // nodes: count 3, {0, null}, {10 -> id 1}, {20 -> id 2}; current -> id 3.
  EXPECT_EQ(hex_of(g), "16 03 04 00 00 04 14 03 04 28 04 05");
  const Graph back = round_trip(g);
  ASSERT_EQ(back.nodes.size(), 3u);
  EXPECT_EQ(back.nodes[0].next, nullptr);
  EXPECT_EQ(index_in(back.nodes, back.nodes[1].next), 0);
  EXPECT_EQ(index_in(back.nodes, back.nodes[2].next), 1);
  EXPECT_EQ(index_in(back.nodes, back.current), 2);
  EXPECT_EQ(back.nodes[2].value, 20);
}

TEST(Observer, PointsIntoObjectsOwnedByPointers) {
  struct Owners {
    std::unique_ptr<std::string> unique;
    std::shared_ptr<std::int32_t> shared;
    const std::string* to_unique = nullptr;
    std::int32_t* to_shared = nullptr;
    std::int32_t* none = nullptr;
  };
  Owners o{std::make_unique<std::string>("u"), std::make_shared<std::int32_t>(3)};
  o.to_unique = o.unique.get();
  o.to_shared = o.shared.get();
  EXPECT_EQ(hex_of(o), "10 01 01 75 01 06 03 04 00");
  const Owners back = round_trip(o);
  ASSERT_TRUE(back.unique && back.shared);
  EXPECT_EQ(back.to_unique, back.unique.get());
  EXPECT_EQ(back.to_shared, back.shared.get());
  EXPECT_EQ(back.none, nullptr);
}

TEST(Observer, AnObjectNotWrittenBeforeIsRefusedAtWrite) {
  std::array<std::byte, 64> buffer{};
  // Never written at all.
  std::int32_t outside = 1;
  struct Lone {
    std::int32_t* p = nullptr;
  };
  auto r = bifrons::try_to_bytes(Lone{&outside}, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::unwritten_pointee);
  // The message names the pointee's type and the ways to write it.
  EXPECT_NE(r.message().find("a non-owning pointer to int points at an object that the value does not write before it"),
            std::string::npos)
      << r.message();
  // Written after the pointer (a by-value object after a pointer to it): the format has no
  // forward references, and copying the object would silently duplicate it.
  Graph g = sample_graph();
  g.nodes[0].next = &g.nodes[2];
  r = bifrons::try_to_bytes(g, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::unwritten_pointee);
  EXPECT_NE(r.message().find("GNode points at"), std::string::npos) << r.message();
  try {
    (void)bifrons::to_bytes(g);
    ADD_FAILURE() << "to_bytes wrote a pointer to an object written after it";
  } catch (const bifrons::error& e) {
    EXPECT_NE(std::string(e.what()).find("GNode points at"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)bifrons::to_bytes(g), bifrons::error);
  EXPECT_THROW((void)bifrons::serialized_size(g), bifrons::error);
}

TEST(Observer, ReferencesAreCheckedOnRead) {
  using T = std::pair<std::shared_ptr<std::int32_t>, const std::int64_t*>;
  EXPECT_TRUE(fails_with<T>(B({0x01, 0x02, 0x03}), errc::invalid_value, 2));  // another type
  EXPECT_TRUE(fails_with<T>(B({0x01, 0x02, 0x04}), errc::invalid_value, 2));  // no object 2
  // A non-owning pointer never holds a new object.
  using U = std::pair<std::shared_ptr<std::int32_t>, const std::int32_t*>;
  EXPECT_TRUE(fails_with<U>(B({0x01, 0x02, 0x01, 0x02}), errc::invalid_value, 2));
  const U ok = bifrons::from_bytes<U>(B({0x01, 0x02, 0x03}));
  EXPECT_EQ(ok.second, ok.first.get());
}

TEST(Observer, ByValueIdentityAndPointersAgreeOnIds) {
  // A GNode that a unique_ptr owns takes one id (the pointer's), not a second as a GNode.
  struct Mixed {
    std::unique_ptr<GNode> owned;
    GNode plain;
    const GNode* to_owned = nullptr;
    const GNode* to_plain = nullptr;
  };
  Mixed m{std::make_unique<GNode>(), {}, nullptr, nullptr};
  m.owned->value = 1;
  m.plain.value = 2;
  m.to_owned = m.owned.get();
  m.to_plain = &m.plain;
  // Read in place: a pointer into a by-value member of the value itself would not follow the
  // value if it were moved (no C++ object's move updates pointers into it).
  Mixed back;
  bifrons::from_bytes(bifrons::to_bytes(m), back);
  ASSERT_TRUE(back.owned);
  EXPECT_EQ(back.to_owned, back.owned.get());
  EXPECT_EQ(back.to_plain, &back.plain);
  EXPECT_EQ(back.plain.value, 2);
}

// ---- owning raw pointers ---------------------------------------------------------------------

/// A binary tree of owning raw pointers with parent pointers, as Boost users write it.
struct Tree {
  std::int32_t value = 0;
  Tree* left = nullptr;
  Tree* right = nullptr;
  Tree* parent = nullptr;

  Tree() = default;
  explicit Tree(std::int32_t v) : value(v) {}
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;
  Tree(Tree&& o) noexcept
      : value(o.value), left(std::exchange(o.left, nullptr)), right(std::exchange(o.right, nullptr)), parent(o.parent) {
    if (left) left->parent = this;
    if (right) right->parent = this;
  }
  Tree& operator=(Tree&& o) noexcept {
    if (this != &o) {
      delete left;
      delete right;
      value = o.value;
      left = std::exchange(o.left, nullptr);
      right = std::exchange(o.right, nullptr);
      parent = o.parent;
      if (left) left->parent = this;
      if (right) right->parent = this;
    }
    return *this;
  }
  ~Tree() {
    delete left;
    delete right;
  }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(value, bifrons::owning(left), bifrons::owning(right), parent);
  }
};

}  // namespace
}  // namespace bifrons_test

template <>
inline constexpr bool bifrons::enable_identity<bifrons_test::Tree> = true;

namespace bifrons_test {
namespace {

Tree* attach(Tree& parent, Tree*& slot, std::int32_t value) {
  slot = new Tree(value);
  slot->parent = &parent;
  return slot;
}

Tree sample_tree() {
  Tree root(1);
  Tree* l = attach(root, root.left, 2);
  attach(root, root.right, 3);
  attach(*l, l->right, 4);
  return root;
}

void check_tree(const Tree& t) {
  EXPECT_EQ(t.value, 1);
  EXPECT_EQ(t.parent, nullptr);
  ASSERT_TRUE(t.left && t.right);
  EXPECT_EQ(t.left->value, 2);
  EXPECT_EQ(t.right->value, 3);
  EXPECT_EQ(t.left->parent, &t);
  EXPECT_EQ(t.right->parent, &t);
  EXPECT_EQ(t.left->left, nullptr);
  ASSERT_TRUE(t.left->right);
  EXPECT_EQ(t.left->right->value, 4);
  EXPECT_EQ(t.left->right->parent, t.left);
}

TEST(Owning, TreeWithParentPointers) {
  const Tree t = sample_tree();
  // root (id 1) {1, left: new (id 2) {2, null, right: new (id 3) {4, null, null, parent 2},
  // parent 1}, right: new (id 4) {3, null, null, parent 1}, parent null}.
  EXPECT_EQ(hex_of(t), "26 02 01 12 04 00 01 08 08 00 00 04 03 01 08 06 00 00 03 00");
  const Tree back = round_trip(t);
  check_tree(back);
}

TEST(Owning, ReadIntoAnExistingTreeReusesItsNodes) {
  Tree existing = sample_tree();
  const Tree* left = existing.left;
  bifrons::from_bytes(bifrons::to_bytes(sample_tree()), existing);
  check_tree(existing);
  EXPECT_EQ(existing.left, left);
  // Null in the data deletes the object the pointer owned.
  Tree small(1);
  bifrons::from_bytes(bifrons::to_bytes(small), existing);
  EXPECT_EQ(existing.left, nullptr);
  EXPECT_EQ(existing.right, nullptr);
}

TEST(Owning, AFailedReadFreesWhatItAllocatedAndNullsThePointers) {
  const bytes b = bifrons::to_bytes(sample_tree());
  // Every truncation fails; the objects read so far are deleted and their pointers nulled
  // (LeakSanitizer checks the first half in the asan stage, the null pointers the second).
  for (std::size_t n = 0; n < b.size(); ++n) {
    Tree t;
    const bytes cut(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_THROW(bifrons::from_bytes(cut, t), bifrons::error);
    EXPECT_EQ(t.left, nullptr) << n;
    EXPECT_EQ(t.right, nullptr) << n;
    EXPECT_FALSE(bifrons::try_from_bytes<Tree>(cut));
  }
}

TEST(Owning, ABackReferenceIsInvalid) {
  // Tree {0, left: a reference to the root}: an owning pointer cannot share.
  EXPECT_TRUE(fails_with<Tree>(B({0x08, 0x00, 0x03, 0x00, 0x00}), errc::invalid_value, 2));
}

TEST(Owning, InMapValuesAndDuplicateKeys) {
  std::map<std::int32_t, Tree> m;
  m.emplace(1, sample_tree());
  m.emplace(2, Tree(5));
  const auto back = round_trip(m);
  ASSERT_EQ(back.size(), 2u);
  check_tree(back.at(1));  // the parent pointers point into the map's own elements
  EXPECT_EQ(back.at(2).value, 5);
  // A duplicate key: the second tree is dropped with what it owns, once (ASan checks it).
  bytes dup = varint_bytes(2);
  for (int i = 0; i < 2; ++i) {
    const bytes one = bifrons::to_bytes(std::pair<std::int32_t, Tree>(1, sample_tree()));
    dup.insert(dup.end(), one.begin(), one.end());
  }
  auto r = bifrons::try_from_bytes<std::map<std::int32_t, Tree>>(dup);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::duplicate_key);
}

struct Twice {
  Tree* a = nullptr;
  Tree* b = nullptr;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::owning(a), bifrons::owning(b));
  }
};

TEST(Owning, OwnedTwiceIsRefusedAtWrite) {
  Tree t(1);
  std::array<std::byte, 64> buffer{};
  const auto r = bifrons::try_to_bytes(Twice{&t, &t}, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::ownership_conflict);
}

// ---- identity and evolution ------------------------------------------------------------------

TEST(Identity, ReadingAReusedObjectAgainKeepsTheIds) {
  // An older writer's struct lacks `extra`: reading into a used object resets it and reads
  // the fields again; the objects of the first pass must not take a second set of ids.
  struct Old {
    std::shared_ptr<std::int32_t> a;
    std::shared_ptr<std::int32_t> b;
  };
  struct New {
    std::shared_ptr<std::int32_t> a;
    std::shared_ptr<std::int32_t> b;
    std::int32_t extra = 7;
  };
  const auto p = std::make_shared<std::int32_t>(4);
  const bytes old = bifrons::to_bytes(Old{p, p});
  New used{std::make_shared<std::int32_t>(1), nullptr, 9};
  bifrons::from_bytes(old, used);
  ASSERT_TRUE(used.a);
  EXPECT_EQ(*used.a, 4);
  EXPECT_EQ(used.a, used.b);
  EXPECT_EQ(used.a.use_count(), 2);
  EXPECT_EQ(used.extra, 7);
}

TEST(Identity, DeprecatedObjectsKeepTheirIdsButCannotBeReferenced) {
  struct V2 {
    bifrons::deprecated<GNode> retired;
    GNode kept;
    const GNode* p = nullptr;
  };
  V2 v;
  v.kept.value = 5;
  v.p = &v.kept;
  // retired: an empty envelope that still takes id 1; kept is id 2, so p is tag 4.
  EXPECT_EQ(hex_of(v), "0a 00 04 0a 00 04");
  V2 back;
  bifrons::from_bytes(bifrons::to_bytes(v), back);
  EXPECT_EQ(back.p, &back.kept);
  // Bytes of an older writer whose pointer names the object it wrote where the field is now
  // retired ({1, null}, then {0, null}, then a reference to id 1): refused.
  EXPECT_TRUE(fails_with<V2>(B({0x0e, 0x04, 0x02, 0x00, 0x04, 0x00, 0x00, 0x03}), errc::invalid_value, 7));
}

}  // namespace
}  // namespace bifrons_test

namespace bifrons_test {
namespace {

TEST(Observer, AnObjectOnlyAWeakPtrHoldsCannotBeNamed) {
  // The object dies with the read (nothing in the message owns it): a raw pointer to it would
  // dangle. The writer refuses the value, the reader such bytes.
  struct WeakOnly {
    std::weak_ptr<std::int32_t> w;
    const std::int32_t* p = nullptr;
  };
  const auto outside = std::make_shared<std::int32_t>(1);
  std::array<std::byte, 16> buffer{};
  auto r = bifrons::try_to_bytes(WeakOnly{outside, outside.get()}, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::unwritten_pointee);
  EXPECT_TRUE(fails_with<WeakOnly>(B({0x06, 0x01, 0x02, 0x03}), errc::invalid_value, 3));
  // Owned by a shared_ptr later in the message: fine both ways.
  struct Later {
    std::weak_ptr<std::int32_t> w;
    const std::int32_t* p = nullptr;
    std::shared_ptr<std::int32_t> s;
  };
  const Later back = round_trip(Later{outside, outside.get(), outside});
  EXPECT_EQ(back.p, back.s.get());
  EXPECT_EQ(back.w.lock(), back.s);
}

// ---- objects made by load_and_construct -------------------------------------------------------------

struct Twig;

/// Made by its hook; its twig points back at it while the hook is still reading.
class Branch {
 public:
  Branch(std::int32_t v, std::unique_ptr<Twig> t) : value(v), twig(std::move(t)) {}
  std::int32_t value;
  std::unique_ptr<Twig> twig;
  template <class Archive>
  void save(Archive& ar) const {
    ar(value, twig);
  }
  template <class Archive>
  static Branch load_and_construct(Archive& ar) {
    std::int32_t v = 0;
    std::unique_ptr<Twig> t;
    ar(v, t);
    if (v < 0) throw std::invalid_argument("negative branch");
    return Branch(v, std::move(t));
  }
};
struct Twig {
  const Branch* on = nullptr;
};
struct Holder {
  Branch* owned = nullptr;
  Holder() = default;
  Holder(const Holder&) = delete;
  Holder& operator=(const Holder&) = delete;
  ~Holder() { delete owned; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::owning(owned));
  }
};

TEST(Owning, ObjectsMadeByTheirHook) {
  Holder h;
  h.owned = new Branch(5, std::make_unique<Twig>());
  h.owned->twig->on = h.owned;
  // owned: tag 1 (id 1), the branch's envelope (08): value 0a, twig: tag 1 (id 2), its
  // envelope (02): on = a reference to id 1 (03).
  const bytes b = bifrons::to_bytes(h);
  EXPECT_EQ(hex(b), "0c 01 08 0a 01 02 03");
  Holder back;
  bifrons::from_bytes(b, back);
  ASSERT_TRUE(back.owned && back.owned->twig);
  EXPECT_EQ(back.owned->value, 5);
  EXPECT_EQ(back.owned->twig->on, back.owned);  // the address the object was made at
  // The hook throws: the storage is freed and the pointer stays null (LeakSanitizer checks the rest).
  Holder failed;
  EXPECT_THROW(bifrons::from_bytes(B({0x0c, 0x01, 0x08, 0x01, 0x01, 0x02, 0x03}), failed), std::invalid_argument);
  EXPECT_EQ(failed.owned, nullptr);
  const auto r = bifrons::try_from_bytes<std::unique_ptr<Branch>>(B({0x01, 0x08, 0x01, 0x01, 0x02, 0x03}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::user_error);
  EXPECT_EQ(r.offset(), 1u);  // the branch's envelope
}
}  // namespace
}  // namespace bifrons_test

// ---- enable_shared_from_this ------------------------------------------------------------------

namespace bifrons_test {
namespace {

/// Made by its hook, and knows its owner.
class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(std::int32_t id) : id_(id) { ++alive; }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() { --alive; }
  [[nodiscard]] std::int32_t id() const { return id_; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(id_);
  }
  template <class Archive>
  static Session load_and_construct(Archive& ar) {
    std::int32_t id = 0;
    ar(id);
    return Session(id);
  }
  static inline int alive = 0;

 private:
  std::int32_t id_;
};
struct Sessions {
  std::shared_ptr<Session> first, again;
  std::weak_ptr<Session> watcher;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(first, again, watcher);
  }
};

/// An aggregate with a hook over enable_shared_from_this, whose protected constructor makes
/// `Node{}` ill-formed outside the class (but not `Node()`).
struct SharedNode : std::enable_shared_from_this<SharedNode> {
  std::int32_t value = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value);
  }
};

TEST(SharedFromThis, AnObjectMadeByItsHookKnowsItsOwner) {
  Session::alive = 0;
  {
    Sessions written;
    written.first = std::shared_ptr<Session>(new Session(7));
    written.again = written.first;
    written.watcher = written.first;
    Sessions back = bifrons::from_bytes<Sessions>(bifrons::to_bytes(written));
    written = {};
    ASSERT_NE(back.first, nullptr);
    EXPECT_EQ(back.first->id(), 7);
    EXPECT_EQ(back.again, back.first);
    const std::shared_ptr<Session> self = back.first->shared_from_this();  // threw bad_weak_ptr
    EXPECT_EQ(self, back.first);
    EXPECT_FALSE(self.owner_before(back.first) || back.first.owner_before(self));  // one owner
    EXPECT_FALSE(back.again.owner_before(back.first) || back.first.owner_before(back.again));
    EXPECT_EQ(back.watcher.lock(), back.first);
    EXPECT_EQ(Session::alive, 1);
    // The object lives as long as one of its owners does, and no longer.
    std::weak_ptr<Session> watch = back.first;
    back.first.reset();
    back.again.reset();
    EXPECT_EQ(Session::alive, 1);  // `self`
    self->shared_from_this();
    EXPECT_FALSE(watch.expired());
  }
  EXPECT_EQ(Session::alive, 0);
}

TEST(SharedFromThis, AnAggregateOverEnableSharedFromThis) {
  const auto node = std::make_shared<SharedNode>();
  node->value = 5;
  const auto back = bifrons::from_bytes<std::shared_ptr<SharedNode>>(bifrons::to_bytes(node));
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->value, 5);
  EXPECT_EQ(back->shared_from_this(), back);
  SharedNode written;
  written.value = 6;
  const auto alone = bifrons::from_bytes<SharedNode>(bifrons::to_bytes(written));
  EXPECT_EQ(alone.value, 6);
}

}  // namespace
}  // namespace bifrons_test

// ---- enable_shared_from_this when pointers inside refer back ------------------------------------

namespace bifrons_test {
namespace {

struct TreeNode;
struct Leaf {
  std::weak_ptr<TreeNode> parent;  // read inside the node, before the node exists
  std::int32_t v = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(parent, v);
  }
};
struct TreeNode : std::enable_shared_from_this<TreeNode> {
  TreeNode(std::int32_t i, std::vector<std::shared_ptr<Leaf>> l) : id(i), leaves(std::move(l)) {}
  std::int32_t id;
  std::vector<std::shared_ptr<Leaf>> leaves;
  template <class Archive>
  void save(Archive& ar) const {
    ar(id, leaves);
  }
  template <class Archive>
  static TreeNode load_and_construct(Archive& ar) {
    std::int32_t i = 0;
    std::vector<std::shared_ptr<Leaf>> l;
    ar(i, l);
    return TreeNode(i, std::move(l));
  }
};
struct Owned;
/// Made by its hook; a child that it introduces through a weak_ptr owns it back.
struct Owner : std::enable_shared_from_this<Owner> {
  Owner(std::int32_t i, std::weak_ptr<Owned> c) : id(i), child(std::move(c)) {}
  std::int32_t id;
  std::weak_ptr<Owned> child;
  template <class Archive>
  void save(Archive& ar) const {
    ar(id, child);
  }
  template <class Archive>
  static Owner load_and_construct(Archive& ar) {
    std::int32_t i = 0;
    std::weak_ptr<Owned> c;
    ar(i, c);
    return Owner(i, std::move(c));
  }
};
struct Owned {
  std::shared_ptr<Owner> parent;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(parent);
  }
};
struct Document {
  std::weak_ptr<Owner> focus;    // introduces the owner
  std::shared_ptr<Owned> leaf;   // owns the child, which owns the owner
  Owner* raw = nullptr;          // observes the owner
  template <class Archive>
  void serialize(Archive& ar) {
    ar(focus, leaf, raw);
  }
};

bool same_owner(const auto& a, const auto& b) { return !a.owner_before(b) && !b.owner_before(a); }

TEST(SharedFromThis, PointersInsideThatReferBackKeepOneOwner) {
  // The leaves' parent links name the node while it is being read: they hold its first owner, so
  // the node keeps that one owner (shared_from_this() is then unavailable: a second one would not
  // know the first), and every pointer to it agrees on it.
  auto node = std::make_shared<TreeNode>(1, std::vector<std::shared_ptr<Leaf>>{});
  auto leaf = std::make_shared<Leaf>();
  leaf->parent = node;
  leaf->v = 3;
  node->leaves.push_back(leaf);
  const auto back = bifrons::from_bytes<std::shared_ptr<TreeNode>>(bifrons::to_bytes(node));
  ASSERT_EQ(back->leaves.size(), 1u);
  const std::shared_ptr<TreeNode> up = back->leaves[0]->parent.lock();
  EXPECT_EQ(up, back);
  EXPECT_TRUE(same_owner(up, back));
  // Kept through its parent link only, it lives, and a weak_ptr to it sees it alive.
  const std::shared_ptr<Leaf> kept = back->leaves[0];
  std::weak_ptr<TreeNode> watch = back;
  const std::shared_ptr<TreeNode> parent = kept->parent.lock();
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(parent->id, 1);
}

TEST(SharedFromThis, AnObserverOfAnObjectItsOwnChildOwnsReads) {
  // The review's case: valid, the owner lives through the child. With two owners that did not
  // know each other, the liveness check saw none, nulled `raw` and refused the message.
  Document written;
  auto owner = std::make_shared<Owner>(7, std::weak_ptr<Owned>{});
  written.leaf = std::make_shared<Owned>();
  written.leaf->parent = owner;
  owner->child = written.leaf;
  written.focus = owner;
  written.raw = owner.get();
  owner.reset();
  const auto r = bifrons::try_from_bytes<Document>(bifrons::to_bytes(written));
  ASSERT_TRUE(r) << r.message();
  ASSERT_NE(r->leaf, nullptr);
  EXPECT_EQ(r->raw, r->leaf->parent.get());
  EXPECT_EQ(r->focus.lock(), r->leaf->parent);
  EXPECT_TRUE(same_owner(r->focus.lock(), r->leaf->parent));
  written.leaf->parent.reset();  // the written cycle
}

}  // namespace
}  // namespace bifrons_test
