// Polymorphic pointers (bifrons/polymorphic.hpp; docs/format.md section 23, tag 2): registration,
// every pointer kind holding derived objects, multiple and virtual inheritance, unknown types,
// older readers of newer polymorphic objects, type safety and limits.
//
// This program plays an older reader of tests/golden/polymorphic_unknown.bin: it does not
// register golden.Triangle.
#define BIFRONS_GOLDEN_OLD_READER
#include "golden_cases.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "types/test_support.hpp"

namespace poly {

struct Shape {
  std::int32_t id = 0;
  virtual ~Shape() = default;
  virtual int kind() const { return 0; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
struct Circle : Shape {
  std::int32_t radius = 0;
  int kind() const override { return 1; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), radius);
  }
};
struct Square final : Shape {
  std::int32_t side = 0;
  int kind() const override { return 2; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), side);
  }
};
/// Derived from a registered class, registered itself: two steps to Shape.
struct Ring final : Circle {
  std::int32_t inner = 0;
  int kind() const override { return 3; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Circle>(*this), inner);
  }
};
/// Never registered.
struct Unlisted final : Shape {
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this));
  }
};

/// An interface without data: no hook names it, the registration lists it.
struct Drawable {
  virtual ~Drawable() = default;
  virtual int draw() const = 0;
};
struct Sprite final : Shape, Drawable {
  std::int32_t frame = 0;
  int draw() const override { return frame; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), frame);
  }
};
/// Registered without listing Drawable: a Drawable pointer cannot hold it.
struct Gadget final : Drawable {
  std::int32_t power = 0;
  int draw() const override { return power; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(power);
  }
};

/// Multiple inheritance, with data in both bases.
struct Named {
  std::string name;
  virtual ~Named() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(name);
  }
};
struct Label final : Shape, Named {
  std::int32_t size = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), bifrons::base<Named>(*this), size);
  }
};

/// A diamond.
struct Root {
  std::int32_t root = 0;
  virtual ~Root() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(root);
  }
};
struct Left : virtual Root {
  std::int32_t left = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), left);
  }
};
struct Right : virtual Root {
  std::int32_t right = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), right);
  }
};
struct Join final : Left, Right {
  std::int32_t join = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Left>(*this), bifrons::base<Right>(*this), join);
  }
};
/// An older Right, without its field: data of it lacks `right`.
struct OldRight : virtual Root {
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this));
  }
};
struct OldJoin final : Left, OldRight {
  std::int32_t join = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Left>(*this), bifrons::base<OldRight>(*this), join);
  }
};

/// A polymorphic graph: shared children, weak parents.
struct Node {
  std::int32_t value = 0;
  std::vector<std::shared_ptr<Node>> children;
  std::weak_ptr<Node> parent;
  virtual ~Node() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(value, children, parent);
  }
};
struct Group final : Node {
  std::string title;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Node>(*this), title);
  }
};

/// Two versions of one registered type (registered at run time, one at a time): the newer one
/// appended a field that holds an object.
struct Thing {
  std::int32_t id = 0;
  virtual ~Thing() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
struct ThingV1 final : Thing {
  std::int32_t a = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Thing>(*this), a);
  }
};
struct ThingV2 final : Thing {
  std::int32_t a = 0;
  std::shared_ptr<Shape> extra;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Thing>(*this), a, extra);
  }
};
struct Message {
  std::unique_ptr<Thing> thing;
  std::shared_ptr<Shape> after;
  std::shared_ptr<Shape> again;
};

/// A polymorphic node with an owning raw pointer.
struct RawNode {
  std::int32_t value = 0;
  Shape* shape = nullptr;
  RawNode() = default;
  RawNode(const RawNode&) = delete;
  RawNode& operator=(const RawNode&) = delete;
  ~RawNode() { delete shape; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(value, bifrons::owning(shape));
  }
};

/// A chain of polymorphic links, torn down without recursion.
struct Link {
  std::unique_ptr<Link> next;
  virtual ~Link() {
    while (next) next = std::move(next->next);
  }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(next);
  }
};
struct Step final : Link {
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Link>(*this));
  }
};

/// Private hook and private default constructor (friend bifrons::access): the registry makes its
/// objects through access too.
class Sealed final : public Shape {
 public:
  explicit Sealed(std::int32_t code) : code_(code) {}
  std::int32_t code() const { return code_; }
  int kind() const override { return 11; }

 private:
  friend bifrons::access;
  Sealed() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), code_);
  }
  std::int32_t code_ = 0;
};

// ---- classes that only load_and_construct makes (issue 33 item 25) ----

/// Counts the objects alive of the classes below: a failed read must leave none behind.
inline int made_alive = 0;

/// A child that points back at the object that is being made around it.
struct Kid final : Shape {
  Shape* parent = nullptr;
  std::weak_ptr<Shape> up;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), parent, up);
  }
};

/// No default constructor, not assignable (a const member): made only by its hook, never read
/// into. Its hook throws for a negative weight.
class Built final : public Shape {
 public:
  Built(std::int32_t i, std::int32_t w, std::vector<std::unique_ptr<Shape>> k) : weight(w), kids(std::move(k)) {
    id = i;
    ++made_alive;
  }
  Built(const Built&) = delete;
  Built& operator=(const Built&) = delete;
  ~Built() override { --made_alive; }
  int kind() const override { return 10; }
  const std::int32_t weight;
  std::vector<std::unique_ptr<Shape>> kids;
  template <class Ar>
  void save(Ar& ar) const {
    ar(id, weight, kids);
  }
  template <class Ar>
  static Built load_and_construct(Ar& ar) {
    std::int32_t i = 0, w = 0;
    std::vector<std::unique_ptr<Shape>> k;
    ar(i, w, k);
    if (w < 0) throw std::invalid_argument("negative weight");
    return Built(i, w, std::move(k));
  }
};

/// Built by its hook, shared, and knows its owner.
class BuiltShared final : public Shape, public std::enable_shared_from_this<BuiltShared> {
 public:
  explicit BuiltShared(std::int32_t i) {
    id = i;
    ++made_alive;
  }
  BuiltShared(const BuiltShared&) = delete;
  BuiltShared& operator=(const BuiltShared&) = delete;
  ~BuiltShared() override { --made_alive; }
  template <class Ar>
  void save(Ar& ar) const {
    ar(id);
  }
  template <class Ar>
  static BuiltShared load_and_construct(Ar& ar) {
    std::int32_t i = 0;
    ar(i);
    return BuiltShared(i);
  }
};

/// Built by its hook, with its data in a second base (Named) and a virtual base (Root).
class BuiltMixed final : public Shape, public Named, public virtual Root {
 public:
  BuiltMixed(std::string n, std::int32_t r, std::int32_t i) {
    name = std::move(n);
    root = r;
    id = i;
    ++made_alive;
  }
  BuiltMixed(const BuiltMixed&) = delete;
  BuiltMixed& operator=(const BuiltMixed&) = delete;
  ~BuiltMixed() override { --made_alive; }
  template <class Ar>
  void save(Ar& ar) const {
    ar(name, root, id);
  }
  template <class Ar>
  static BuiltMixed load_and_construct(Ar& ar) {
    std::string n;
    std::int32_t r = 0, i = 0;
    ar(n, r, i);
    return BuiltMixed(std::move(n), r, i);
  }
};
/// A child that points back through the virtual base.
struct RootKid final : Shape {
  Root* parent = nullptr;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), parent);
  }
};
class BuiltOverRoot final : public Shape, public virtual Root {
 public:
  explicit BuiltOverRoot(std::unique_ptr<Shape> k) : kid(std::move(k)) { ++made_alive; }
  BuiltOverRoot(const BuiltOverRoot&) = delete;
  BuiltOverRoot& operator=(const BuiltOverRoot&) = delete;
  ~BuiltOverRoot() override { --made_alive; }
  std::unique_ptr<Shape> kid;
  template <class Ar>
  void save(Ar& ar) const {
    ar(kid);
  }
  template <class Ar>
  static BuiltOverRoot load_and_construct(Ar& ar) {
    std::unique_ptr<Shape> k;
    ar(k);
    return BuiltOverRoot(std::move(k));
  }
};

