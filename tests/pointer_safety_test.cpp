// The addresses the reader hands out (bifrons/detail/objects.hpp): every input of the outside
// review of issue 32, with its exact bytes. Each read must fail or succeed cleanly under ASan,
// UBSan and LeakSanitizer (the asan stage), and every pointer a successful read returns must
// point at an object the value keeps.
#include <bifrons/pointers.hpp>
#include <bifrons/polymorphic.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "owning_types.hpp"
#include "types/test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;
using owning_types::Leaf;
using owning_types::Own;

/// Made only by load_and_construct.
struct NoDef {
  std::int32_t x;
  explicit NoDef(std::int32_t v) : x(v) {}
  template <class Archive>
  void save(Archive& ar) const {
    ar(x);
  }
  template <class Archive>
  static NoDef load_and_construct(Archive& ar) {
    std::int32_t v = 0;
    ar(v);
    return NoDef(v);
  }
};

/// An Own with a private default constructor, read into existing vectors.
struct O {
  Own own;
  explicit O(int) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::owning(own.p));
  }

 private:
  O() = default;
  friend bifrons::access;
};

struct Holder {
  std::unique_ptr<Leaf> u;
};
struct Top {
  std::weak_ptr<Holder> w;
  Leaf* raw = nullptr;
};
struct Box {
  std::shared_ptr<Leaf> s;
};
struct ThroughBox {
  std::weak_ptr<Box> w;
  Leaf* raw = nullptr;
};
struct WeakNode {
  std::shared_ptr<WeakNode> s;
  std::weak_ptr<WeakNode> w;
  WeakNode* raw = nullptr;
  std::int32_t v = 0;
};

struct A {
  std::int32_t id = 0;
  bool operator<(const A& o) const { return id < o.id; }
};
struct SelfPointing {
  A a;
  const A* p = nullptr;
};

/// Made by load_and_construct from locals: a pointer read into a local that points at another
/// local cannot be handed over.
struct HookMade {
  A a;
  const A* p = nullptr;
  HookMade(A x, const A* q) : a(x), p(q) {}
  template <class Archive>
  void save(Archive& ar) const {
    ar(a, p);
  }
  template <class Archive>
  static HookMade load_and_construct(Archive& ar) {
    A a;
    const A* p = nullptr;
    ar(a, p);
    return HookMade(a, p);
  }
};

// ---- what a review of the rebuilt layer found (a helper's attack) ---------------------------------

/// Has a destructor and no move constructor: moving it copies its vector.
struct CopiedOnly {
  std::vector<A> as;
  CopiedOnly() = default;
  CopiedOnly(const CopiedOnly&) = default;
  CopiedOnly& operator=(const CopiedOnly&) = default;
  ~CopiedOnly() {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(as);
  }
};
/// Owns a Leaf and copies it deeply: moving it copies the Leaf.
struct OwnCopied {
  Leaf* p = nullptr;
  OwnCopied() = default;
  OwnCopied(const OwnCopied& o) : p(o.p ? new Leaf(*o.p) : nullptr) {}
  OwnCopied& operator=(const OwnCopied& o) {
    if (this != &o) {
      delete p;
      p = o.p ? new Leaf(*o.p) : nullptr;
    }
    return *this;
  }
  ~OwnCopied() { delete p; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::owning(p));
  }
};
/// Its hook reads a Leaf into a local unique_ptr and keeps only its value.
struct FromLocal {
  std::int32_t v;
  explicit FromLocal(std::int32_t x) : v(x) {}
  template <class Archive>
  void save(Archive& ar) const {
    const auto u = std::make_unique<Leaf>(Leaf{v});
    ar(u);
  }
  template <class Archive>
  static FromLocal load_and_construct(Archive& ar) {
    std::unique_ptr<Leaf> u;
    ar(u);
    return FromLocal(u ? u->v : 0);
  }
};
/// Its hook reads an owning pointer into a local, then throws.
struct Refusing {
  Leaf* p;
  std::int32_t v;
  Refusing(Leaf* q, std::int32_t w) : p(q), v(w) {}
  Refusing(Refusing&& o) noexcept : p(std::exchange(o.p, nullptr)), v(o.v) {}
  ~Refusing() { delete p; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(bifrons::owning(p), v);
  }
  template <class Archive>
  static Refusing load_and_construct(Archive& ar) {
    Leaf* p = nullptr;
    std::int32_t v = 0;
    ar(bifrons::owning(p), v);
    if (v < 0) throw std::invalid_argument("negative");
    return Refusing(p, v);
  }
};
struct Twice {
  std::shared_ptr<Twice> a;
  std::weak_ptr<Twice> w;
  std::shared_ptr<Twice> b;
};
struct Linked {
  std::shared_ptr<Linked> s;
  std::weak_ptr<Linked> w;
};