/// A root, and a pointer to its virtual base read after it.
struct Later {
  std::unique_ptr<Root> top;
  Root* parent = nullptr;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(top, parent);
  }
};

/// Every pointer kind holding objects made by their hook.
struct BuiltHolder {
  std::unique_ptr<Shape> unique;
  std::shared_ptr<Shape> shared, again;
  std::weak_ptr<Shape> weak;
  Shape* owned = nullptr;
  std::shared_ptr<Shape> self;  // a BuiltShared
  std::unique_ptr<Named> second;
  std::unique_ptr<Root> virtual_base;
  BuiltHolder() = default;
  BuiltHolder(const BuiltHolder&) = delete;
  BuiltHolder& operator=(const BuiltHolder&) = delete;
  BuiltHolder(BuiltHolder&& o) noexcept
      : unique(std::move(o.unique)),
        shared(std::move(o.shared)),
        again(std::move(o.again)),
        weak(std::move(o.weak)),
        owned(std::exchange(o.owned, nullptr)),
        self(std::move(o.self)),
        second(std::move(o.second)),
        virtual_base(std::move(o.virtual_base)) {}
  BuiltHolder& operator=(BuiltHolder&&) = delete;
  ~BuiltHolder() { delete owned; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(unique, shared, again, weak, bifrons::owning(owned), self, second, virtual_base);
  }
};

}  // namespace poly

BIFRONS_REGISTER(poly::Sealed, "poly.Sealed");
BIFRONS_REGISTER(poly::Circle, "poly.Circle");
BIFRONS_REGISTER(poly::Square, "poly.Square");
BIFRONS_REGISTER(poly::Ring, "poly.Ring");
BIFRONS_REGISTER(poly::Sprite, "poly.Sprite", poly::Drawable);
BIFRONS_REGISTER(poly::Gadget, "poly.Gadget");
BIFRONS_REGISTER(poly::Label, "poly.Label");
BIFRONS_REGISTER(poly::Join, "poly.Join");
BIFRONS_REGISTER(poly::OldJoin, "poly.OldJoin");
BIFRONS_REGISTER(poly::Group, "poly.Group");
BIFRONS_REGISTER(poly::Step, "poly.Step");
BIFRONS_REGISTER(poly::Kid, "poly.Kid");
BIFRONS_REGISTER(poly::Built, "poly.Built", poly::Shape);
BIFRONS_REGISTER(poly::BuiltShared, "poly.BuiltShared", poly::Shape);
BIFRONS_REGISTER(poly::BuiltMixed, "poly.BuiltMixed", poly::Shape, poly::Named, poly::Root);
BIFRONS_REGISTER(poly::RootKid, "poly.RootKid");
BIFRONS_REGISTER(poly::BuiltOverRoot, "poly.BuiltOverRoot", poly::Shape, poly::Root);

namespace bifrons_test {
namespace {

using bifrons::errc;
using namespace poly;

template <class T, class... A>
std::unique_ptr<T> make(A... fields) {
  auto p = std::make_unique<T>();
  if constexpr (sizeof...(A) > 0) {
    const std::int32_t values[] = {fields...};
    p->id = values[0];
    if constexpr (requires { p->radius; }) p->radius = values[1];
    if constexpr (requires { p->side; }) p->side = values[1];
  }
  return p;
}

/// typeid of what p points to (clang warns about typeid of an expression that calls a function).
template <class P>
const std::type_info& dynamic_type(const P& p) {
  const auto& object = *p;
  return typeid(object);
}

bifrons::read_options null_policy() {
  bifrons::read_options options;
  options.unknown_types = bifrons::unknown_type_policy::null;
  return options;
}

using spec = golden::spec::bytes;

/// "02 00 01 <len> <name>": tag 2 and the header listing one new name.
spec new_name_spec(std::string_view name) { return spec{}.u(2).u(0).u(1).str(name); }
bytes new_name(std::string_view name) { return new_name_spec(name).out; }

// ---- the encoding --------------------------------------------------------------------------

TEST(Polymorphic, FirstObjectListsItsNameLaterOnesItsIndex) {
  std::vector<std::unique_ptr<Shape>> v;
  v.push_back(make<Circle>(1, 2));
  v.push_back(make<Circle>(3, 6));
  v.push_back(make<Shape>(4));
  v.push_back(nullptr);
  const bytes expected = cat({B({0x04}), new_name("poly.Circle"), B({0x01, 0x00, 0x06, 0x02, 0x02, 0x04}),
                              B({0x02, 0x01, 0x00, 0x06, 0x02, 0x06, 0x0c}),  // index 1
                              B({0x01, 0x02, 0x08}),                          // a Shape: tag 1
                              B({0x00})});
  EXPECT_EQ(hex(bifrons::to_bytes(v)), hex(expected));
  EXPECT_EQ(bifrons::serialized_size(v), expected.size());

  const auto back = bifrons::from_bytes<std::vector<std::unique_ptr<Shape>>>(expected);
  ASSERT_EQ(back.size(), 4u);
  ASSERT_EQ(dynamic_type(back[0]), typeid(Circle));
  EXPECT_EQ(back[0]->id, 1);
  EXPECT_EQ(static_cast<const Circle&>(*back[0]).radius, 2);
  ASSERT_EQ(dynamic_type(back[1]), typeid(Circle));
  EXPECT_EQ(static_cast<const Circle&>(*back[1]).radius, 6);
  EXPECT_EQ(dynamic_type(back[2]), typeid(Shape));
  EXPECT_EQ(back[2]->id, 4);
  EXPECT_EQ(back[3], nullptr);
}

TEST(Polymorphic, AClassDerivedFromARegisteredClass) {
  auto ring = std::make_unique<Ring>();
  ring->id = 1;
  ring->radius = 2;
  ring->inner = 3;
  const std::unique_ptr<Shape> p = std::move(ring);
  const auto back = round_trip(p);
  ASSERT_EQ(dynamic_type(back), typeid(Ring));
  const auto& r = static_cast<const Ring&>(*back);
  EXPECT_EQ(r.id, 1);
  EXPECT_EQ(r.radius, 2);
  EXPECT_EQ(r.inner, 3);
  EXPECT_EQ(back->kind(), 3);
  // Through a pointer to the intermediate class too.
  std::unique_ptr<Circle> c = std::make_unique<Ring>();
  EXPECT_EQ(dynamic_type(round_trip(c)), typeid(Ring));
}

TEST(Polymorphic, AnInterfaceListedInTheRegistration) {
  auto sprite = std::make_unique<Sprite>();
  sprite->frame = 7;
  const std::unique_ptr<Drawable> p = std::move(sprite);
  const auto back = round_trip(p);
  ASSERT_EQ(dynamic_type(back), typeid(Sprite));
  EXPECT_EQ(back->draw(), 7);
  // The Drawable subobject is not at the Sprite's address: the pointer was adjusted.
  EXPECT_NE(static_cast<const void*>(back.get()), dynamic_cast<const void*>(back.get()));
}

// ---- every pointer kind --------------------------------------------------------------------

struct Holders {
  std::shared_ptr<Shape> shared;
  std::shared_ptr<const Shape> shared_const;
  std::weak_ptr<Shape> weak;
  const Shape* observer = nullptr;
  std::vector<std::unique_ptr<Shape>> owned;
};

TEST(Polymorphic, EveryPointerKindKeepsTheDynamicType) {
  Holders h;
  h.shared = make<Square>(1, 4);
  h.shared_const = h.shared;
  h.weak = h.shared;
  h.owned.push_back(make<Circle>(2, 9));
  // The owned circle is written after the observer, so the observer points at the square.
  h.observer = h.shared.get();
  const auto back = round_trip(h);
  ASSERT_NE(back.shared, nullptr);
  EXPECT_EQ(dynamic_type(back.shared), typeid(Square));
  EXPECT_EQ(back.shared_const, back.shared);
  EXPECT_EQ(back.weak.lock(), back.shared);
  EXPECT_EQ(back.observer, back.shared.get());
  EXPECT_EQ(back.shared.use_count(), 2);
  ASSERT_EQ(back.owned.size(), 1u);
  EXPECT_EQ(dynamic_type(back.owned[0]), typeid(Circle));
}

/// Many polymorphic objects, and observers of them written after all of them.
struct Crowd {
  std::vector<std::unique_ptr<Shape>> shapes;
  std::vector<std::shared_ptr<Shape>> shared;
  std::vector<const Shape*> observers;  // shapes and shared, last first
};

TEST(Polymorphic, ManyObjectsKeepTheirTypesAndReferencesToThem) {
  // 400 objects: the reader's object table grows several times, and the observers' references
  // past the 125th object take two-byte tags.
  Crowd c;
  for (std::int32_t i = 0; i < 200; ++i) {
    if (i % 3 == 0)
      c.shapes.push_back(make<Circle>(i, i));
    else if (i % 3 == 1)
      c.shapes.push_back(make<Square>(i, i));
    else
      c.shapes.push_back(make<Shape>(i));
  }
  for (std::int32_t i = 0; i < 200; ++i) {
    if (i % 2 == 0)
      c.shared.push_back(make<Ring>(1000 + i, i));
    else
      c.shared.push_back(make<Square>(1000 + i, i));
  }
  for (std::size_t i = c.shared.size(); i-- > 0;) c.observers.push_back(c.shared[i].get());
  for (std::size_t i = c.shapes.size(); i-- > 0;) c.observers.push_back(c.shapes[i].get());
  const auto back = round_trip(c);
  ASSERT_EQ(back.shapes.size(), 200u);
  ASSERT_EQ(back.shared.size(), 200u);
  ASSERT_EQ(back.observers.size(), 400u);
  for (std::size_t i = 0; i < 200; ++i) {
    ASSERT_TRUE(back.shapes[i] && back.shared[i]);
    EXPECT_EQ(back.shapes[i]->id, static_cast<std::int32_t>(i));
    EXPECT_EQ(back.shapes[i]->kind(), i % 3 == 0 ? 1 : i % 3 == 1 ? 2 : 0);
    EXPECT_EQ(back.shared[i]->id, static_cast<std::int32_t>(1000 + i));
    EXPECT_EQ(dynamic_type(back.shared[i]), i % 2 == 0 ? typeid(Ring) : typeid(Square));
    EXPECT_EQ(back.shared[i].use_count(), 1);
    EXPECT_EQ(back.observers[199 - i], back.shared[i].get());
    EXPECT_EQ(back.observers[399 - i], back.shapes[i].get());
  }
}

/// A pointer and a reference (an aggregate with a reference_wrapper needs a hook: it converts
/// from almost anything, which defeats member counting).
template <class Pointer>
struct Referrer {
  Pointer owner;
  std::reference_wrapper<Shape> ref;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(owner, ref);
  }
};

TEST(Polymorphic, ReferenceWrapperToADerivedObject) {
  using Pair = Referrer<std::unique_ptr<Shape>>;
  Shape placeholder;
  Pair p{make<Circle>(5, 6), placeholder};
  p.ref = *p.owner;
  Pair back{nullptr, placeholder};
  bifrons::from_bytes(bifrons::to_bytes(p), back);
  ASSERT_NE(back.owner, nullptr);
  EXPECT_EQ(&back.ref.get(), back.owner.get());
  EXPECT_EQ(back.ref.get().kind(), 1);
}

TEST(Polymorphic, OwningRawPointer) {
  RawNode n;
  n.value = 3;
  n.shape = make<Square>(1, 2).release();
  RawNode back;
  bifrons::from_bytes(bifrons::to_bytes(n), back);
  ASSERT_NE(back.shape, nullptr);
  EXPECT_EQ(dynamic_type(back.shape), typeid(Square));
  EXPECT_EQ(static_cast<Square*>(back.shape)->side, 2);

  // Reading data of another type replaces the object; of the same type, reuses it.
  RawNode circle;
  circle.shape = make<Circle>(1, 1).release();
  const bytes circle_bytes = bifrons::to_bytes(circle);
  const Shape* before = back.shape;
  bifrons::from_bytes(circle_bytes, back);
  EXPECT_EQ(dynamic_type(back.shape), typeid(Circle));
  const Shape* reused = back.shape;
  bifrons::from_bytes(circle_bytes, back);
  EXPECT_EQ(back.shape, reused);
  (void)before;
}

TEST(Polymorphic, APrivateDefaultConstructorAndHookThroughAccess) {
  std::unique_ptr<Shape> unique = std::make_unique<Sealed>(7);
  unique->id = 1;
  const auto back = bifrons::from_bytes<std::unique_ptr<Shape>>(bifrons::to_bytes(unique));
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(dynamic_type(back.get()), typeid(Sealed));
  EXPECT_EQ(back->id, 1);
  EXPECT_EQ(static_cast<const Sealed&>(*back).code(), 7);
  const std::shared_ptr<Shape> shared = std::make_shared<Sealed>(8);
  const auto shared_back = bifrons::from_bytes<std::shared_ptr<Shape>>(bifrons::to_bytes(shared));
  ASSERT_NE(shared_back, nullptr);
  EXPECT_EQ(static_cast<const Sealed&>(*shared_back).code(), 8);
}

TEST(Polymorphic, FailedReadFreesOwnedObjectsAndNullsThePointer) {
  RawNode n;
  n.shape = make<Square>(1, 2).release();
  bytes data = bifrons::to_bytes(n);
  data.pop_back();  // the square's last byte
  RawNode back;
  try {
    bifrons::from_bytes(data, back);
    ADD_FAILURE() << "read a truncated node";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::unexpected_end);
  }
  EXPECT_EQ(back.shape, nullptr);  // and LeakSanitizer finds no leak
}

TEST(Polymorphic, ReadingReusesAnObjectOfTheDataTypeAndReplacesAnother) {
  std::unique_ptr<Shape> p = make<Circle>(1, 2);
  const bytes data = bifrons::to_bytes(p);
  std::unique_ptr<Shape> target = make<Circle>(9, 9);
  const Shape* same = target.get();
  bifrons::from_bytes(data, target);
  EXPECT_EQ(target.get(), same);
  EXPECT_EQ(static_cast<Circle&>(*target).radius, 2);

  target = make<Square>(9, 9);
  bifrons::from_bytes(data, target);
  EXPECT_EQ(dynamic_type(target), typeid(Circle));
  // Tag 1 (a plain Shape) replaces a derived object too.
  bifrons::from_bytes(bifrons::to_bytes(std::unique_ptr<Shape>(make<Shape>(4))), target);
  EXPECT_EQ(dynamic_type(target), typeid(Shape));
  EXPECT_EQ(target->id, 4);
}

// ---- multiple and virtual inheritance ------------------------------------------------------

TEST(Polymorphic, PointerToTheSecondBaseIsAdjusted) {
  auto label = std::make_unique<Label>();
  label->id = 1;
  label->name = "n";
  label->size = 2;
  const std::unique_ptr<Named> p = std::move(label);
  // The Label's encoding: the Shape envelope, the Named envelope, the size.
  const bytes expected = cat({new_name("poly.Label"), B({0x01, 0x00, 0x0c, 0x02, 0x02, 0x04, 0x01, 0x6e, 0x04})});
  EXPECT_EQ(hex(bifrons::to_bytes(p)), hex(expected));

  const auto back = bifrons::from_bytes<std::unique_ptr<Named>>(expected);
  const auto* l = dynamic_cast<const Label*>(back.get());
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(back.get(), static_cast<const Named*>(l));
  EXPECT_NE(static_cast<const void*>(back.get()), static_cast<const void*>(l));
  EXPECT_EQ(l->id, 1);
  EXPECT_EQ(l->name, "n");
  EXPECT_EQ(l->size, 2);
}

TEST(Polymorphic, TwoSharedPointersToDifferentBasesAreOneObject) {
  struct Views {
    std::shared_ptr<Shape> as_shape;
    std::shared_ptr<Named> as_named;
  };
  auto label = std::make_shared<Label>();
  label->name = "x";
  Views v{label, label};
  const bytes data = bifrons::to_bytes(v);
  // The second is a reference to the first object (id 1: tag 3).
  EXPECT_EQ(static_cast<unsigned>(data.back()), 0x03u);
  const auto back = bifrons::from_bytes<Views>(data);
  const auto* l = dynamic_cast<const Label*>(back.as_shape.get());
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(back.as_named.get(), static_cast<const Named*>(l));
  EXPECT_EQ(back.as_shape.use_count(), 2);
  EXPECT_FALSE(back.as_shape.owner_before(back.as_named) || back.as_named.owner_before(back.as_shape));
  EXPECT_EQ(back.as_named->name, "x");
}