struct Cyclic {
  std::shared_ptr<Cyclic> s1;
  std::weak_ptr<Cyclic> w;
  std::shared_ptr<Cyclic> s2;
};
struct Chained {
  std::shared_ptr<Chained> next;
};

struct PBase {
  virtual ~PBase() = default;
  std::int32_t id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};
struct PDerived : PBase {
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<PBase>(*this));
  }
};

}  // namespace
}  // namespace bifrons_test

template <>
inline constexpr bool bifrons::enable_identity<bifrons_test::A> = true;
BIFRONS_REGISTER(bifrons_test::PDerived, "pointer_safety.PDerived");

namespace bifrons_test {
namespace {

// ---- 1: owning slots recorded in objects that move --------------------------------------------

TEST(PointerSafety, OwningSlotInOptionalOfConst) {
  using T = std::pair<std::optional<const Own>, std::int32_t>;
  // The Own is read into a temporary and moved into the optional; then the int is missing.
  EXPECT_TRUE(fails_with<T>(B({0x01, 0x06, 0x01, 0x02, 0x0a}), errc::unexpected_end, 5, 1));
  // The same, complete: the moved Own keeps its Leaf.
  const auto r = bifrons::try_from_bytes<T>(B({0x01, 0x06, 0x01, 0x02, 0x0a, 0x04}));
  ASSERT_TRUE(r) << r.message();
  ASSERT_TRUE(r->first && r->first->p);
  EXPECT_EQ(r->first->p->v, 5);
  EXPECT_EQ(r->second, 2);
}

TEST(PointerSafety, OwningSlotInPairBuiltFromElements) {
  using T = std::vector<std::pair<Own, NoDef>>;
  EXPECT_TRUE(fails_with<T>(B({0x02, 0x06, 0x01, 0x02, 0x0a, 0x02, 0x02}), errc::unexpected_end, 7, 1));
  const auto r = bifrons::try_from_bytes<T>(B({0x01, 0x06, 0x01, 0x02, 0x0a, 0x02, 0x02}));
  ASSERT_TRUE(r) << r.message();
  ASSERT_EQ(r->size(), 1u);
  ASSERT_TRUE((*r)[0].first.p);
  EXPECT_EQ((*r)[0].first.p->v, 5);
  EXPECT_EQ((*r)[0].second.x, 1);
}

TEST(PointerSafety, OwningSlotInReusedVectorThatGrows) {
  std::vector<O> v;
  v.reserve(1);
  v.emplace_back(1);
  // The old element is read in place, then the vector needs room for a second one.
  EXPECT_THROW(bifrons::from_bytes(B({0x02, 0x06, 0x01, 0x02, 0x0a}), v), bifrons::error);
  // Complete: both elements own their Leaf.
  std::vector<O> w;
  w.reserve(1);
  w.emplace_back(1);
  bifrons::from_bytes(B({0x02, 0x06, 0x01, 0x02, 0x0a, 0x06, 0x01, 0x02, 0x0c}), w);
  ASSERT_EQ(w.size(), 2u);
  ASSERT_TRUE(w[0].own.p && w[1].own.p);
  EXPECT_EQ(w[0].own.p->v, 5);
  EXPECT_EQ(w[1].own.p->v, 6);
}

// ---- 2: non-owning pointers to objects that die with the table ---------------------------------

TEST(PointerSafety, RawPointerIntoObjectOwnedByWeakOnlyObject) {
  // Holder is owned outside the message: only the weak_ptr reaches it. The writer refuses the
  // value (the Leaf would die with the read, and raw dangle), and the reader its bytes.
  const auto holder = std::make_shared<Holder>();
  holder->u = std::make_unique<Leaf>(Leaf{42});
  const Top top{holder, holder->u.get()};
  std::array<std::byte, 64> buffer{};
  const auto refused = bifrons::try_to_bytes(top, buffer);
  EXPECT_EQ(refused.code(), errc::unwritten_pointee);
  EXPECT_NE(refused.message().find("inside a shared object that the value does not own"), std::string::npos)
      << refused.message();
  EXPECT_TRUE(fails_with<Top>(B({0x0c, 0x01, 0x06, 0x01, 0x02, 0x54, 0x04}), errc::invalid_value, 6));
}

TEST(PointerSafety, RawPointerIntoChildOfWeakOnlyObject) {
  // outer: s = new n1 (id 1) { s null, w = new n3 (id 2) { s = new n4 (id 3) { v 42 }, w null,
  // raw null, v 0 }, raw null, v 0 }, w null, raw -> n4 (tag 5), v 0. Only n1's weak_ptr holds n3,
  // so n3 and the n4 it owns die with the read, and raw would dangle.
  const bytes b = B({0x26, 0x01, 0x1c, 0x00, 0x01, 0x12, 0x01, 0x08, 0x00, 0x00,
                     0x00, 0x54, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00});
  EXPECT_TRUE(fails_with<WeakNode>(b, errc::invalid_value, 18));
}

TEST(PointerSafety, RawPointerIntoObjectOwnedOnlyFromAWeakOnlyObject) {
  // The Leaf is owned by a shared_ptr, but that shared_ptr lies in a Box that only the weak_ptr
  // reaches: reading, the Box dies and takes the Leaf with it. The writer asked only whether a
  // shared_ptr of the message owned the Leaf, and accepted the value.
  const auto box = std::make_shared<Box>();
  box->s = std::make_shared<Leaf>(Leaf{42});
  const ThroughBox value{box, box->s.get()};
  std::array<std::byte, 64> buffer{};
  EXPECT_EQ(bifrons::try_to_bytes(value, buffer).code(), errc::unwritten_pointee);
  // w: new Box (id 1) { s: new Leaf (id 2) { 42 } }, raw -> id 2 (tag 4)
  EXPECT_TRUE(fails_with<ThroughBox>(B({0x0c, 0x01, 0x06, 0x01, 0x02, 0x54, 0x04}), errc::invalid_value, 6));
  // Owned from the value itself, it lives.
  struct Kept {
    std::shared_ptr<Box> box;
    Leaf* raw = nullptr;
  };
  const Kept kept{box, box->s.get()};
  const auto back = bifrons::try_from_bytes<Kept>(bifrons::to_bytes(kept));
  ASSERT_TRUE(back) << back.message();
  EXPECT_EQ(back->raw, back->box->s.get());
}

// ---- 3: pointers to objects with identity that move --------------------------------------------

TEST(PointerSafety, MapValuePointsAtItsOwnKey) {
  std::map<A, const A*> m;
  const auto it = m.emplace(A{7}, nullptr).first;
  it->second = &it->first;
  const bytes b = bifrons::to_bytes(m);
  EXPECT_EQ(hex(b), "01 02 0e 03");
  const auto r = bifrons::try_from_bytes<std::map<A, const A*>>(b);
  ASSERT_TRUE(r) << r.message();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(r->begin()->second, &r->begin()->first);
}

TEST(PointerSafety, SetKeyPointingIntoItselfIsRefused) {
  // The key is placed by its value, the pointer included: rewriting the pointer after the key is
  // in its node would change its order under the set.
  using Key = std::pair<A, const A*>;
  std::set<Key> keys;
  const auto it = keys.emplace(A{7}, nullptr).first;
  const_cast<const A*&>(it->second) = &it->first;
  const bytes b = bifrons::to_bytes(keys);
  EXPECT_EQ(hex(b), "01 02 0e 03");
  EXPECT_TRUE(fails_with<std::set<Key>>(b, errc::invalid_value, 1));
}

TEST(PointerSafety, TopLevelValuePointsIntoItself) {
  SelfPointing s;
  s.a.id = 7;
  s.p = &s.a;
  const bytes b = bifrons::to_bytes(s);
  EXPECT_EQ(hex(b), "06 02 0e 03");
  const auto r = bifrons::try_from_bytes<SelfPointing>(b);
  ASSERT_TRUE(r) << r.message();
  EXPECT_EQ(r->p, &r->a);
  SelfPointing existing;
  bifrons::from_bytes(b, existing);
  EXPECT_EQ(existing.p, &existing.a);
  // Returned by value, the value moves (a 16-byte trivially copyable struct comes back in
  // registers): the read fails rather than return a pointer into the moved-from object.
  try {
    const SelfPointing moved = bifrons::from_bytes<SelfPointing>(b);
    ADD_FAILURE() << "from_bytes<T> returned a value pointing into itself: " << moved.p << " vs " << &moved.a;
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_value);
    EXPECT_EQ(e.offset(), 3u);
  }
  bifrons::reader stream(b);
  try {
    (void)stream.read<SelfPointing>();
    ADD_FAILURE() << "reader::read<T>() returned a value pointing into itself";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_value);
  }
}