TEST(Polymorphic, DiamondWritesTheVirtualBaseOnce) {
  Join j;
  j.root = 1;
  j.left = 2;
  j.right = 3;
  j.join = 4;
  // By value: Join [ Left [ Root [1] 2 ] Right [ 3 ] 4 ]: Right's base<Root> writes nothing.
  const bytes by_value = B({0x0e, 0x06, 0x02, 0x02, 0x04, 0x02, 0x06, 0x08});
  EXPECT_EQ(hex(bifrons::to_bytes(j)), hex(by_value));
  const auto back = bifrons::from_bytes<Join>(by_value);
  EXPECT_EQ(back.root, 1);
  EXPECT_EQ(back.left, 2);
  EXPECT_EQ(back.right, 3);
  EXPECT_EQ(back.join, 4);

  // Through pointers to the virtual base and to both sides of the diamond.
  struct Views {
    std::unique_ptr<Root> root;
    std::shared_ptr<Left> left;
    std::shared_ptr<Right> right;
  };
  auto shared = std::make_shared<Join>(j);
  Views v{std::make_unique<Join>(j), shared, shared};
  const auto views = round_trip(v);
  const auto* joined = dynamic_cast<const Join*>(views.root.get());
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(views.root.get(), static_cast<const Root*>(joined));
  EXPECT_EQ(joined->root, 1);
  EXPECT_EQ(joined->right, 3);
  const auto* one = dynamic_cast<const Join*>(views.left.get());
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(views.right.get(), static_cast<const Right*>(one));
  EXPECT_EQ(views.left.use_count(), 2);
  EXPECT_EQ(one->root, 1);
}

TEST(Polymorphic, ReusedDiamondWithAnOlderSideRereadsTheWholeObject) {
  OldJoin old;
  old.root = 5;
  old.left = 6;
  old.join = 7;
  const bytes data = bifrons::to_bytes(old);  // Right's envelope is empty: `right` is missing
  Join j;
  j.root = 100;
  j.left = 100;
  j.right = 100;
  j.join = 100;
  bifrons::from_bytes(data, j);
  EXPECT_EQ(j.root, 5);
  EXPECT_EQ(j.left, 6);
  EXPECT_EQ(j.right, 0);  // its default, not the stale 100
  EXPECT_EQ(j.join, 7);
}

TEST(Polymorphic, AStructReadAgainFromDefaultsForgetsTheTypeNamesItsFirstPassDefined) {
  // Found by the pointers fuzzer: the golden polymorphic set, mutated, fails inside a group's
  // children. Read into an existing set, the group is read again from defaults after the
  // failure; the type names that its first pass defined (tag 2) must go with the objects, or the
  // second pass reads the same bytes against more names, and fails at another byte than a
  // fresh read.
  const bytes data = B({
      0xdc, 0x02, 0x06, 0x02, 0x00, 0x01, 0x0d, 0x67, 0x6f, 0x6c, 0x64, 0x65, 0x6e, 0x2e, 0x43, 0x69, 0x72, 0x63,
      0x6c, 0x65, 0x01, 0x00, 0x06, 0x02, 0x02, 0x0a, 0x02, 0x00, 0x01, 0x0d, 0x67, 0x6f, 0x6c, 0x64, 0x65, 0x6e,
      0x2e, 0x53, 0x71, 0x75, 0x61, 0x72, 0x65, 0x02, 0x00, 0x06, 0x02, 0x04, 0x06, 0x02, 0x01, 0x00, 0x06, 0x02,
      0x06, 0x0e, 0x01, 0x02, 0x08, 0x02, 0x00, 0x01, 0x0c, 0x67, 0x6f, 0x6c, 0x64, 0x65, 0x6e, 0x2e, 0x47, 0x72,
      0x6f, 0x75, 0x70, 0x03, 0x02, 0x22, 0x00, 0x0a, 0x02, 0x00, 0x02, 0x01, 0x00, 0x06, 0x02, 0x0c, 0x02, 0x02,
      0x02, 0x00, 0x07, 0x02, 0x0e, 0x04, 0x00, 0x02, 0x00, 0x01, 0x0c, 0x67, 0x9b, 0x93, 0x64, 0x65, 0x6e, 0x2e,
      0x4c, 0x61, 0x62, 0x65, 0x6c, 0x04, 0x00, 0x10, 0x02, 0x10, 0x08, 0x03, 0x6c, 0x62, 0x6c, 0x12, 0x02, 0x04,
      0x00, 0x12, 0x02, 0x12, 0x0a, 0x04, 0x70, 0x61, 0x69, 0x72, 0x02, 0x0b, 0x0b, 0x02, 0x00, 0x01, 0x0b, 0x67,
      0x6f, 0x6c, 0x64, 0x65, 0x6e, 0x2e, 0x4a, 0x6f, 0x69, 0x6e, 0x05, 0x10, 0x0e, 0x06, 0x02, 0x02, 0x04, 0x02,
      0x06, 0x08, 0x02, 0x05, 0x00, 0x0e, 0x06, 0x02, 0x14, 0x28, 0x02, 0x3c, 0x50, 0x0d, 0x04,
  });
  const auto fresh = bifrons::try_from_bytes<golden::polymorphic::type>(data);
  ASSERT_FALSE(fresh);
  golden::polymorphic::type existing = golden::polymorphic::value();
  try {
    bifrons::from_bytes(data, existing);
    ADD_FAILURE() << "no error";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), fresh.code());
    EXPECT_EQ(e.offset(), fresh.offset());
  }
}

// ---- graphs --------------------------------------------------------------------------------

TEST(Polymorphic, SceneGraphWithSharedNodesAndWeakParents) {
  auto root = std::make_shared<Group>();
  root->title = "root";
  auto shared_leaf = std::make_shared<Node>();
  shared_leaf->value = 7;
  for (int i = 0; i < 2; ++i) {
    auto g = std::make_shared<Group>();
    g->value = i;
    g->title = "g" + std::to_string(i);
    g->parent = root;
    g->children.push_back(shared_leaf);
    root->children.push_back(g);
  }
  shared_leaf->parent = root->children[0];
  const std::shared_ptr<Node> top = root;
  const auto back = round_trip(top);
  const auto* g = dynamic_cast<const Group*>(back.get());
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->title, "root");
  ASSERT_EQ(back->children.size(), 2u);
  for (const auto& c : back->children) {
    EXPECT_EQ(dynamic_type(c), typeid(Group));
    EXPECT_EQ(c->parent.lock(), back);
    ASSERT_EQ(c->children.size(), 1u);
  }
  EXPECT_EQ(back->children[0]->children[0], back->children[1]->children[0]);
  EXPECT_EQ(back->children[0]->children[0]->parent.lock(), back->children[0]);
  EXPECT_EQ(dynamic_type(back->children[0]->children[0]), typeid(Node));
}

// ---- what a writer refuses -----------------------------------------------------------------

TEST(Polymorphic, UnregisteredDynamicTypeIsRefusedAtWrite) {
  const std::unique_ptr<Shape> p = std::make_unique<Unlisted>();
  std::array<std::byte, 64> buffer{};
  const auto r = bifrons::try_to_bytes(p, std::span<std::byte>(buffer));
  EXPECT_EQ(r.code(), errc::unregistered_type);
  EXPECT_THROW((void)bifrons::to_bytes(p), bifrons::error);
  EXPECT_THROW((void)bifrons::serialized_size(p), bifrons::error);
  try {
    (void)bifrons::to_bytes(p);
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::unregistered_type);
    EXPECT_NE(std::string(e.what()).find("found when writing"), std::string::npos);
    // It names the dynamic type and the pointer's type, and both fixes.
    const std::string what = e.what();
    EXPECT_NE(what.find("dynamic type poly::Unlisted"), std::string::npos) << what;
    EXPECT_NE(what.find("BIFRONS_REGISTER"), std::string::npos) << what;
    EXPECT_NE(what.find("bifrons::base<"), std::string::npos) << what;
  }
  EXPECT_NE(r.message().find("Unlisted"), std::string::npos) << r.message();
}

TEST(Polymorphic, ATypeNotRegisteredAsDerivedFromThePointersTypeIsRefusedAtWrite) {
  // Gadget is registered, but nothing relates it to Drawable.
  const std::unique_ptr<Drawable> p = std::make_unique<Gadget>();
  std::array<std::byte, 64> buffer{};
  EXPECT_EQ(bifrons::try_to_bytes(p, std::span<std::byte>(buffer)).code(), errc::unregistered_type);
}

TEST(Polymorphic, DeepChainIsRefusedCleanlyAtWrite) {
  std::unique_ptr<Link> head = std::make_unique<Step>();
  Link* tail = head.get();
  for (int i = 0; i < 100000; ++i) {
    tail->next = std::make_unique<Step>();
    tail = tail->next.get();
  }
  std::array<std::byte, 16> buffer{};
  EXPECT_EQ(bifrons::try_to_bytes(head, std::span<std::byte>(buffer)).code(), errc::depth_limit_exceeded);
}

/// A chain of `levels` nested Steps: each is tag 2, its type (the name only in the outermost
/// header), the count of objects inside, then [ [ next ] ] (Step's envelope around Link's); the
/// last link's next is null. Every envelope ends where the input ends, so the bytes are the
/// levels' headers, outermost first, then the null; their lengths are found from the inside out.
bytes step_chain(std::size_t levels) {
  const bytes name = new_name("poly.Step");
  const auto varint_size = [](std::size_t v) {
    std::size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
  };
  const auto head_size = [&](std::size_t i) { return (i == 0 ? name.size() : 1) + 1 + varint_size(levels - 1 - i); };
  std::vector<std::size_t> inner(levels + 1);  // inner[i]: the bytes inside level i's Link envelope
  inner[levels - 1] = 1;
  for (std::size_t i = levels - 1; i-- > 0;) {
    const std::size_t link = inner[i + 1];
    const std::size_t step = varint_size(link << 1) + link;
    inner[i] = head_size(i + 1) + varint_size(step << 1) + step;
  }
  bytes out;
  out.reserve(inner[0] + 32);
  for (std::size_t i = 0; i < levels; ++i) {
    if (i == 0)
      out.insert(out.end(), name.begin(), name.end());
    else
      out.push_back(std::byte{0x02});
    put_varint(out, 1);               // type index 1
    put_varint(out, levels - 1 - i);  // the objects inside
    const std::size_t link = inner[i];
    put_varint(out, (varint_size(link << 1) + link) << 1);
    put_varint(out, link << 1);
  }
  out.push_back(std::byte{0});
  return out;
}

TEST(Polymorphic, DeepChainIsRefusedCleanlyAtRead) {
  // Polymorphic objects are structs (two per Step here), so max_depth bounds the recursion: a
  // million levels fail cleanly, at the struct past the limit.
  const auto r = bifrons::try_from_bytes<std::unique_ptr<Link>>(step_chain(1000000));
  EXPECT_EQ(r.code(), errc::depth_limit_exceeded);
  const auto within = bifrons::try_from_bytes<std::unique_ptr<Link>>(step_chain(31));
  ASSERT_TRUE(within.has_value()) << bifrons::describe(within.code()) << " at " << within.offset();
  std::size_t n = 0;
  for (const Link* l = within->get(); l != nullptr; l = l->next.get()) ++n;
  EXPECT_EQ(n, 31u);
  EXPECT_EQ(bifrons::try_from_bytes<std::unique_ptr<Link>>(step_chain(33)).code(), errc::depth_limit_exceeded);
}

// ---- unknown types -------------------------------------------------------------------------

std::vector<std::byte> golden_file(const std::string& name) {
  std::ifstream in(std::string(BIFRONS_TEST_DATA_DIR) + "/golden/" + name, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) out[i] = std::byte(static_cast<unsigned char>(chars[i]));
  return out;
}

TEST(UnknownType, FailsByDefaultAtThePointer) {
  const auto file = golden_file("polymorphic_unknown.bin");
  ASSERT_EQ(file.size(), 74u);
  const auto r = bifrons::try_from_bytes<golden::PolyNewer>(file);
  EXPECT_EQ(r.code(), errc::unknown_type);
  EXPECT_EQ(r.offset(), 3u);  // the triangle's tag, after the envelope header (2) and the count
  // The message names the type the data holds, and the policy that reads past it.
  EXPECT_NE(r.message().find("the data holds an object of type \"golden.Triangle\""), std::string::npos) << r.message();
  EXPECT_NE(r.message().find("unknown_type_policy::null"), std::string::npos) << r.message();
  try {
    (void)bifrons::from_bytes<golden::PolyNewer>(file);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(std::string(e.what()), r.message());
  }
}

TEST(UnknownType, NullPolicySkipsTheObjectAndKeepsIdsAndNamesInStep) {
  const auto file = golden_file("polymorphic_unknown.bin");
  const auto r = bifrons::try_from_bytes<golden::PolyNewer>(file, null_policy());
  ASSERT_TRUE(r.has_value()) << bifrons::describe(r.code()) << " at " << r.offset();
  const auto& shapes = r->shapes;
  ASSERT_EQ(shapes.size(), 5u);
  EXPECT_EQ(shapes[0], nullptr);  // the triangle
  EXPECT_EQ(shapes[1], nullptr);  // a reference to it
  EXPECT_EQ(shapes[2], nullptr);  // a reference to the circle inside it
  // The square has id 3 and type index 3 only if the skipped triangle's id, its circle's id and
  // the circle's name were all accounted for.
  ASSERT_NE(shapes[3], nullptr);
  EXPECT_EQ(golden::describe_shape(shapes[3].get()), "square 3 5");
  EXPECT_EQ(shapes[4], shapes[3]);

  // A skipped body longer than the input (the triangle's envelope header, at 38, made to say 63 bytes):
  // unexpected_end where the input ends, as for any other value.
  auto cut = file;
  ASSERT_EQ(cut[38], std::byte{0x12});
  cut[38] = std::byte{0x7e};
  const auto truncated = bifrons::try_from_bytes<golden::PolyNewer>(cut, null_policy());
  EXPECT_EQ(truncated.code(), errc::unexpected_end);
  EXPECT_EQ(truncated.offset(), file.size());
  EXPECT_EQ(truncated.bytes_missing(), 63 - (file.size() - 39));
}

/// Writes its field, then refuses to go on: a write that failed before it never reports that failure.
struct RefusesToSave {
  std::int32_t x = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(x);
    throw std::runtime_error("save refuses");
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(x);
  }
};
struct FailsTwice {
  std::unique_ptr<Shape> shape;
  RefusesToSave refuses;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(shape, refuses);
  }
};

TEST(UnknownType, TheNoteNamesTheDataEscapedAndIsNotLeftForAnotherFailure) {
  // The data's name, with a newline, an escape and a zero: escaped, so that it cannot cut the
  // message short or forge a line of a log; what() says all that message() says.
  const bytes data = new_name_spec(std::string_view("app\n\x1b\0", 6)).u(1).u(0).env(spec{}.u(0)).out;
  const auto r = bifrons::try_from_bytes<std::unique_ptr<Shape>>(data);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::unknown_type);
  EXPECT_NE(r.message().find("\"app\\x0a\\x1b\\x00\""), std::string::npos) << r.message();
  // A reader throws the same failure again, with the same message.
  bifrons::reader reader(data);
  std::unique_ptr<Shape> into;
  std::string first, second;
  try {
    reader(into);
  } catch (const bifrons::error& e) {
    first = e.what();
  }
  try {
    reader(into);
  } catch (const bifrons::error& e) {
    second = e.what();
  }
  EXPECT_EQ(first, r.message());
  EXPECT_EQ(second, first);
  // A write that fails (unregistered_type) and then throws from a hook never reports its failure:
  // its note does not go to the next failure, of another code.
  FailsTwice bad;
  bad.shape = std::make_unique<Unlisted>();
  EXPECT_THROW((void)bifrons::to_bytes(bad), std::runtime_error);
  const auto after = bifrons::try_from_bytes<std::unique_ptr<Shape>>(data);
  EXPECT_EQ(after.message(), r.message());
  // A result the program builds takes no note.
  bifrons::detail::note_failure(errc::unknown_type, 0, {"a stale note"});
  EXPECT_EQ(bifrons::result<int>(errc::unknown_type, 0).message().find("stale"), std::string::npos);
  EXPECT_EQ(bifrons::result<int>(errc::unknown_type, 0).message(),
            "bifrons: polymorphic type not registered in this program at byte 0");
}