TEST(PointerSafety, PointerIntoOptionalOfConst) {
  using T = std::pair<std::optional<const A>, const A*>;
  const auto r = bifrons::try_from_bytes<T>(B({0x01, 0x02, 0x0e, 0x03}));
  ASSERT_TRUE(r) << r.message();
  ASSERT_TRUE(r->first);
  EXPECT_EQ(r->second, &*r->first);
}

TEST(PointerSafetyReview, ElementThatCopiesKeepsNoAddresses) {
  // The map's element is read into a temporary and copied into its node: the objects in the
  // temporary's vector die with it, so a pointer to one cannot be handed out.
  using T = std::pair<std::map<std::int32_t, CopiedOnly>, const A*>;
  T v;
  v.first[1].as = {A{7}};
  v.second = &v.first[1].as[0];
  const bytes b = bifrons::to_bytes(v);
  EXPECT_EQ(hex(b), "01 02 06 01 02 0e 03");
  EXPECT_TRUE(fails_with<T>(b, errc::invalid_value, 1));  // where the element begins
}

TEST(PointerSafetyReview, OwningPointerInElementThatCopies) {
  using T = std::pair<std::map<std::int32_t, OwnCopied>, std::int32_t>;
  EXPECT_TRUE(fails_with<T>(B({0x01, 0x02, 0x06, 0x01, 0x02, 0x0a}), errc::unexpected_end, 6, 1));
  const auto r = bifrons::try_from_bytes<T>(B({0x01, 0x02, 0x06, 0x01, 0x02, 0x0a, 0x04}));
  ASSERT_TRUE(r) << r.message();
  ASSERT_TRUE(r->first.at(1).p);
  EXPECT_EQ(r->first.at(1).p->v, 5);
}