TEST(UnknownType, ReferenceWrapperToASkippedObjectFails) {
  // An unknown object, then a reference_wrapper to it: it cannot read as null.
  using Pair = Referrer<std::shared_ptr<Shape>>;
  const bytes data = spec{}.env(new_name_spec("poly.Unheard").u(1).u(0).env(spec{}.u(0)).u(3)).out;
  Shape placeholder;
  Pair p{nullptr, placeholder};
  try {
    bifrons::from_bytes(data, p, null_policy());
    ADD_FAILURE() << "read a reference to a skipped object";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::unknown_type);
    EXPECT_EQ(e.offset(), data.size() - 1);
  }
}

TEST(UnknownType, RegistrationAtRunTimeMakesATypeKnownAndItsRemovalUnknown) {
  std::unique_ptr<Thing> p = std::make_unique<ThingV1>();
  bytes data;
  {
    const bifrons::registration<ThingV1> registered("poly.Thing");
    data = bifrons::to_bytes(p);
    const auto back = bifrons::from_bytes<std::unique_ptr<Thing>>(data);
    EXPECT_EQ(dynamic_type(back), typeid(ThingV1));
  }
  EXPECT_EQ(bifrons::try_from_bytes<std::unique_ptr<Thing>>(data).code(), errc::unknown_type);
  std::array<std::byte, 64> buffer{};
  EXPECT_EQ(bifrons::try_to_bytes(p, std::span<std::byte>(buffer)).code(), errc::unregistered_type);
}

TEST(UnknownType, AnOlderClassSkipsANewerFieldAndTheObjectsAndNamesInIt) {
  // The newer ThingV2 holds a square; after it come another square (whose name was listed in
  // the thing's header) and a reference to it (whose id comes after the square inside).
  Message m;
  auto v2 = std::make_unique<ThingV2>();
  v2->id = 1;
  v2->a = 2;
  v2->extra = make<Square>(10, 11);
  m.thing = std::move(v2);
  m.after = make<Square>(20, 21);
  m.again = m.after;
  bytes data;
  {
    const bifrons::registration<ThingV2> newer("poly.Thing");
    data = bifrons::to_bytes(m);
  }
  const bifrons::registration<ThingV1> older("poly.Thing");
  const auto back = bifrons::from_bytes<Message>(data);
  const auto* thing = dynamic_cast<const ThingV1*>(back.thing.get());
  ASSERT_NE(thing, nullptr);
  EXPECT_EQ(thing->id, 1);
  EXPECT_EQ(thing->a, 2);
  ASSERT_NE(back.after, nullptr);
  ASSERT_EQ(dynamic_type(back.after), typeid(Square));
  EXPECT_EQ(back.after->id, 20);
  EXPECT_EQ(back.again, back.after);
}

// ---- type safety and limits (crafted bytes) -------------------------------------------------

template <class T>
void expect_refused(const bytes& data, errc code, std::size_t offset,
                    const bifrons::read_options& options = bifrons::read_options{}) {
  const auto r = bifrons::try_from_bytes<T>(data, options);
  EXPECT_EQ(r.code(), code) << hex(data);
  EXPECT_EQ(r.offset(), offset) << hex(data);
}

TEST(PolymorphicHostile, ADynamicTypeNotDerivedFromThePointersType) {
  // A circle where a Named is declared: never reinterpreted.
  expect_refused<std::unique_ptr<Named>>(cat({new_name("poly.Circle"), B({0x01, 0x00, 0x04, 0x02, 0x00, 0x00})}),
                                         errc::invalid_value, 0);
}

/// A circle (id 1) through the first pointer, then a reference to it through the second.
bytes circle_then_reference() {
  return spec{}.env(new_name_spec("poly.Circle").u(1).u(0).env(spec{}.env(spec{}.s(0)).s(0)).u(3)).out;
}

TEST(PolymorphicHostile, AReferenceToAnObjectOfAnUnrelatedType) {
  struct Pair {
    std::shared_ptr<Shape> shape;
    std::shared_ptr<Named> named;
  };
  const bytes data = circle_then_reference();
  expect_refused<Pair>(data, errc::invalid_value, data.size() - 1);
}

TEST(PolymorphicHostile, AReferenceToAUniqueObjectFromASharedPointer) {
  struct Pair {
    std::unique_ptr<Shape> owner;
    std::shared_ptr<Shape> sharer;
  };
  const bytes data = circle_then_reference();
  expect_refused<Pair>(data, errc::invalid_value, data.size() - 1);
}

TEST(PolymorphicHostile, ACycleThroughUniquePtr) {
  // A unique_ptr's object whose own next refers back to it: a unique_ptr never accepts a
  // reference (it would own its own ancestor), with or without a polymorphic pointee.
  struct UNode {
    std::unique_ptr<UNode> next;
  };
  expect_refused<std::unique_ptr<UNode>>(B({0x01, 0x02, 0x03}), errc::invalid_value, 2);
  expect_refused<std::unique_ptr<Link>>(cat({new_name("poly.Step"), B({0x01, 0x00, 0x04, 0x02, 0x03})}),
                                        errc::invalid_value, 17);
}

TEST(PolymorphicHostile, MalformedHeaders) {
  using P = std::unique_ptr<Shape>;
  expect_refused<P>(B({0x02, 0x01, 0x00, 0x00}), errc::invalid_value, 1);        // index 1, no name yet
  expect_refused<P>(B({0x02, 0x00, 0x00, 0x01, 0x00}), errc::invalid_value, 2);  // a list of no names
  expect_refused<P>(B({0x02, 0x00, 0x01, 0x00, 0x01}), errc::invalid_value, 3);  // an empty name
  bytes long_name = B({0x02, 0x00, 0x01, 0x80, 0x02});  // 256 bytes
  long_name.resize(long_name.size() + 256 + 3, std::byte{0x41});
  expect_refused<P>(long_name, errc::invalid_value, 3);
  // The type index after the list must name a listed type.
  expect_refused<P>(cat({new_name("poly.Circle"), B({0x02, 0x00, 0x00})}), errc::invalid_value, 15);
  // More objects inside than bytes left.
  expect_refused<P>(cat({new_name("poly.Circle"), B({0x01, 0x09, 0x00})}), errc::invalid_value, 16);
  // A count of objects inside that is smaller than what the encoding holds: a group with one
  // child (tag 1: a plain Node, which takes an id) whose header counts none.
  const spec child = spec{}.u(1).env(spec{}.s(0).u(0).u(0));
  const bytes group =
      new_name_spec("poly.Group").u(1).u(0).env(spec{}.env(spec{}.s(0).u(1).add(child).u(0)).str("")).out;
  expect_refused<std::shared_ptr<Node>>(group, errc::invalid_value, 0);
  // With the right count it reads.
  const bytes counted =
      new_name_spec("poly.Group").u(1).u(1).env(spec{}.env(spec{}.s(0).u(1).add(child).u(0)).str("")).out;
  EXPECT_TRUE(bifrons::try_from_bytes<std::shared_ptr<Node>>(counted).has_value());
  // Tag 1 where the pointer's type is abstract.
  expect_refused<std::unique_ptr<Drawable>>(B({0x01, 0x00}), errc::invalid_value, 0);
}

TEST(PolymorphicHostile, SkippedObjectsCountTowardTheObjectLimit) {
  // An unknown type whose header claims 9 objects inside an envelope of 9 bytes.
  bytes data = new_name_spec("poly.Unheard").u(1).u(9).u(9 << 1).out;
  data.resize(data.size() + 9, std::byte{0});
  bifrons::read_options options = null_policy();
  EXPECT_TRUE(bifrons::try_from_bytes<std::shared_ptr<Shape>>(data, options).has_value());
  options.max_objects = 5;
  expect_refused<std::shared_ptr<Shape>>(data, errc::object_limit_exceeded, 0, options);
}

// ---- registration ----------------------------------------------------------------------------

struct Stranger final : Shape {
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this));
  }
};

TEST(Registration, OneNameForTwoTypesIsAnError) {
  try {
    const bifrons::registration<Stranger> clash("poly.Circle");
    ADD_FAILURE() << "registered a second type under poly.Circle";
  } catch (const bifrons::registration_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("poly.Circle"), std::string::npos) << what;
    EXPECT_NE(what.find("poly::Circle"), std::string::npos) << what;
    EXPECT_NE(what.find("Stranger"), std::string::npos) << what;
  }
  // The first registration still stands.
  EXPECT_EQ(dynamic_type(round_trip(std::unique_ptr<Shape>(make<Circle>(1, 1)))), typeid(Circle));
}

TEST(Registration, OneTypeUnderTwoNamesIsAnError) {
  EXPECT_THROW(bifrons::registration<Circle>("poly.Circle2"), bifrons::registration_error);
}

TEST(Registration, NamesHaveOneTo255Bytes) {
  EXPECT_THROW(bifrons::registration<Stranger>(""), bifrons::registration_error);
  EXPECT_THROW(bifrons::registration<Stranger>(std::string(256, 'x')), bifrons::registration_error);
  const bifrons::registration<Stranger> longest(std::string(255, 'x'));
  const std::unique_ptr<Shape> p = std::make_unique<Stranger>();
  EXPECT_EQ(dynamic_type(round_trip(p)), typeid(Stranger));
}

TEST(Registration, TheSameRegistrationTwiceIsCounted) {
  std::unique_ptr<Shape> p = std::make_unique<Stranger>();
  {
    const bifrons::registration<Stranger> first("poly.Stranger");
    {
      const bifrons::registration<Stranger> second("poly.Stranger");
    }
    EXPECT_EQ(dynamic_type(round_trip(p)), typeid(Stranger));  // still registered
  }
  std::array<std::byte, 64> buffer{};
  EXPECT_EQ(bifrons::try_to_bytes(p, std::span<std::byte>(buffer)).code(), errc::unregistered_type);
}

// ---- classes that only load_and_construct makes ------------------------------------------------

/// A holder of every pointer kind, each with an object made by its hook; the Built objects' kids
/// point back at them (a raw pointer, and a weak_ptr where the Built is shared).
BuiltHolder made_holder() {
  BuiltHolder h;
  const auto made_with_kid = [](std::int32_t id, bool weak_too) {
    std::vector<std::unique_ptr<Shape>> kids;
    kids.push_back(std::make_unique<Kid>());
    auto made = std::make_unique<Built>(id, id * 10, std::move(kids));
    static_cast<Kid&>(*made->kids[0]).parent = made.get();
    (void)weak_too;
    return made;
  };
  h.unique = made_with_kid(1, false);
  h.shared = made_with_kid(2, true);
  static_cast<Kid&>(*static_cast<Built&>(*h.shared).kids[0]).up = h.shared;
  h.again = h.shared;
  h.weak = h.shared;
  h.owned = made_with_kid(3, false).release();
  h.self = std::make_shared<BuiltShared>(4);
  h.second = std::make_unique<BuiltMixed>("second", 5, 6);
  h.virtual_base = std::make_unique<BuiltMixed>("virtual", 7, 8);
  return h;
}

TEST(LoadAndConstruct, EveryPointerKindKeepsIdentityAndBackReferences) {
  made_alive = 0;
  {
    const BuiltHolder written = made_holder();
    const BuiltHolder back = round_trip(written);
    ASSERT_NE(back.unique, nullptr);
    EXPECT_EQ(dynamic_type(back.unique), typeid(Built));
    const auto& unique = static_cast<const Built&>(*back.unique);
    EXPECT_EQ(unique.id, 1);
    EXPECT_EQ(unique.weight, 10);
    ASSERT_EQ(unique.kids.size(), 1u);
    // The kid named its parent while the hook was reading it: the address the object was made at.
    EXPECT_EQ(static_cast<const Kid&>(*unique.kids[0]).parent, back.unique.get());

    ASSERT_NE(back.shared, nullptr);
    EXPECT_EQ(dynamic_type(back.shared), typeid(Built));
    EXPECT_EQ(back.again, back.shared);  // one object
    EXPECT_FALSE(back.again.owner_before(back.shared) || back.shared.owner_before(back.again));
    EXPECT_EQ(back.weak.lock(), back.shared);
    const auto& shared = static_cast<const Built&>(*back.shared);
    EXPECT_EQ(shared.weight, 20);
    const auto& shared_kid = static_cast<const Kid&>(*shared.kids[0]);
    EXPECT_EQ(shared_kid.parent, back.shared.get());
    EXPECT_EQ(shared_kid.up.lock(), back.shared);

    ASSERT_NE(back.owned, nullptr);
    EXPECT_EQ(dynamic_type(back.owned), typeid(Built));
    EXPECT_EQ(static_cast<const Built&>(*back.owned).weight, 30);

    ASSERT_NE(back.self, nullptr);
    auto* self = dynamic_cast<BuiltShared*>(back.self.get());
    ASSERT_NE(self, nullptr);
    EXPECT_EQ(self->id, 4);
    const std::shared_ptr<BuiltShared> owner = self->shared_from_this();  // an owner it knows
    EXPECT_FALSE(owner.owner_before(back.self) || back.self.owner_before(owner));

    // The second base and the virtual base: the pointers are adjusted after the object is made.
    ASSERT_NE(back.second, nullptr);
    EXPECT_EQ(back.second->name, "second");
    const auto* second = dynamic_cast<const BuiltMixed*>(back.second.get());
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->root, 5);
    EXPECT_EQ(second->id, 6);
    ASSERT_NE(back.virtual_base, nullptr);
    EXPECT_EQ(back.virtual_base->root, 7);
    const auto* mixed = dynamic_cast<const BuiltMixed*>(back.virtual_base.get());
    ASSERT_NE(mixed, nullptr);
    EXPECT_EQ(mixed->name, "virtual");
    EXPECT_EQ(mixed->id, 8);
  }
  EXPECT_EQ(made_alive, 0);
}

TEST(LoadAndConstruct, AHookThatThrowsLeavesNothingBehind) {
  made_alive = 0;
  {
    BuiltHolder written = made_holder();
    // The owned object's weight becomes negative: its hook throws after the other objects and
    // its own kid were read.
    std::vector<std::unique_ptr<Shape>> kids;
    kids.push_back(std::make_unique<Kid>());
    delete written.owned;
    written.owned = new Built(3, -1, std::move(kids));
    const bytes b = bifrons::to_bytes(written);
    BuiltHolder into;
    EXPECT_THROW(bifrons::from_bytes(b, into), std::invalid_argument);
    EXPECT_EQ(into.owned, nullptr);
    const auto r = bifrons::try_from_bytes<BuiltHolder>(b);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.code(), errc::user_error);
    // As a shared object, and as the only object.
    const std::shared_ptr<Shape> negative(new Built(1, -5, {}));
    EXPECT_EQ(bifrons::try_from_bytes<std::shared_ptr<Shape>>(bifrons::to_bytes(negative)).code(), errc::user_error);
    const std::unique_ptr<Shape> alone(new Built(1, -5, {}));
    EXPECT_THROW((void)bifrons::from_bytes<std::unique_ptr<Shape>>(bifrons::to_bytes(alone)), std::invalid_argument);
  }
  EXPECT_EQ(made_alive, 0);  // LeakSanitizer checks the storage and the kids
}

TEST(LoadAndConstruct, EveryTruncationFailsCleanly) {
  made_alive = 0;
  {
    const BuiltHolder written = made_holder();
    const bytes b = bifrons::to_bytes(written);
    for (std::size_t n = 0; n < b.size(); ++n) {
      const auto r = bifrons::try_from_bytes<BuiltHolder>(std::span<const std::byte>(b.data(), n));
      EXPECT_FALSE(r) << "cut at " << n;
      BuiltHolder into = made_holder();
      EXPECT_THROW(bifrons::from_bytes(std::span<const std::byte>(b.data(), n), into), bifrons::error) << n;
    }
  }
  EXPECT_EQ(made_alive, 0);
}