TEST(PointerSafetyReview, ObjectOfHookLocalPointerDiesWithIt) {
  using T = std::pair<FromLocal, const Leaf*>;
  EXPECT_EQ(hex_of(T{FromLocal(5), nullptr}), "06 01 02 0a 00");
  EXPECT_TRUE(fails_with<T>(B({0x06, 0x01, 0x02, 0x0a, 0x03}), errc::invalid_value, 4));
}

TEST(PointerSafetyReview, HookThatThrowsFreesItsOwningLocals) {
  // LeakSanitizer (the asan stage) fails this test if the Leaf leaks.
  const auto r = bifrons::try_from_bytes<Refusing>(B({0x08, 0x01, 0x02, 0x0a, 0x01}));
  EXPECT_EQ(r.code(), errc::user_error);
}

TEST(PointerSafetyReview, CycleThroughTwoLinksUp) {
  // O1.w introduces O2, O2.w introduces Y; Y.a refers up to O1, Y.b up to O2; then O2.b refers to
  // the finished Y: O2 and Y own each other.
  EXPECT_TRUE(fails_with<std::shared_ptr<Twice>>(
      B({0x01, 0x16, 0x00, 0x01, 0x0e, 0x00, 0x01, 0x06, 0x03, 0x00, 0x04, 0x05, 0x00}), errc::invalid_value, 10));
  auto o1 = std::make_shared<Twice>();
  auto o2 = std::make_shared<Twice>();
  auto y = std::make_shared<Twice>();
  o1->w = o2;
  o2->w = y;
  y->a = o1;
  y->b = o2;
  o2->b = y;
  std::array<std::byte, 64> buffer{};
  EXPECT_EQ(bifrons::try_to_bytes(o1, buffer).code(), errc::ownership_cycle);
  o2->b.reset();
  y->a.reset();
}

TEST(PointerSafetyReview, ChainThroughLinksUpIsBounded) {
  // Two roots introduced by weak_ptrs, each nesting two objects whose s refers up to their parent,
  // the second root's s to the first chain's top: a chain of 6 owners, each object at depth <= 3.
  using T = std::pair<std::vector<std::weak_ptr<Linked>>, std::shared_ptr<Linked>>;
  const bytes b = B({0x02, 0x01, 0x10, 0x00, 0x01, 0x0a, 0x03, 0x01, 0x04, 0x04, 0x00,
                     0x01, 0x10, 0x05, 0x01, 0x0a, 0x06, 0x01, 0x04, 0x07, 0x00, 0x08});
  bifrons::read_options options;
  options.max_depth = 8;
  const auto fine = bifrons::try_from_bytes<T>(b, options);
  ASSERT_TRUE(fine) << fine.message();
  options.max_depth = 5;
  EXPECT_EQ(bifrons::try_from_bytes<T>(b, options).code(), errc::depth_limit_exceeded);
}