TEST(LoadAndConstruct, ReadingIntoAnExistingObjectReplacesWhatCannotBeReadInto) {
  made_alive = 0;
  {
    const BuiltHolder written = made_holder();
    // Objects of the data's types, which cannot be read into, with other values.
    BuiltHolder into;
    into.unique = std::make_unique<Built>(9, 90, std::vector<std::unique_ptr<Shape>>{});
    into.owned = new Built(9, 91, {});
    into.shared = std::make_shared<Built>(9, 92, std::vector<std::unique_ptr<Shape>>{});
    into.second = std::make_unique<BuiltMixed>("old", 9, 9);
    into.virtual_base = std::make_unique<BuiltMixed>("old", 9, 9);
    read_into(written, into);
    EXPECT_EQ(static_cast<const Built&>(*into.unique).weight, 10);
    EXPECT_EQ(static_cast<const Kid&>(*static_cast<const Built&>(*into.unique).kids[0]).parent, into.unique.get());
    EXPECT_EQ(static_cast<const Built&>(*into.owned).weight, 30);
    EXPECT_EQ(into.again, into.shared);
    EXPECT_EQ(into.second->name, "second");
    EXPECT_EQ(into.virtual_base->root, 7);
    // Objects of other types are replaced too.
    BuiltHolder others;
    others.unique = make<Circle>(1, 2);
    others.owned = make<Square>(3, 4).release();
    read_into(written, others);
    EXPECT_EQ(dynamic_type(others.unique), typeid(Built));
    EXPECT_EQ(dynamic_type(others.owned), typeid(Built));
    EXPECT_EQ(static_cast<const Built&>(*others.owned).weight, 30);
  }
  EXPECT_EQ(made_alive, 0);
}

TEST(LoadAndConstruct, AReferenceThroughAVirtualBaseWhileTheObjectIsMadeIsRefused) {
  made_alive = 0;
  {
    // The kid points at the object being made through its virtual base, which does not exist
    // until the object does: refused, with the reason.
    auto kid = std::make_unique<RootKid>();
    RootKid* k = kid.get();
    std::unique_ptr<Root> top = std::make_unique<BuiltOverRoot>(std::move(kid));
    k->parent = top.get();
    const bytes b = bifrons::to_bytes(top);
    EXPECT_TRUE(fails_with<std::unique_ptr<Root>>(b, errc::invalid_value, b.size() - 1));  // the reference
    // The same behind a pointer of its own class (tag 1), in each owning position.
    auto own_kid = std::make_unique<RootKid>();
    RootKid* own_k = own_kid.get();
    auto own = std::make_shared<BuiltOverRoot>(std::move(own_kid));
    own_k->parent = own.get();
    const bytes shared_bytes = bifrons::to_bytes(own);
    EXPECT_TRUE(fails_with<std::shared_ptr<BuiltOverRoot>>(shared_bytes, errc::invalid_value, shared_bytes.size() - 1));
    const bytes unique_bytes = bifrons::to_bytes(std::vector<std::shared_ptr<BuiltOverRoot>>{own});
    EXPECT_EQ(bifrons::try_from_bytes<std::vector<std::unique_ptr<BuiltOverRoot>>>(unique_bytes).code(),
              errc::invalid_value);
    own_k->parent = nullptr;
    // Once it is made, a pointer to its virtual base is fine.
    k->parent = nullptr;
    Later later{std::move(top), nullptr};
    later.parent = later.top.get();
    const Later back = round_trip(later);
    EXPECT_EQ(back.parent, back.top.get());
    EXPECT_EQ(dynamic_type(back.top), typeid(BuiltOverRoot));
  }
  EXPECT_EQ(made_alive, 0);
}

TEST(LoadAndConstruct, ASharedPointerInsideToTheObjectBeingMadeIsRefused) {
  made_alive = 0;
  {
    // A cycle of owners through the object being made: the writer refuses it, and so does the
    // reader, given such bytes (tag 3 + 0: a reference to object 1 from inside it).
    auto made = std::make_shared<Built>(1, 1, std::vector<std::unique_ptr<Shape>>{});
    const std::shared_ptr<Shape> top = made;
    BuiltHolder h;
    h.shared = top;
    bytes b = bifrons::to_bytes(std::vector<std::shared_ptr<Shape>>{top});
    EXPECT_TRUE(bifrons::from_bytes<std::vector<std::shared_ptr<Shape>>>(b).at(0));
    // Built's kids are unique_ptr<Shape>: a reference tag where an object is expected.
    const bytes hostile = B({0x01, 0x02, 0x00, 0x01, 0x0a, 'p',  'o',  'l',  'y',  '.',  'B',
                             'u',  'i',  'l',  't',  0x01, 0x00, 0x08, 0x02, 0x02, 0x01, 0x03});
    const auto r = bifrons::try_from_bytes<std::vector<std::shared_ptr<Shape>>>(hostile);
    EXPECT_FALSE(r);
  }
  EXPECT_EQ(made_alive, 0);
}

TEST(LoadAndConstruct, LimitsHold) {
  made_alive = 0;
  {
    const BuiltHolder written = made_holder();
    const bytes b = bifrons::to_bytes(written);
    for (std::size_t budget = 0; budget < 4096; budget += 64) {
      bifrons::read_options tight;
      tight.max_alloc_bytes = budget;
      const auto r = bifrons::try_from_bytes<BuiltHolder>(b, tight);
      if (r) {
        EXPECT_EQ(static_cast<const Built&>(*r->unique).weight, 10);
      } else {
        EXPECT_EQ(r.code(), errc::allocation_limit_exceeded) << budget;
      }
    }
    // A chain of objects made by their hook, deeper than max_depth.
    std::unique_ptr<Shape> chain;
    for (int i = 0; i < 40; ++i) {
      std::vector<std::unique_ptr<Shape>> kids;
      if (chain) kids.push_back(std::move(chain));
      chain = std::make_unique<Built>(i, i, std::move(kids));
    }
    bifrons::read_options shallow;
    shallow.max_depth = 20;
    EXPECT_EQ(bifrons::try_from_bytes<std::unique_ptr<Shape>>(bifrons::to_bytes(chain), shallow).code(),
              errc::depth_limit_exceeded);
    EXPECT_TRUE(bifrons::try_from_bytes<std::unique_ptr<Shape>>(bifrons::to_bytes(chain)));
  }
  EXPECT_EQ(made_alive, 0);
}

/// Registered only while a test runs.
class BuiltLater final : public Shape {
 public:
  explicit BuiltLater(std::int32_t i) { id = i; }
  template <class Ar>
  void save(Ar& ar) const {
    ar(id);
  }
  template <class Ar>
  static BuiltLater load_and_construct(Ar& ar) {
    std::int32_t i = 0;
    ar(i);
    return BuiltLater(i);
  }
};

TEST(LoadAndConstruct, UnknownTypesReadAsNullUnderThePolicy) {
  std::vector<std::shared_ptr<Shape>> written{std::make_shared<BuiltLater>(3), make<Circle>(1, 2)};
  written.push_back(written[0]);
  bytes b;
  {
    const bifrons::registration<BuiltLater, Shape> registered("poly.BuiltLater");
    b = bifrons::to_bytes(written);
    const auto back = bifrons::from_bytes<std::vector<std::shared_ptr<Shape>>>(b);
    EXPECT_EQ(back.at(0)->id, 3);
    EXPECT_EQ(back.at(2), back.at(0));
  }
  EXPECT_EQ(bifrons::try_from_bytes<std::vector<std::shared_ptr<Shape>>>(b).code(), errc::unknown_type);
  const auto back = bifrons::from_bytes<std::vector<std::shared_ptr<Shape>>>(b, null_policy());
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0], nullptr);
  EXPECT_EQ(dynamic_type(back[1]), typeid(Circle));
  EXPECT_EQ(back[2], nullptr);
}

}  // namespace
}  // namespace bifrons_test