TEST(PointerSafety, PointerIntoHookLocalIsRefused) {
  const HookMade made(A{7}, nullptr);
  HookMade self(A{7}, nullptr);
  self.p = &self.a;
  const bytes b = bifrons::to_bytes(self);
  EXPECT_EQ(hex(b), "06 02 0e 03");
  // The hook's local `a` dies with it: its pointer to it would dangle in the new object.
  EXPECT_TRUE(fails_with<HookMade>(b, errc::invalid_value, 3));
  const auto plain = bifrons::try_from_bytes<HookMade>(bifrons::to_bytes(made));
  ASSERT_TRUE(plain) << plain.message();
  EXPECT_EQ(plain->a.id, 7);
}

TEST(PointerSafety, DuplicateKeyForgetsItsObjects) {
  // The second element's key is a duplicate: it dies unmoved, with the pointer into it.
  using T = std::map<A, const A*>;
  EXPECT_TRUE(fails_with<T>(B({0x02, 0x02, 0x0e, 0x03, 0x02, 0x0e, 0x04}), errc::duplicate_key, 4));
}

TEST(PointerSafety, AMapWhoseEntriesNameEachOthersKeysOutOfOrderReadsButMayNotWriteAgain) {
  // Entry 2 (key 5) names entry 1's key (7), which the map puts after it. The value reads with
  // every pointer valid; written again, the pointer would come before the key it names, which
  // the writer refuses (format.md section 12), naming the pointee.
  using T = std::map<A, const A*>;
  const bytes out_of_order = B({0x02, 0x02, 0x0e, 0x03, 0x02, 0x0a, 0x03});
  const auto read = bifrons::try_from_bytes<T>(out_of_order);
  ASSERT_TRUE(read) << read.message();
  ASSERT_EQ(read->size(), 2u);
  const A& five = read->begin()->first;
  const A& seven = std::next(read->begin())->first;
  EXPECT_EQ(read->begin()->second, &seven);
  EXPECT_EQ(std::next(read->begin())->second, &seven);
  EXPECT_EQ(five.id + seven.id, 12);
  std::array<std::byte, 64> buffer{};
  const auto again = bifrons::try_to_bytes(*read, buffer);
  EXPECT_EQ(again.code(), errc::unwritten_pointee);
  EXPECT_NE(again.message().find("points at an object that the value does not write before it"), std::string::npos)
      << again.message();
  // In the map's order, as the writer writes it, the same entries read and write back the bytes.
  const bytes in_order = B({0x02, 0x02, 0x0a, 0x03, 0x02, 0x0e, 0x03});
  const auto ordered = bifrons::try_from_bytes<T>(in_order);
  ASSERT_TRUE(ordered) << ordered.message();
  EXPECT_EQ(ordered->begin()->second, &ordered->begin()->first);
  EXPECT_EQ(bifrons::to_bytes(*ordered), in_order);
}

// ---- 4 and 5: cycles and chains of owners -------------------------------------------------------

TEST(PointerSafety, SharedCycleThroughWeakLinkIsRefused) {
  // A's w introduces B; B's s1 refers back to A (above the weak link: allowed); then A's s2
  // refers to the finished B, which owns A: a cycle of owners. The graph of owners is checked
  // when the value ends, and the read fails at the link up inside the cycle (B's s1).
  EXPECT_TRUE(fails_with<std::shared_ptr<Cyclic>>(B({0x01, 0x0e, 0x00, 0x01, 0x06, 0x03, 0x00, 0x00, 0x04}),
                                                  errc::invalid_value, 5));
  // The writer refuses the same value.
  auto a = std::make_shared<Cyclic>();
  auto b = std::make_shared<Cyclic>();
  a->w = b;
  b->s1 = a;
  a->s2 = b;
  std::array<std::byte, 64> buffer{};
  EXPECT_EQ(bifrons::try_to_bytes(a, buffer).code(), errc::ownership_cycle);
  a->s2.reset();  // break it, so that the test does not leak
  // Without s2 it is no cycle: B is then owned only by A's... nothing: the weak_ptr expires.
  const auto r =
      bifrons::try_from_bytes<std::shared_ptr<Cyclic>>(B({0x01, 0x0e, 0x00, 0x01, 0x06, 0x03, 0x00, 0x00, 0x00}));
  ASSERT_TRUE(r) << r.message();
  EXPECT_TRUE((*r)->w.expired());
}

TEST(PointerSafety, ChainOfBackReferencesIsBoundedByMaxDepth) {
  // Node i's next refers back to node i - 1: each object is read at depth 2, but destroying the
  // last would recurse through all of them.
  const auto chain = [](std::size_t n) {
    bytes b = varint_bytes(n);
    for (std::size_t i = 0; i < n; ++i) {
      const bytes next = i == 0 ? B({0x00}) : varint_bytes(3 + (i - 1));
      b.push_back(std::byte{0x01});
      put_varint(b, 2 * next.size());
      b.insert(b.end(), next.begin(), next.end());
    }
    return b;
  };
  bifrons::read_options options;
  options.max_depth = 16;
  const auto fine = bifrons::try_from_bytes<std::vector<std::shared_ptr<Chained>>>(chain(16), options);
  ASSERT_TRUE(fine) << fine.message();
  EXPECT_EQ(fine->back()->next, (*fine)[14]);
  const auto deep = bifrons::try_from_bytes<std::vector<std::shared_ptr<Chained>>>(chain(17), options);
  EXPECT_EQ(deep.code(), errc::depth_limit_exceeded);
  // 100,000 nodes (the review overflowed an ASan build's stack at this many) with the default
  // limits: refused, and nothing recurses deeply.
  const auto big = bifrons::try_from_bytes<std::vector<std::shared_ptr<Chained>>>(chain(100'000));
  EXPECT_EQ(big.code(), errc::depth_limit_exceeded);
}

// ---- 6 and 7: what tag 2 costs -----------------------------------------------------------------

/// A vector of one PDerived (tag 2) whose header lists its name `names` times and counts `inside`
/// objects inside it, then a plain PBase (tag 1).
bytes tag2_message(std::size_t names, std::uint64_t inside) {
  const std::string name = "pointer_safety.PDerived";
  bytes b = B({0x02, 0x02, 0x00});
  put_varint(b, names);
  for (std::size_t i = 0; i < names; ++i) {
    put_varint(b, name.size());
    for (char c : name) b.push_back(static_cast<std::byte>(c));
  }
  b.push_back(std::byte{0x01});
  put_varint(b, inside);
  const bytes rest = B({0x04, 0x02, 0x00, 0x01, 0x02, 0x00});
  b.insert(b.end(), rest.begin(), rest.end());
  return b;
}

TEST(PointerSafety, TypeNamesAreChargedWhatTheyHold) {
  using T = std::vector<std::unique_ptr<PBase>>;
  // A name takes three pointers in the reader's list, up to twice that while the list grows:
  // charged 6 pointers now, 2 before. A budget of 4 pointers a name passed before and not now.
  constexpr std::size_t names = 1'000;
  bifrons::read_options options;
  options.max_alloc_bytes = names * 12 * sizeof(void*);
  const auto fits = bifrons::try_from_bytes<T>(tag2_message(names, 0), options);
  ASSERT_TRUE(fits) << fits.message();
  ASSERT_EQ(fits->size(), 2u);
  EXPECT_NE(dynamic_cast<const PDerived*>((*fits)[0].get()), nullptr);
  options.max_alloc_bytes = names * 4 * sizeof(void*);
  EXPECT_EQ(bifrons::try_from_bytes<T>(tag2_message(names, 0), options).code(), errc::allocation_limit_exceeded);
}

TEST(PointerSafety, Tag2CountIsCheckedAgainstItsEnvelope) {
  using T = std::vector<std::unique_ptr<PBase>>;
  // The envelope (04 02 00) holds 2 bytes: at most 2 objects inside. 3 fit the rest of the input.
  const bytes b = tag2_message(1, 3);
  EXPECT_TRUE(fails_with<T>(b, errc::invalid_value, 29));
  const auto two = bifrons::try_from_bytes<T>(tag2_message(1, 2));
  EXPECT_TRUE(two) << two.message();  // an older reader's skipped objects: ids handed out
}

}  // namespace
}  // namespace bifrons_test
