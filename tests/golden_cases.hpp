#pragma once
// The golden cases of wire format v1: the C++ types, the values, and for each case the bytes
// the format prescribes, built by hand from the rules (docs: the brief's "Wire format") with
// the tiny independent encoder in golden::spec. Shared by tests/golden_test.cpp,
// tests/hostile_test.cpp and tools/write_golden.cpp.
//
// Each case is a class with
//   static constexpr const char* name;      // tests/golden/<name>.bin
//   using type = ...;                        // the C++ type the file holds
//   static type value();                     // the value (deterministic on every platform)
//   static std::vector<std::byte> spec();    // its encoding, spelled out from the format rules
// and optionally `static constexpr bool streamed = true;` when the file holds several values
// written one after another with bifrons::writer (type is then a std::tuple of those values).
//
// Platform independence: only fixed-width or range-safe values (long/unsigned long hold 32-bit
// values, wchar_t holds BMP code points so a 16-bit wchar_t agrees), no size_t, no enum without
// a fixed underlying type, no unordered container with more than one element, quiet NaNs only
// (an x87 FPU quiets signalling NaNs when it loads them), doubles written as exact literals.

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <forward_list>
#include <functional>
#include <initializer_list>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <ratio>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <valarray>
#include <variant>
#include <vector>

#include <bifrons/bifrons.hpp>

// The byte specs below are laid out by hand, one wire field per line or group: clang-format
// would put every builder call on its own line.
// clang-format off
namespace golden {

// =============================================================================================
// Model types
// =============================================================================================

enum class Side : std::uint8_t { buy = 0, sell = 1 };

struct Order {
  std::int32_t id;
  std::string symbol;
  Side side;
  double price;
  double volume;
  bool operator==(const Order&) const = default;
};

struct Balance {
  std::string currency;
  double amount;
  bool operator==(const Balance&) const = default;
};

struct Account {
  std::int32_t id;
  std::string name;
  Balance wallet;
  std::vector<Order> orders;
  bool operator==(const Account&) const = default;
};

enum class Small : std::int8_t { low = -128, high = 127 };
enum class Wide : std::uint64_t { top = 0xFFFF'FFFF'FFFF'FFFFu };
enum Plain : std::int16_t { plain_a = 0, plain_b = 300 };  // unscoped, but with a fixed type

/// Every platform-named scalar type, at values every platform can hold.
struct Scalars {
  bool yes;
  bool no;
  char c;
  signed char sc;
  unsigned char uc;
  char8_t c8;
  std::byte b;
  short s;
  unsigned short us;
  int i;
  unsigned u;
  long l;
  unsigned long ul;
  long long ll;
  unsigned long long ull;
  char16_t c16;
  char32_t c32;
  wchar_t wc;
  Small small;
  Wide wide;
  Plain plain;
  bool operator==(const Scalars&) const = default;
};

/// The per-field encoding overrides.
struct Fixed {
  std::uint32_t id = 0;
  std::int64_t neg = 0;
  Side side = Side::buy;
  long l = 0;
  std::int16_t s = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::fixed(id), bifrons::fixed(neg), bifrons::fixed(side), bifrons::fixed(l), bifrons::varint(s));
  }
  bool operator==(const Fixed&) const = default;
};

struct Strings {
  std::string ascii;
  std::string utf8;
  std::string with_nul;
  std::u8string u8;
  std::u16string u16;
  std::u32string u32;
  std::wstring wide;
  std::string empty;
  bool operator==(const Strings&) const = default;
};

/// A class version of two varint bytes; the serialize hook sees the version of the data.
struct Versioned {
  static constexpr std::uint32_t bifrons_version = 300;
  std::int32_t id = 0;
  std::string name;
  std::uint16_t flags = 0;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    ar(id, name);
    if (version >= 2) ar(flags);
  }
  bool operator==(const Versioned&) const = default;
};

struct WithDeprecated {
  std::int32_t id;
  bifrons::deprecated<std::string> old_name;
  double ratio;
  bifrons::deprecated<double> old_ratio;
  bifrons::deprecated<Balance> old_wallet;
  std::string label;
  bool operator==(const WithDeprecated&) const = default;
};

struct Animal {
  std::string name;
  std::uint16_t legs;
  bool operator==(const Animal&) const = default;
};

struct Dog : Animal {
  bool good;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Animal>(*this), good);
  }
  bool operator==(const Dog&) const = default;
};

struct Link {
  std::int32_t value;
  std::unique_ptr<Link> next;
  friend bool operator==(const Link& a, const Link& b) {
    if (a.value != b.value || bool(a.next) != bool(b.next)) return false;
    return !a.next || *a.next == *b.next;
  }
};

/// Body of exactly 64 bytes: the first body whose header takes two varint bytes.
struct Body64 {
  std::string text;
  std::int32_t n;
  bool operator==(const Body64&) const = default;
};

/// Body of exactly 8192 bytes: the first body whose header takes three varint bytes.
struct Body8192 {
  std::vector<std::uint8_t> data;
  std::uint8_t end;
  bool operator==(const Body8192&) const = default;
};

struct Empty {
  bool operator==(const Empty&) const = default;
};

using Var = std::variant<std::monostate, std::int32_t, std::string, Order>;
using Millis = std::chrono::duration<std::int64_t, std::milli>;

// ---- Records (bifrons/record.hpp): fields at fixed widths, arrays of them as one block ----
// Each Rec* type except RecBook is made a record by a specialization of bifrons::enable_record
// after this namespace (an explicit specialization belongs at global scope).

enum class Venue : std::int16_t { nyse = 1, lse = -2 };

/// 4 bytes; its memory is its wire layout on little-endian hosts (a memcpy there).
struct RecPoint {
  std::int16_t x;
  std::int16_t y;
  bool operator==(const RecPoint&) const = default;
};

/// Every kind of field: 40 bytes on the wire. In memory it has padding, a bool, and a long that
/// is 4 or 8 bytes, so it is always stored and loaded field by field.
struct RecTrade {
  bool live;
  Venue venue;
  char symbol[4];
  long qty;  // 8 bytes on the wire on every host; 32-bit values only
  wchar_t unit;  // 4 bytes on the wire; BMP code points only
  float ratio;
  double price;
  RecPoint at;  // a nested record, in place
  std::array<std::uint16_t, 2> pair;
  std::byte tag;
  bool operator==(const RecTrade&) const = default;
};

/// 10 x int32, 40 bytes: a block of them is one memcpy on little-endian hosts.
struct RecTen {
  std::int32_t v[10];
  bool operator==(const RecTen&) const = default;
};

/// 12 bytes on the wire. In memory 16 on x86-64 (padding before the double: field by field) but
/// 12 on i686 (double aligned to 4 in structs: a memcpy there).
struct RecTick {
  std::int32_t id;
  double price;
  bool operator==(const RecTick&) const = default;
};

/// A record without fields: 0 bytes, so a block of them has stride 0.
struct RecNone {
  bool operator==(const RecNone&) const = default;
};

/// A struct (an envelope, varints) holding records: alone, in blocks, in fixed arrays.
struct RecBook {
  std::string name;
  std::vector<RecTick> ticks;
  RecTick last;
  std::deque<RecPoint> path;
  std::list<RecPoint> marks;
  std::array<RecPoint, 2> box;
  RecPoint corners[3];
  std::int32_t tail;
  bool operator==(const RecBook&) const = default;
};

// ---- pointers (docs/format.md, section 23) ----------------------------------------------------

/// A doubly linked list node: shared_ptr forward, weak_ptr back.
struct PLink {
  std::int32_t value;
  std::shared_ptr<PLink> next;
  std::weak_ptr<PLink> prev;
};

/// A node held by value (enable_identity below), which non-owning pointers refer to.
struct PNode {
  std::int32_t value;
  const PNode* next;
};

/// A tree of owning raw pointers with a non-owning parent pointer, held by value at its root
/// (enable_identity below). It owns its children: its destructor deletes them, its move
/// re-points their parents.
struct PTree {
  std::int32_t value = 0;
  PTree* left = nullptr;
  PTree* right = nullptr;
  PTree* parent = nullptr;

  PTree() = default;
  PTree(std::int32_t v, PTree* l, PTree* r) : value(v), left(l), right(r) {
    if (left) left->parent = this;
    if (right) right->parent = this;
  }
  PTree(const PTree&) = delete;
  PTree& operator=(const PTree&) = delete;
  PTree(PTree&& o) noexcept : value(o.value), left(o.left), right(o.right), parent(o.parent == &o ? this : o.parent) {
    o.left = o.right = nullptr;
    adopt(&o);
  }
  PTree& operator=(PTree&& o) noexcept {
    if (this != &o) {
      delete left;
      delete right;
      value = o.value;
      left = o.left;
      right = o.right;
      parent = o.parent == &o ? this : o.parent;
      o.left = o.right = nullptr;
      adopt(&o);
    }
    return *this;
  }
  ~PTree() {
    delete left;
    delete right;
  }
  /// The nodes below that pointed to `from` as their parent point here now. (All of them, not only
  /// the children: a message may give any node below a parent pointer to this one, which a read
  /// accepts, and a move of this node must not leave it dangling.)
  void adopt(const PTree* from) noexcept {
    for (PTree* child : {left, right}) {
      if (!child) continue;
      if (child->parent == from) child->parent = this;
      child->adopt_below(from, this);
    }
  }
  void adopt_below(const PTree* from, PTree* to) noexcept {
    for (PTree* child : {left, right}) {
      if (!child) continue;
      if (child->parent == from) child->parent = to;
      child->adopt_below(from, to);
    }
  }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(value, bifrons::owning(left), bifrons::owning(right), parent);
  }
  /// Same values, and every parent pointer points to the node's parent.
  friend bool operator==(const PTree& a, const PTree& b) {
    const auto same_node = [](const PTree* x, const PTree* y) { return x && y ? *x == *y : !x && !y; };
    return a.value == b.value && same_node(a.left, b.left) && same_node(a.right, b.right) &&
           (!a.left || a.left->parent == &a) && (!a.right || a.right->parent == &a) &&
           (!b.left || b.left->parent == &b) && (!b.right || b.right->parent == &b);
  }
};

/// A strong typedef written as its number (docs/format.md, section 29). No default constructor:
/// bifrons makes it from its value.
class GUserId {
 public:
  explicit GUserId(std::uint64_t v) : v_(v) {}
  template <class Ar>
  std::uint64_t save_minimal(const Ar&) const {
    return v_;
  }
  bool operator==(const GUserId&) const = default;

 private:
  std::uint64_t v_;
};

/// A label written as its string, refusing an empty one.
struct GLabel {
  std::string text;
  template <class Ar>
  std::string save_minimal(const Ar&) const {
    return text;
  }
  template <class Ar>
  void load_minimal(const Ar& ar, const std::string& value) {
    if (value.empty()) ar.fail(bifrons::errc::invalid_value);
    text = value;
  }
  bool operator==(const GLabel&) const = default;
};

/// No default constructor: made by load_and_construct, with the bytes of its fields.
class GMade {
 public:
  GMade(std::int32_t id, std::string name) : id_(id), name_(std::move(name)) {}
  template <class Ar>
  void save(Ar& ar) const {
    ar(id_, name_);
  }
  template <class Ar>
  static GMade load_and_construct(Ar& ar) {
    std::int32_t id = 0;
    std::string name;
    ar(id, name);
    return GMade(id, std::move(name));
  }
  bool operator==(const GMade&) const = default;

 private:
  std::int32_t id_;
  std::string name_;
};

/// The forms of section 29, and types bifrons creates without a default constructor.
struct MinimalSet {
  GLabel label;
  std::vector<GUserId> users;
  std::filesystem::path path;
  std::valarray<std::int16_t> samples;
  std::unique_ptr<const std::string> note;
  std::optional<const std::int32_t> limit;
  std::vector<GMade> made;
  std::optional<GMade> maybe;
  friend bool operator==(const MinimalSet& a, const MinimalSet& b) {
    return a.label == b.label && a.users == b.users && a.path.u8string() == b.path.u8string() &&
           a.samples.size() == b.samples.size() && std::equal(std::begin(a.samples), std::end(a.samples),
                                                              std::begin(b.samples)) &&
           (a.note && b.note ? *a.note == *b.note : !a.note && !b.note) && a.limit == b.limit && a.made == b.made &&
           a.maybe == b.maybe;
  }
};

/// Every pointer form of section 23 in one value.
struct PointerSet {
  std::unique_ptr<std::int32_t> null_unique;
  std::unique_ptr<std::int32_t> unique;
  std::vector<std::shared_ptr<std::int32_t>> shared_twice;
  std::shared_ptr<std::string> owner;
  std::weak_ptr<std::string> watcher;
  std::weak_ptr<std::int32_t> expired;
  std::shared_ptr<PLink> cycle;
  std::vector<PNode> nodes;
  const PNode* current;
  const std::int32_t* to_unique;
  PTree tree;

  /// Equal values, and on each side the same sharing and the same pointer targets.
  friend bool operator==(const PointerSet& a, const PointerSet& b) {
    return a.shape_ok() && b.shape_ok() && !a.null_unique && !b.null_unique && *a.unique == *b.unique &&
           a.shared_twice.size() == b.shared_twice.size() && *a.shared_twice[0] == *b.shared_twice[0] &&
           *a.owner == *b.owner && a.list() == b.list() && a.node_shape() == b.node_shape() && a.tree == b.tree;
  }
  bool shape_ok() const {
    if (!unique || shared_twice.size() != 2 || !shared_twice[0] || shared_twice[0] != shared_twice[1]) return false;
    if (!owner || watcher.lock() != owner || !expired.expired() || to_unique != unique.get()) return false;
    std::shared_ptr<PLink> previous;
    for (auto n = cycle; n; n = n->next) {
      if (n->prev.lock() != previous) return false;
      previous = n;
    }
    return true;
  }
  std::vector<std::int32_t> list() const {
    std::vector<std::int32_t> out;
    for (auto n = cycle; n; n = n->next) out.push_back(n->value);
    return out;
  }
  /// Each node's value and the index its pointer names (-1: null), then current's index.
  std::vector<std::int64_t> node_shape() const {
    const auto index = [&](const PNode* p) -> std::int64_t {
      for (std::size_t i = 0; i < nodes.size(); ++i)
        if (&nodes[i] == p) return static_cast<std::int64_t>(i);
      return p ? -2 : -1;
    };
    std::vector<std::int64_t> out;
    for (const PNode& n : nodes) {
      out.push_back(n.value);
      out.push_back(index(n.next));
    }
    out.push_back(index(current));
    return out;
  }
};

// ---- polymorphic pointers (docs/format.md, section 23, tag 2) ----------------------------------

struct PShape {
  std::int32_t id = 0;
  PShape() = default;
  explicit PShape(std::int32_t i) : id(i) {}
  virtual ~PShape() = default;
  template <class Ar>
  void serialize(Ar& ar) { ar(id); }
};
struct PCircle final : PShape {
  std::int32_t radius = 0;
  PCircle() = default;
  PCircle(std::int32_t i, std::int32_t r) : PShape(i), radius(r) {}
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PShape>(*this), radius); }
};
struct PSquare final : PShape {
  std::int32_t side = 0;
  PSquare() = default;
  PSquare(std::int32_t i, std::int32_t s) : PShape(i), side(s) {}
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PShape>(*this), side); }
};
/// A shape holding shapes: the objects inside a polymorphic object are counted in its header.
struct PGroup final : PShape {
  std::vector<std::unique_ptr<PShape>> children;
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PShape>(*this), children); }
};
/// A second polymorphic base: PLabel's PNamed subobject is not at the object's address.
struct PNamed {
  std::string name;
  virtual ~PNamed() = default;
  template <class Ar>
  void serialize(Ar& ar) { ar(name); }
};
struct PLabel final : PShape, PNamed {
  std::int32_t size = 0;
  PLabel() = default;
  PLabel(std::int32_t i, std::string n, std::int32_t s) : PShape(i), size(s) { name = std::move(n); }
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PShape>(*this), bifrons::base<PNamed>(*this), size); }
};
/// A diamond: PRoot is a virtual base of PLeft and PRight, and written once in a PJoin.
struct PRoot {
  std::int32_t root = 0;
  virtual ~PRoot() = default;
  template <class Ar>
  void serialize(Ar& ar) { ar(root); }
};
struct PLeft : virtual PRoot {
  std::int32_t left = 0;
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PRoot>(*this), left); }
};
struct PRight : virtual PRoot {
  std::int32_t right = 0;
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PRoot>(*this), right); }
};
struct PJoin final : PLeft, PRight {
  std::int32_t join = 0;
  PJoin() = default;
  PJoin(std::int32_t r, std::int32_t l, std::int32_t ri, std::int32_t j) : join(j) {
    root = r;
    left = l;
    right = ri;
  }
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PLeft>(*this), bifrons::base<PRight>(*this), join); }
};
/// A type that an older reader has not registered (polymorphic_unknown.bin): it holds an object
/// of its own.
struct PTriangle final : PShape {
  std::shared_ptr<PShape> corner;
  template <class Ar>
  void serialize(Ar& ar) { ar(bifrons::base<PShape>(*this), corner); }
};

/// "shape(id) = circle(r)" etc.: what a shape is, for comparing values.
inline std::string describe_shape(const PShape* p) {
  if (p == nullptr) return "null";
  std::string out = std::to_string(p->id);
  if (const auto* c = dynamic_cast<const PCircle*>(p)) return "circle " + out + " " + std::to_string(c->radius);
  if (const auto* s = dynamic_cast<const PSquare*>(p)) return "square " + out + " " + std::to_string(s->side);
  if (const auto* l = dynamic_cast<const PLabel*>(p))
    return "label " + out + " " + l->name + " " + std::to_string(l->size);
  if (const auto* g = dynamic_cast<const PGroup*>(p)) {
    out = "group " + out + " [";
    for (const auto& c : g->children) out += describe_shape(c.get()) + ";";
    return out + "]";
  }
  if (const auto* t = dynamic_cast<const PTriangle*>(p)) return "triangle " + out + " " + describe_shape(t->corner.get());
  return typeid(*p) == typeid(PShape) ? "shape " + out : "other";
}
inline std::string describe_join(const PRoot* p) {
  const auto* j = dynamic_cast<const PJoin*>(p);
  if (j == nullptr) return "not a join";
  return std::to_string(j->root) + " " + std::to_string(j->left) + " " + std::to_string(j->right) + " " +
         std::to_string(j->join);
}

struct PolySet {
  std::vector<std::unique_ptr<PShape>> shapes;  // circle, square, circle, plain shape, group, null
  std::unique_ptr<PNamed> named;                // a label, through its second base
  std::shared_ptr<PShape> label_as_shape;       // one label through both of its bases
  std::shared_ptr<PNamed> label_as_named;
  std::weak_ptr<PShape> watcher;                // the same label
  std::unique_ptr<PRoot> diamond;               // a join
  std::shared_ptr<PLeft> join_left;             // one join through both sides of the diamond
  std::shared_ptr<PRight> join_right;
  const PShape* observer;                       // the square in shapes

  /// Equal values, and on each side the same sharing, the same pointer targets and pointers
  /// adjusted to their subobjects.
  friend bool operator==(const PolySet& a, const PolySet& b) { return a.shape_ok() && b.shape_ok() && a.text() == b.text(); }
  bool shape_ok() const {
    const auto* label = dynamic_cast<const PLabel*>(label_as_shape.get());
    const auto* join = dynamic_cast<const PJoin*>(join_left.get());
    return shapes.size() == 6 && observer == shapes[1].get() && label != nullptr &&
           label_as_named.get() == static_cast<const PNamed*>(label) && watcher.lock() == label_as_shape &&
           label_as_shape.use_count() == 3 && join != nullptr && join_right.get() == static_cast<const PRight*>(join) &&
           named != nullptr && dynamic_cast<const PLabel*>(named.get()) != nullptr;
  }
  std::string text() const {
    std::string out;
    for (const auto& p : shapes) out += describe_shape(p.get()) + ";";
    out += describe_shape(dynamic_cast<const PLabel*>(named.get())) + ";" + describe_shape(label_as_shape.get()) + ";";
    return out + describe_join(diamond.get()) + ";" + describe_join(static_cast<const PRoot*>(join_left.get()));
  }
};

/// A message of a newer writer that knows PTriangle: a triangle holding a circle of its own,
/// references to both, then a square and a reference to it.
struct PolyNewer {
  std::vector<std::shared_ptr<PShape>> shapes;
  friend bool operator==(const PolyNewer& a, const PolyNewer& b) { return a.text() == b.text() && a.shape_ok() && b.shape_ok(); }
  bool shape_ok() const {
    const auto* t = shapes.size() == 5 ? dynamic_cast<const PTriangle*>(shapes[0].get()) : nullptr;
    return t != nullptr && shapes[1] == shapes[0] && shapes[2] == t->corner && shapes[4] == shapes[3];
  }
  std::string text() const {
    std::string out;
    for (const auto& p : shapes) out += describe_shape(p.get()) + ";";
    return out;
  }
};

}  // namespace golden

template <>
inline constexpr bool bifrons::enable_record<golden::RecPoint> = true;
template <>
inline constexpr bool bifrons::enable_record<golden::RecTrade> = true;
template <>
inline constexpr bool bifrons::enable_record<golden::RecTen> = true;
template <>
inline constexpr bool bifrons::enable_record<golden::RecTick> = true;
template <>
inline constexpr bool bifrons::enable_record<golden::RecNone> = true;
template <>
inline constexpr bool bifrons::enable_identity<golden::PNode> = true;
template <>
inline constexpr bool bifrons::enable_identity<golden::PTree> = true;

BIFRONS_REGISTER(golden::PCircle, "golden.Circle");
BIFRONS_REGISTER(golden::PSquare, "golden.Square");
BIFRONS_REGISTER(golden::PGroup, "golden.Group");
BIFRONS_REGISTER(golden::PLabel, "golden.Label");
BIFRONS_REGISTER(golden::PJoin, "golden.Join");
// A program that defines BIFRONS_GOLDEN_OLD_READER plays an older reader that does not know it.
#ifndef BIFRONS_GOLDEN_OLD_READER
BIFRONS_REGISTER(golden::PTriangle, "golden.Triangle");
#endif

namespace golden {

// =============================================================================================
// spec: an independent, deliberately naive encoder that spells out the format rules
// =============================================================================================

namespace spec {

class bytes {
 public:
  /// LEB128: seven bits at a time, least significant group first, high bit = "more follows".
  bytes& u(std::uint64_t v) {
    do {
      unsigned group = static_cast<unsigned>(v & 0x7f);
      v >>= 7;
      if (v != 0) group |= 0x80;
      out.push_back(std::byte(group));
    } while (v != 0);
    return *this;
  }
  /// Zigzag: 0, -1, 1, -2, 2 ... map to 0, 1, 2, 3, 4 ...
  bytes& s(std::int64_t v) {
    const auto bits = static_cast<std::uint64_t>(v);
    return u(v >= 0 ? bits * 2 : (~bits) * 2 + 1);
  }
  bytes& raw(std::initializer_list<unsigned> list) {
    for (unsigned b : list) out.push_back(std::byte(b));
    return *this;
  }
  /// width bytes of v, least significant first.
  bytes& le(std::uint64_t v, unsigned width) {
    for (unsigned i = 0; i < width; ++i) out.push_back(std::byte((v >> (8 * i)) & 0xff));
    return *this;
  }
  bytes& f32(std::uint32_t bits) { return le(bits, 4); }
  bytes& f64(std::uint64_t bits) { return le(bits, 8); }
  /// A string of one-byte code units: count, then the units.
  bytes& str(std::string_view text) {
    u(text.size());
    for (char c : text) out.push_back(std::byte(static_cast<unsigned char>(c)));
    return *this;
  }
  bytes& add(const bytes& other) {
    out.insert(out.end(), other.out.begin(), other.out.end());
    return *this;
  }
  /// A struct without a version: varint(body_length << 1), then the body.
  bytes& env(const bytes& body) {
    u(static_cast<std::uint64_t>(body.out.size()) << 1);
    return add(body);
  }
  /// A versioned struct: varint(length << 1 | 1), varint(version), fields; the length counts
  /// the version varint.
  bytes& env(std::uint32_t version, const bytes& fields) {
    bytes body;
    body.u(version).add(fields);
    u((static_cast<std::uint64_t>(body.out.size()) << 1) | 1);
    return add(body);
  }

  /// A record alone: varint(K << 1), then its K bytes (the header of a struct without version).
  bytes& record(const bytes& fields) {
    u(static_cast<std::uint64_t>(fields.out.size()) << 1);
    return add(fields);
  }
  /// Records in a sequence: varint(count), then if count > 0 varint(stride) and the records.
  bytes& records(std::uint64_t count, std::uint64_t stride, const bytes& all) {
    u(count);
    if (count == 0) return *this;
    return u(stride).add(all);
  }

  std::vector<std::byte> out;
};

inline bytes order(std::int32_t id, std::string_view symbol, unsigned side, std::uint64_t price_bits,
                   std::uint64_t volume_bits) {
  return bytes{}.env(bytes{}.s(id).str(symbol).u(side).f64(price_bits).f64(volume_bits));
}

inline bytes balance(std::string_view currency, std::uint64_t amount_bits) {
  return bytes{}.env(bytes{}.str(currency).f64(amount_bits));
}

/// A record's fields, back to back, each at its fixed width little-endian: integers and enums
/// two's complement at their wire width (long 8 bytes, wchar_t 4), floats their bit patterns.
inline bytes point(std::int16_t x, std::int16_t y) {
  return bytes{}.le(static_cast<std::uint16_t>(x), 2).le(static_cast<std::uint16_t>(y), 2);
}

inline bytes tick(std::int32_t id, std::uint64_t price_bits) {
  return bytes{}.le(static_cast<std::uint32_t>(id), 4).f64(price_bits);
}

inline bytes trade(unsigned live, std::int16_t venue, std::initializer_list<unsigned> symbol, std::int64_t qty,
                   std::uint32_t unit, std::uint32_t ratio_bits, std::uint64_t price_bits, const bytes& at,
                   std::uint16_t pair0, std::uint16_t pair1, unsigned tag) {
  return bytes{}
      .le(live, 1)                                 // bool
      .le(static_cast<std::uint16_t>(venue), 2)    // enum : int16_t
      .raw(symbol)                                 // char[4]
      .le(static_cast<std::uint64_t>(qty), 8)      // long: 8 bytes
      .le(unit, 4)                                 // wchar_t: 4 bytes
      .f32(ratio_bits)                             // float
      .f64(price_bits)                             // double
      .add(at)                                     // nested record, in place
      .le(pair0, 2).le(pair1, 2)                   // std::array<uint16_t, 2>
      .le(tag, 1);                                 // std::byte
}

}  // namespace spec

// Bit patterns (IEEE-754) used by the cases, checked with Python's struct module.
inline constexpr std::uint64_t f64_quiet_nan = 0x7FF8'0000'0000'0000u;
inline constexpr std::uint64_t f64_nan_payload = 0x7FF8'0000'DEAD'BEEFu;
inline constexpr std::uint64_t f64_negative_nan = 0xFFF8'0000'0000'0000u;
inline constexpr std::uint32_t f32_nan_payload = 0x7FC0'0001u;

// =============================================================================================
// The cases
// =============================================================================================

/// Integers of every fixed width at their edges, and the one-/two-byte varint boundaries.
struct integers {
  static constexpr const char* name = "integers";
  using type = std::tuple<std::int8_t, std::int8_t, std::int16_t, std::int16_t, std::int32_t, std::int32_t,
                          std::int64_t, std::int64_t, std::int32_t, std::int32_t, std::int64_t, std::int64_t,
                          std::int64_t, std::uint8_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t,
                          std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t>;
  static type value() {
    using i64 = std::numeric_limits<std::int64_t>;
    using i32 = std::numeric_limits<std::int32_t>;
    return {std::int8_t{-128},
            std::int8_t{127},
            std::int16_t{-32768},
            std::int16_t{32767},
            i32::min(),
            i32::max(),
            i64::min(),
            i64::max(),
            0,
            -1,
            -64,
            64,
            -65,
            std::uint8_t{0},
            std::uint8_t{255},
            std::uint16_t{65535},
            std::numeric_limits<std::uint32_t>::max(),
            std::numeric_limits<std::uint64_t>::max(),
            127u,
            128u,
            16383u,
            16384u,
            std::uint64_t{1} << 63};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .raw({0xFF, 0x01})                                            // int8 -128 -> 255
        .raw({0xFE, 0x01})                                            // int8 127 -> 254
        .raw({0xFF, 0xFF, 0x03})                                      // int16 -32768 -> 65535
        .raw({0xFE, 0xFF, 0x03})                                      // int16 32767 -> 65534
        .raw({0xFF, 0xFF, 0xFF, 0xFF, 0x0F})                          // int32 min -> 2^32-1
        .raw({0xFE, 0xFF, 0xFF, 0xFF, 0x0F})                          // int32 max -> 2^32-2
        .raw({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01})  // int64 min -> 2^64-1
        .raw({0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01})  // int64 max -> 2^64-2
        .raw({0x00})                                                  // 0
        .raw({0x01})                                                  // -1 -> 1
        .raw({0x7F})                                                  // -64 -> 127 (one byte)
        .raw({0x80, 0x01})                                            // 64 -> 128 (two bytes)
        .raw({0x81, 0x01})                                            // -65 -> 129
        .raw({0x00})                                                  // uint8 0
        .raw({0xFF, 0x01})                                            // uint8 255
        .raw({0xFF, 0xFF, 0x03})                                      // uint16 max
        .raw({0xFF, 0xFF, 0xFF, 0xFF, 0x0F})                          // uint32 max
        .raw({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01})  // uint64 max
        .raw({0x7F})                                                  // 127
        .raw({0x80, 0x01})                                            // 128
        .raw({0xFF, 0x7F})                                            // 16383
        .raw({0x80, 0x80, 0x01})                                      // 16384
        .raw({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})  // 2^63
        .out;
  }
};

struct scalars {
  static constexpr const char* name = "scalars";
  using type = Scalars;
  static type value() {
    return {true,
            false,
            'A',
            static_cast<signed char>(-128),
            static_cast<unsigned char>(255),
            char8_t{0xE9},
            std::byte{0xAB},
            static_cast<short>(-32768),
            static_cast<unsigned short>(65535),
            std::numeric_limits<std::int32_t>::min(),
            4294967295u,
            -2147483647L - 1,  // long: 32-bit values only, so that 32-bit hosts agree
            4294967295UL,
            std::numeric_limits<long long>::min(),
            std::numeric_limits<unsigned long long>::max(),
            char16_t{0xFFFF},
            char32_t{0x10FFFF},
            static_cast<wchar_t>(0x20AC),  // a BMP code point: one unit for 16- and 32-bit wchar_t
            Small::low,
            Wide::top,
            plain_b};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .env(spec::bytes{}
                 .raw({0x01, 0x00})        // bools
                 .raw({0x41})              // char: raw byte
                 .s(-128)                  // signed char: zigzag varint
                 .u(255)                   // unsigned char: varint
                 .raw({0xE9})              // char8_t: raw byte
                 .raw({0xAB})              // std::byte: raw byte
                 .s(-32768)                // short
                 .u(65535)                 // unsigned short
                 .s(-2147483648LL)         // int
                 .u(4294967295u)           // unsigned
                 .s(-2147483648LL)         // long
                 .u(4294967295u)           // unsigned long
                 .s(std::numeric_limits<std::int64_t>::min())
                 .u(std::numeric_limits<std::uint64_t>::max())
                 .u(0xFFFF)                // char16_t
                 .raw({0xFF, 0xFF, 0x43})  // char32_t 0x10FFFF
                 .raw({0xAC, 0x41})        // wchar_t 0x20AC as uint32
                 .s(-128)                  // enum : int8_t
                 .u(std::numeric_limits<std::uint64_t>::max())  // enum : uint64_t
                 .raw({0xD8, 0x04}))       // enum : int16_t 300 -> zigzag 600
        .out;
  }
};

struct fixed_wrappers {
  static constexpr const char* name = "fixed_wrappers";
  using type = Fixed;
  static type value() { return {0x01020304u, -2, Side::sell, -1L, -1}; }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .env(spec::bytes{}
                 .raw({0x04, 0x03, 0x02, 0x01})                          // fixed uint32
                 .raw({0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})  // fixed int64 -2
                 .raw({0x01})                                            // fixed enum : uint8_t
                 .raw({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})  // fixed long: 8 bytes everywhere
                 .raw({0x01}))                                           // varint int16 -1
        .out;
  }
};

/// Scalar float and double fields: signed zero, infinities, quiet NaNs with payloads, subnormal.
struct floats {
  static constexpr const char* name = "floats";
  using type = std::tuple<float, float, float, float, double, double, double, double, double, double>;
  static type value() {
    return {-0.0f,
            std::numeric_limits<float>::infinity(),
            std::bit_cast<float>(f32_nan_payload),
            1.5f,
            -0.0,
            -std::numeric_limits<double>::infinity(),
            std::bit_cast<double>(f64_nan_payload),
            std::bit_cast<double>(f64_negative_nan),
            std::numeric_limits<double>::denorm_min(),
            0.1};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .f32(0x8000'0000u)
        .f32(0x7F80'0000u)
        .f32(0x7FC0'0001u)
        .f32(0x3FC0'0000u)
        .f64(0x8000'0000'0000'0000u)
        .f64(0xFFF0'0000'0000'0000u)
        .f64(0x7FF8'0000'DEAD'BEEFu)
        .f64(0xFFF8'0000'0000'0000u)
        .f64(0x0000'0000'0000'0001u)
        .f64(0x3FB9'9999'9999'999Au)
        .out;
  }
};

/// vector<double>: one raw little-endian block.
struct vector_double {
  static constexpr const char* name = "vector_double";
  using type = std::vector<double>;
  static type value() {
    using lim = std::numeric_limits<double>;
    return {0.0,        -0.0,       1.0,        -2.5,
            0.1,        lim::max(), lim::min(), lim::denorm_min(),
            lim::infinity(), -lim::infinity(), std::bit_cast<double>(f64_quiet_nan), std::bit_cast<double>(f64_nan_payload),
            std::bit_cast<double>(f64_negative_nan), 3.141592653589793};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(14)
        .f64(0x0000'0000'0000'0000u)
        .f64(0x8000'0000'0000'0000u)
        .f64(0x3FF0'0000'0000'0000u)
        .f64(0xC004'0000'0000'0000u)
        .f64(0x3FB9'9999'9999'999Au)
        .f64(0x7FEF'FFFF'FFFF'FFFFu)
        .f64(0x0010'0000'0000'0000u)
        .f64(0x0000'0000'0000'0001u)
        .f64(0x7FF0'0000'0000'0000u)
        .f64(0xFFF0'0000'0000'0000u)
        .f64(0x7FF8'0000'0000'0000u)
        .f64(0x7FF8'0000'DEAD'BEEFu)
        .f64(0xFFF8'0000'0000'0000u)
        .f64(0x4009'21FB'5444'2D18u)
        .out;
  }
};

struct strings {
  static constexpr const char* name = "strings";
  using type = Strings;
  static type value() {
    return {"hello",
            "gr\xC3\xBC\xC3\x9F",  // "grüß" in UTF-8
            std::string("a\0b", 3),
            u8"\u00E9t\u00E9",                // "été"
            u"A\u00E9\U0001F600",             // a surrogate pair at the end
            U"A\U0001F600\U0010FFFF",
            L"\u20AC\u00FCx",                 // BMP only: same units for 16- and 32-bit wchar_t
            ""};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .env(spec::bytes{}
                 .str("hello")
                 .raw({0x06, 0x67, 0x72, 0xC3, 0xBC, 0xC3, 0x9F})
                 .raw({0x03, 0x61, 0x00, 0x62})
                 .raw({0x05, 0xC3, 0xA9, 0x74, 0xC3, 0xA9})
                 .u(4).le(0x0041, 2).le(0x00E9, 2).le(0xD83D, 2).le(0xDE00, 2)
                 .u(3).le(0x41, 4).le(0x1F600, 4).le(0x10FFFF, 4)
                 .u(3).le(0x20AC, 4).le(0xFC, 4).le(0x78, 4)  // wchar_t: 4 bytes each
                 .u(0))
        .out;
  }
};

struct vector_int32 {
  static constexpr const char* name = "vector_int32";
  using type = std::vector<std::int32_t>;
  static type value() {
    return {std::numeric_limits<std::int32_t>::min(), -1, 0, 1, 0x01020304, std::numeric_limits<std::int32_t>::max()};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(6)
        .raw({0x00, 0x00, 0x00, 0x80})
        .raw({0xFF, 0xFF, 0xFF, 0xFF})
        .raw({0x00, 0x00, 0x00, 0x00})
        .raw({0x01, 0x00, 0x00, 0x00})
        .raw({0x04, 0x03, 0x02, 0x01})
        .raw({0xFF, 0xFF, 0xFF, 0x7F})
        .out;
  }
};

/// long and unsigned long travel as 8-byte elements on every host (values fit 32 bits).
struct vector_long {
  static constexpr const char* name = "vector_long";
  using type = std::pair<std::vector<long>, std::vector<unsigned long>>;
  static type value() { return {{-2147483647L - 1, -1L, 0L, 2147483647L}, {0UL, 4294967295UL, 1UL}}; }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(4)
        .raw({0x00, 0x00, 0x00, 0x80, 0xFF, 0xFF, 0xFF, 0xFF})
        .raw({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
        .raw({0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
        .raw({0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x00, 0x00, 0x00})
        .u(3)
        .raw({0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
        .raw({0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00})
        .raw({0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
        .out;
  }
};

/// Blocks of the other element widths.
struct blocks {
  static constexpr const char* name = "blocks";
  using type = std::tuple<std::vector<std::int8_t>, std::vector<std::uint16_t>, std::vector<std::int64_t>,
                          std::vector<float>, std::vector<char16_t>, std::vector<wchar_t>, std::vector<std::byte>,
                          std::array<bool, 3>, std::array<std::int32_t, 3>>;
  static type value() {
    return {{-128, 0, 127},
            {0x1234, 0xFFFF},
            {std::numeric_limits<std::int64_t>::min(), 1},
            {1.0f, -0.0f},
            {u'\uFFFF', u'A'},
            {static_cast<wchar_t>(0x20AC)},
            {std::byte{0x00}, std::byte{0xFF}},
            {true, false, true},
            {-1, 0, 0x7F}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(3).raw({0x80, 0x00, 0x7F})
        .u(2).raw({0x34, 0x12, 0xFF, 0xFF})
        .u(2).raw({0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00})
        .u(2).f32(0x3F80'0000u).f32(0x8000'0000u)
        .u(2).raw({0xFF, 0xFF, 0x41, 0x00})
        .u(1).raw({0xAC, 0x20, 0x00, 0x00})
        .u(2).raw({0x00, 0xFF})
        .raw({0x01, 0x00, 0x01})                                                  // array: no count
        .raw({0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x7F, 0x00, 0x00, 0x00})
        .out;
  }
};

struct vector_bool {
  static constexpr const char* name = "vector_bool";
  using type = std::tuple<std::vector<bool>, std::vector<bool>, std::vector<bool>>;
  static type value() {
    return {{true, false, true, true, false, false, false, true, true, true, false, false, true},
            std::vector<bool>(8, true),
            {}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(13).raw({0x8D, 0x13})  // bits LSB first: 1011 0001 | 1100 1 (padding zero)
        .u(8).raw({0xFF})
        .u(0)
        .out;
  }
};

struct account {
  static constexpr const char* name = "account";
  using type = Account;
  static type value() {
    return {42,
            "Ada",
            {"EUR", 1234.5},
            {{1, "AAPL", Side::buy, 189.25, 10.0},
             {2, "MSFT", Side::sell, 411.5, 2.5},
             {3, "BTC-USD", Side::buy, 67250.75, 0.125}}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .env(spec::bytes{}
                 .s(42)
                 .str("Ada")
                 .add(spec::balance("EUR", 0x4093'4A00'0000'0000u))
                 .u(3)
                 .add(spec::order(1, "AAPL", 0, 0x4067'A800'0000'0000u, 0x4024'0000'0000'0000u))
                 .add(spec::order(2, "MSFT", 1, 0x4079'B800'0000'0000u, 0x4004'0000'0000'0000u))
                 .add(spec::order(3, "BTC-USD", 0, 0x40F0'6B2C'0000'0000u, 0x3FC0'0000'0000'0000u)))
        .out;
  }
};

struct versioned {
  static constexpr const char* name = "versioned";
  using type = Versioned;
  static type value() { return {7, "v", 0xBEEF}; }
  static std::vector<std::byte> spec() {
    return spec::bytes{}.env(300, spec::bytes{}.s(7).str("v").u(0xBEEF)).out;
  }
};

struct deprecated_fields {
  static constexpr const char* name = "deprecated";
  using type = WithDeprecated;
  static type value() { return {5, {}, 0.75, {}, {}, "kept"}; }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .env(spec::bytes{}
                 .s(5)
                 .u(0)                       // deprecated<string>: an empty string
                 .f64(0x3FE8'0000'0000'0000u)
                 .f64(0)                     // deprecated<double>: 0.0
                 .raw({0x00})                // deprecated<Balance>: an empty envelope
                 .str("kept"))
        .out;
  }
};

struct base_class {
  static constexpr const char* name = "base";
  using type = Dog;
  static type value() { return {{"Rex", 4}, true}; }
  static std::vector<std::byte> spec() {
    return spec::bytes{}.env(spec::bytes{}.env(spec::bytes{}.str("Rex").u(4)).raw({0x01})).out;
  }
};

struct optional_variant {
  static constexpr const char* name = "optional_variant";
  using type = std::tuple<std::optional<std::int32_t>, std::optional<std::string>, std::optional<Balance>, Var, Var,
                          Var, Var, std::variant<bool, double>>;
  static type value() {
    return {std::nullopt,
            std::string("x"),
            Balance{"USD", -0.5},
            Var{},
            Var{std::int32_t{-7}},
            Var{std::string("v")},
            Var{Order{9, "X", Side::sell, 2.0, 0.5}},
            std::variant<bool, double>{std::in_place_index<1>, 2.0}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .raw({0x00})
        .raw({0x01}).str("x")
        .raw({0x01}).add(spec::balance("USD", 0xBFE0'0000'0000'0000u))
        .u(0)                 // monostate: index only
        .u(1).s(-7)
        .u(2).str("v")
        .u(3).add(spec::order(9, "X", 1, 0x4000'0000'0000'0000u, 0x3FE0'0000'0000'0000u))
        .u(1).f64(0x4000'0000'0000'0000u)
        .out;
  }
};

struct tuple_pair {
  static constexpr const char* name = "tuple_pair";
  using type = std::tuple<std::pair<std::int32_t, std::string>, std::tuple<std::uint8_t, double, std::string>,
                          std::tuple<>, std::pair<Side, bool>>;
  static type value() { return {{-1, "one"}, {std::uint8_t{200}, 0.125, "t"}, {}, {Side::sell, true}}; }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .s(-1).str("one")
        .u(200).f64(0x3FC0'0000'0000'0000u).str("t")
        .u(1).raw({0x01})
        .out;
  }
};

struct maps_sets {
  static constexpr const char* name = "maps_sets";
  using type = std::tuple<std::map<std::int32_t, std::string>, std::set<std::string>,
                          std::multimap<std::string, std::int32_t>, std::multiset<std::int32_t>,
                          std::map<std::string, std::vector<Balance>>, std::unordered_map<std::int32_t, std::string>,
                          std::unordered_set<std::string>, std::map<std::int32_t, std::int32_t>>;
  static type value() {
    return {{{300, "big"}, {-1, "neg"}, {0, ""}},
            {"b", "c", "a"},
            {{"k", 2}, {"j", 1}, {"k", 1}},  // equal keys keep their insertion order
            {3, -1, 3},
            {{"w", {{"EUR", 1.0}, {"USD", 2.5}}}, {"e", {}}},
            {{7, "seven"}},  // unordered: at most one element, so the order is fixed
            {"only"},
            {}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(3).s(-1).str("neg").s(0).str("").s(300).str("big")  // map keys are varints, in key order
        .u(3).str("a").str("b").str("c")
        .u(3).str("j").s(1).str("k").s(2).str("k").s(1)
        .u(3).s(-1).s(3).s(3)
        .u(2).str("e").u(0).str("w").u(2)
        .add(spec::balance("EUR", 0x3FF0'0000'0000'0000u))
        .add(spec::balance("USD", 0x4004'0000'0000'0000u))
        .u(1).s(7).str("seven")
        .u(1).str("only")
        .u(0)
        .out;
  }
};

struct array_bitset {
  static constexpr const char* name = "array_bitset";
  using type = std::tuple<std::array<std::string, 2>, std::array<std::array<std::uint8_t, 2>, 2>,
                          std::array<Side, 2>, std::bitset<10>, std::bitset<64>, std::bitset<1>, std::bitset<16>>;
  static type value() {
    return {{"ab", ""},
            {{{1, 2}, {3, 4}}},
            {Side::sell, Side::buy},
            std::bitset<10>(0x205),
            std::bitset<64>(0x8000'0000'0000'0001ull),
            std::bitset<1>(1),
            std::bitset<16>(0xA55A)};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .str("ab").str("")
        .raw({0x01, 0x02, 0x03, 0x04})
        .raw({0x01, 0x00})
        .raw({0x05, 0x02})  // bits 0, 2, 9
        .raw({0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80})
        .raw({0x01})
        .raw({0x5A, 0xA5})
        .out;
  }
};

struct complex_chrono {
  static constexpr const char* name = "complex_chrono";
  using type = std::tuple<std::complex<double>, std::complex<float>, Millis, std::chrono::duration<std::int32_t>,
                          std::chrono::duration<double>, std::chrono::time_point<std::chrono::system_clock, Millis>,
                          std::chrono::duration<std::int8_t, std::ratio<60>>>;
  static type value() {
    return {std::complex<double>(1.5, -2.0),
            std::complex<float>(0.5f, 0.25f),
            Millis(-1500),
            std::chrono::duration<std::int32_t>(86400),
            std::chrono::duration<double>(0.75),
            std::chrono::time_point<std::chrono::system_clock, Millis>(Millis(1'700'000'000'000)),
            std::chrono::duration<std::int8_t, std::ratio<60>>(-3)};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .f64(0x3FF8'0000'0000'0000u).f64(0xC000'0000'0000'0000u)
        .f32(0x3F00'0000u).f32(0x3E80'0000u)
        .raw({0xB7, 0x17})                                // -1500 -> 2999
        .raw({0x80, 0xC6, 0x0A})                          // 86400 -> 172800
        .f64(0x3FE8'0000'0000'0000u)
        .raw({0x80, 0xA0, 0xAB, 0xFE, 0xF9, 0x62})        // 1.7e12 -> 3.4e12
        .raw({0x05})                                      // -3 -> 5
        .out;
  }
};

struct unique_ptrs {
  static constexpr const char* name = "unique_ptr";
  using type = std::tuple<std::unique_ptr<Link>, std::unique_ptr<std::unique_ptr<std::int32_t>>,
                          std::unique_ptr<std::string>, std::optional<std::unique_ptr<std::int32_t>>,
                          std::vector<std::unique_ptr<std::int32_t>>>;
  static type value() {
    auto list = std::make_unique<Link>(Link{1, std::make_unique<Link>(Link{2, std::make_unique<Link>(Link{3, nullptr})})});
    std::vector<std::unique_ptr<std::int32_t>> many;
    many.push_back(std::make_unique<std::int32_t>(1));
    many.push_back(nullptr);
    return {std::move(list), std::make_unique<std::unique_ptr<std::int32_t>>(std::make_unique<std::int32_t>(-5)),
            nullptr, std::make_unique<std::int32_t>(9), std::move(many)};
  }
  static std::vector<std::byte> spec() {
    const auto link3 = spec::bytes{}.env(spec::bytes{}.s(3).u(0));
    const auto link2 = spec::bytes{}.env(spec::bytes{}.s(2).u(1).add(link3));
    const auto link1 = spec::bytes{}.env(spec::bytes{}.s(1).u(1).add(link2));
    return spec::bytes{}
        .u(1).add(link1)
        .u(1).u(1).s(-5)
        .u(0)
        .raw({0x01}).u(1).s(9)  // optional tag byte, pointer tag varint
        .u(2).u(1).s(1).u(0)
        .out;
  }
};

struct body_64 {
  static constexpr const char* name = "body_64";
  using type = Body64;
  static type value() { return {std::string(62, 'x'), 5}; }
  static std::vector<std::byte> spec() {
    // 1 (count) + 62 + 1 (n) = 64 bytes: header 64 << 1 = 128 = 0x80 0x01.
    return spec::bytes{}.raw({0x80, 0x01}).str(std::string(62, 'x')).s(5).out;
  }
};

struct body_8192 {
  static constexpr const char* name = "body_8192";
  using type = Body8192;
  static type value() {
    Body8192 b{std::vector<std::uint8_t>(8189), 0x55};
    for (std::size_t i = 0; i < b.data.size(); ++i) b.data[i] = static_cast<std::uint8_t>((i * 31 + 7) & 0xFF);
    return b;
  }
  static std::vector<std::byte> spec() {
    // 2 (count 8189) + 8189 + 1 = 8192 bytes: header 8192 << 1 = 16384 = 0x80 0x80 0x01.
    spec::bytes b;
    b.raw({0x80, 0x80, 0x01}).raw({0xFD, 0x3F});
    for (unsigned i = 0; i < 8189; ++i) b.le((i * 31 + 7) & 0xFF, 1);
    return b.raw({0x55}).out;
  }
};

struct sequences {
  static constexpr const char* name = "sequences";
  using type = std::tuple<std::vector<std::vector<std::int32_t>>, std::vector<std::string>,
                          std::vector<std::optional<std::int32_t>>, std::deque<std::int16_t>, std::list<std::string>,
                          std::forward_list<std::int32_t>, std::vector<Balance>>;
  static type value() {
    return {{{1, 2}, {}, {-1}}, {"a", "", "bc"}, {std::nullopt, 3}, {-2, 0x1234}, {"l1", "l2"}, {10, -10},
            {{"JPY", 0.0}}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(3).u(2).le(1, 4).le(2, 4).u(0).u(1).le(0xFFFF'FFFFu, 4)
        .u(3).str("a").str("").str("bc")
        .u(2).raw({0x00}).raw({0x01}).s(3)
        .u(2).raw({0xFE, 0xFF, 0x34, 0x12})  // deque<int16_t>: a block like vector
        .u(2).str("l1").str("l2")
        .u(2).le(10, 4).le(0xFFFF'FFF6u, 4)
        .u(1).add(spec::balance("JPY", 0))
        .out;
  }
};

struct empties {
  static constexpr const char* name = "empty";
  using type = std::tuple<Empty, std::string, std::vector<std::int32_t>, std::map<std::int32_t, std::int32_t>,
                          std::optional<Empty>, std::vector<Empty>, std::vector<std::monostate>>;
  static type value() { return {{}, {}, {}, {}, Empty{}, std::vector<Empty>(2), std::vector<std::monostate>(3)}; }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .raw({0x00})              // Empty: body length 0
        .u(0).u(0).u(0)
        .raw({0x01, 0x00})        // optional<Empty>
        .u(2).raw({0x00, 0x00})   // two empty envelopes
        .u(3)                     // monostate elements take no bytes
        .out;
  }
};

/// Several values written to one stream with bifrons::writer: simply concatenated.
struct stream {
  static constexpr const char* name = "stream";
  static constexpr bool streamed = true;
  using type = std::tuple<std::int32_t, std::string, Order, std::vector<std::uint16_t>, Balance, Empty>;
  static type value() {
    return {7, "second", Order{4, "IBM", Side::sell, 42.0, 0.3}, {1, 2, 65535}, Balance{"GBP", 99.99}, Empty{}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .s(7)
        .str("second")
        .add(spec::order(4, "IBM", 1, 0x4045'0000'0000'0000u, 0x3FD3'3333'3333'3333u))
        .u(3).raw({0x01, 0x00, 0x02, 0x00, 0xFF, 0xFF})
        .add(spec::balance("GBP", 0x4058'FF5C'28F5'C28Fu))
        .raw({0x00})
        .out;
  }
};

/// Records: alone; in blocks (field by field, and one memcpy where the host allows); an empty
/// vector; fixed arrays of two and of none; a forward_list; records of zero bytes (stride 0).
struct records {
  static constexpr const char* name = "records";
  using type = std::tuple<RecTrade, std::vector<RecTen>, std::vector<RecTrade>, std::vector<RecTrade>,
                          std::array<RecTick, 2>, std::array<RecPoint, 0>, std::forward_list<RecPoint>,
                          std::vector<RecNone>>;
  static type value() {
    const RecTrade t1{true, Venue::lse, {'I', 'B', 'M', '\xE9'}, -2147483647L - 1, static_cast<wchar_t>(0x20AC),
                      0.75f, 189.25, {-3, 300}, {0xBEEF, 1}, std::byte{0xA5}};
    const RecTrade t2{false, Venue::nyse, {'A', 'B', 'C', '\0'}, 2147483647L, static_cast<wchar_t>(0xFC),
                      -1.5f, -0.5, {7, -32768}, {0, 0xFFFF}, std::byte{0x00}};
    const RecTrade t3{true, Venue::lse, {'X', '\0', '\0', '\0'}, -1L, static_cast<wchar_t>('x'),
                      0.5f, 67250.75, {32767, 0}, {2, 3}, std::byte{0xFF}};
    using i32 = std::numeric_limits<std::int32_t>;
    std::vector<RecTen> tens{{{i32::min(), -1, 0, 1, 0x01020304, i32::max(), -2, 2, 256, -256}},
                             {{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}},
                             {{-10, -11, -12, -13, -14, -15, -16, -17, -18, -19}}};
    return {t1,
            std::move(tens),
            {t2, t3},
            {},
            {{{1, 2.5}, {-2, 1234.5}}},
            {},
            {{1, -1}, {2, -2}},
            std::vector<RecNone>(3)};
  }
  static std::vector<std::byte> spec() {
    spec::bytes tens;
    tens.raw({0x00, 0x00, 0x00, 0x80}).raw({0xFF, 0xFF, 0xFF, 0xFF}).raw({0x00, 0x00, 0x00, 0x00})
        .raw({0x01, 0x00, 0x00, 0x00}).raw({0x04, 0x03, 0x02, 0x01}).raw({0xFF, 0xFF, 0xFF, 0x7F})
        .raw({0xFE, 0xFF, 0xFF, 0xFF}).raw({0x02, 0x00, 0x00, 0x00}).raw({0x00, 0x01, 0x00, 0x00})
        .raw({0x00, 0xFF, 0xFF, 0xFF});
    for (unsigned i = 10; i < 20; ++i) tens.le(i, 4);
    for (unsigned i = 10; i < 20; ++i) tens.le(0x1'0000'0000u - i, 4);  // -i, two's complement
    return spec::bytes{}
        // RecTrade alone: varint(40 << 1) = 50, then the 40 bytes.
        .record(spec::trade(1, -2, {0x49, 0x42, 0x4D, 0xE9}, -2147483648LL, 0x20AC, 0x3F40'0000u,
                            0x4067'A800'0000'0000u, spec::point(-3, 300), 0xBEEF, 1, 0xA5))
        // vector<RecTen>: count 3, stride 40, 120 bytes.
        .records(3, 40, tens)
        // vector<RecTrade>: count 2, stride 40.
        .records(2, 40, spec::bytes{}
                            .add(spec::trade(0, 1, {0x41, 0x42, 0x43, 0x00}, 2147483647LL, 0xFC, 0xBFC0'0000u,
                                             0xBFE0'0000'0000'0000u, spec::point(7, -32768), 0, 0xFFFF, 0x00))
                            .add(spec::trade(1, -2, {0x58, 0x00, 0x00, 0x00}, -1LL, 0x78, 0x3F00'0000u,
                                             0x40F0'6B2C'0000'0000u, spec::point(32767, 0), 2, 3, 0xFF)))
        // An empty vector<RecTrade>: the count alone, no stride.
        .records(0, 40, spec::bytes{})
        // array<RecTick, 2>: no count; the stride 12, then the records.
        .u(12).add(spec::tick(1, 0x4004'0000'0000'0000u)).add(spec::tick(-2, 0x4093'4A00'0000'0000u))
        // array<RecPoint, 0>: nothing at all.
        // forward_list<RecPoint>: count 2, stride 4.
        .records(2, 4, spec::bytes{}.add(spec::point(1, -1)).add(spec::point(2, -2)))
        // vector<RecNone>(3): count 3, stride 0, no bytes.
        .records(3, 0, spec::bytes{})
        .out;
  }
};

/// A struct holding records: its envelope and fields as always; the record fields are blocks.
struct record_book {
  static constexpr const char* name = "record_book";
  using type = RecBook;
  static type value() {
    return {"book",
            {{7, 0.125}, {-1, 1000.0}},
            {8, -7.75},
            {{0, 0}, {1, 1}, {-1, -1}},
            {{5, -5}},
            {{{10, 20}, {30, 40}}},
            {{1, 2}, {3, 4}, {5, 6}},
            -5};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .env(spec::bytes{}
                 .str("book")
                 .records(2, 12, spec::bytes{}.add(spec::tick(7, 0x3FC0'0000'0000'0000u))
                                     .add(spec::tick(-1, 0x408F'4000'0000'0000u)))
                 .record(spec::tick(8, 0xC01F'0000'0000'0000u))  // a record alone: 18, then 12 bytes
                 .records(3, 4, spec::bytes{}.add(spec::point(0, 0)).add(spec::point(1, 1)).add(spec::point(-1, -1)))
                 .records(1, 4, spec::point(5, -5))
                 .u(4).add(spec::point(10, 20)).add(spec::point(30, 40))  // array<RecPoint, 2>
                 .u(4).add(spec::point(1, 2)).add(spec::point(3, 4)).add(spec::point(5, 6))  // RecPoint[3]
                 .s(-5))
        .out;
  }
};

/// Every pointer form: null and unique; one object shared twice; a weak_ptr to a shared
/// object and an expired one; a cycle through weak_ptr (a doubly linked list); non-owning
/// pointers to by-value objects with identity and to a unique_ptr's object; owning raw pointers
/// with parent pointers. Ids: unique 1, shared 2, owner 3, list nodes 4 5 6, nodes 7 8 9, tree
/// root 10, its children 11 and 12; a reference to id k is tag k + 2.
struct pointers {
  static constexpr const char* name = "pointers";
  using type = PointerSet;
  static type value() {
    PointerSet v{};
    v.unique = std::make_unique<std::int32_t>(-3);
    const auto seven = std::make_shared<std::int32_t>(7);
    v.shared_twice = {seven, seven};
    v.owner = std::make_shared<std::string>("ab");
    v.watcher = v.owner;
    v.expired = std::make_shared<std::int32_t>(1);  // expires at once: no owner left
    v.cycle = std::make_shared<PLink>(PLink{10, nullptr, {}});
    v.cycle->next = std::make_shared<PLink>(PLink{20, nullptr, v.cycle});
    v.cycle->next->next = std::make_shared<PLink>(PLink{30, nullptr, v.cycle->next});
    v.nodes = {{1, nullptr}, {2, nullptr}, {3, nullptr}};
    v.nodes[1].next = &v.nodes[0];
    v.nodes[2].next = &v.nodes[1];
    v.current = &v.nodes[2];
    v.to_unique = v.unique.get();
    v.tree = PTree(1, new PTree(2, nullptr, nullptr), new PTree(3, nullptr, nullptr));
    return v;
  }
  static std::vector<std::byte> spec() {
    const auto link = [](std::int64_t value, const spec::bytes& next, unsigned prev) {
      return spec::bytes{}.env(spec::bytes{}.s(value).add(next).u(prev));
    };
    const spec::bytes list = spec::bytes{}.u(1).add(link(
        10, spec::bytes{}.u(1).add(link(20, spec::bytes{}.u(1).add(link(30, spec::bytes{}.u(0), 7)), 6)), 0));
    const auto node = [](std::int64_t value, unsigned next) { return spec::bytes{}.env(spec::bytes{}.s(value).u(next)); };
    const auto leaf = [](std::int64_t value) {
      return spec::bytes{}.env(spec::bytes{}.s(value).u(0).u(0).u(12));  // parent: the root, id 10
    };
    return spec::bytes{}
        .env(spec::bytes{}
                 .u(0)                        // null_unique
                 .u(1).s(-3)                  // unique: id 1
                 .u(2).u(1).s(7).u(4)         // shared_twice: id 2, then a reference to it
                 .u(1).str("ab")              // owner: id 3
                 .u(5)                        // watcher: a reference to id 3
                 .u(0)                        // expired
                 .add(list)                   // cycle: ids 4, 5, 6; prev of 5 is 4 (tag 6), of 6 is 5 (tag 7)
                 .u(3).add(node(1, 0)).add(node(2, 9)).add(node(3, 10))  // nodes: ids 7, 8, 9
                 .u(11)                       // current: id 9
                 .u(3)                        // to_unique: id 1
                 .env(spec::bytes{}.s(1).u(1).add(leaf(2)).u(1).add(leaf(3)).u(0)))  // tree: ids 10, 11, 12
        .out;
  }
};

/// Every polymorphic form (tag 2): the first object of a type lists its name, later ones give its
/// index (names: 1 Circle, 2 Square, 3 Group, 4 Label, 5 Join); a plain base object takes tag 1;
/// a group's header counts the two objects inside it; a pointer to a second base (PNamed) and
/// two shared_ptrs to both bases of one label; a diamond with its virtual base written once;
/// two shared_ptrs to both sides of one diamond; a raw pointer to the square. Ids: shapes 1-5
/// (the group's children 6 and 7), named 8, the shared label 9, diamond 10, the shared join 11.
struct polymorphic {
  static constexpr const char* name = "polymorphic";
  using type = PolySet;
  using registered = std::tuple<PCircle, PSquare, PGroup, PLabel, PJoin>;  // what its pointers hold
  static type value() {
    PolySet v{};
    v.shapes.push_back(std::make_unique<PCircle>(1, 5));
    v.shapes.push_back(std::make_unique<PSquare>(2, 3));
    v.shapes.push_back(std::make_unique<PCircle>(3, 7));
    v.shapes.push_back(std::make_unique<PShape>(4));
    auto group = std::make_unique<PGroup>();
    group->id = 5;
    group->children.push_back(std::make_unique<PCircle>(6, 1));
    group->children.push_back(std::make_unique<PSquare>(7, 2));
    v.shapes.push_back(std::move(group));
    v.shapes.push_back(nullptr);
    v.named = std::make_unique<PLabel>(8, "lbl", 9);
    const auto label = std::make_shared<PLabel>(9, "pair", 1);
    v.label_as_shape = label;
    v.label_as_named = label;
    v.watcher = label;
    v.diamond = std::make_unique<PJoin>(1, 2, 3, 4);
    const auto join = std::make_shared<PJoin>(10, 20, 30, 40);
    v.join_left = join;
    v.join_right = join;
    v.observer = v.shapes[1].get();
    return v;
  }
  static std::vector<std::byte> spec() {
    using b = spec::bytes;
    const auto shape = [](std::int64_t id) { return b{}.env(b{}.s(id)); };
    const auto circle = [&](std::int64_t id, std::int64_t r) { return b{}.env(b{}.add(shape(id)).s(r)); };
    const auto square = [&](std::int64_t id, std::int64_t side) { return b{}.env(b{}.add(shape(id)).s(side)); };
    const auto label = [&](std::int64_t id, std::string_view name, std::int64_t size) {
      return b{}.env(b{}.add(shape(id)).env(b{}.str(name)).s(size));
    };
    // PJoin: PLeft (with PRoot, the first to name it), PRight (PRoot again: nothing), join.
    const auto join = [](std::int64_t root, std::int64_t left, std::int64_t right, std::int64_t j) {
      return b{}.env(b{}.env(b{}.env(b{}.s(root)).s(left)).env(b{}.s(right)).s(j));
    };
    return b{}
        .env(b{}
                 .u(6)                                                                       // shapes
                 .u(2).u(0).u(1).str("golden.Circle").u(1).u(0).add(circle(1, 5))            // id 1: name, index 1
                 .u(2).u(0).u(1).str("golden.Square").u(2).u(0).add(square(2, 3))            // id 2
                 .u(2).u(1).u(0).add(circle(3, 7))                                           // id 3: index 1
                 .u(1).add(shape(4))                                                         // id 4: tag 1
                 .u(2).u(0).u(1).str("golden.Group").u(3).u(2)                               // id 5: 2 objects inside
                 .env(b{}.add(shape(5)).u(2)
                          .u(2).u(1).u(0).add(circle(6, 1))                                  // id 6
                          .u(2).u(2).u(0).add(square(7, 2)))                                 // id 7
                 .u(0)                                                                       // null
                 .u(2).u(0).u(1).str("golden.Label").u(4).u(0).add(label(8, "lbl", 9))       // named: id 8
                 .u(2).u(4).u(0).add(label(9, "pair", 1))                                    // label_as_shape: id 9
                 .u(11)                                                                      // label_as_named: id 9
                 .u(11)                                                                      // watcher: id 9
                 .u(2).u(0).u(1).str("golden.Join").u(5).u(0).add(join(1, 2, 3, 4))          // diamond: id 10
                 .u(2).u(5).u(0).add(join(10, 20, 30, 40))                                   // join_left: id 11
                 .u(13)                                                                      // join_right: id 11
                 .u(4))                                                                      // observer: id 2
        .out;
  }
};

/// What a newer writer that knows golden.Triangle writes (PolyNewer): the triangle's header lists
/// its own name and golden.Circle, the type of the circle inside it, and counts that one object,
/// so that a reader that does not know golden.Triangle can skip it and stay in step (the circle
/// takes index 2 and id 2 all the same). Ids: triangle 1, its circle 2, the square 3.
struct polymorphic_unknown {
  static constexpr const char* name = "polymorphic_unknown";
  using type = PolyNewer;
  using registered = std::tuple<PTriangle, PCircle, PSquare>;  // the newer writer's classes
  static type value() {
    PolyNewer v{};
    auto triangle = std::make_shared<PTriangle>();
    triangle->id = 1;
    triangle->corner = std::make_shared<PCircle>(2, 4);
    const auto square = std::make_shared<PSquare>(3, 5);
    v.shapes = {triangle, triangle, triangle->corner, square, square};
    return v;
  }
  static std::vector<std::byte> spec() {
    using b = spec::bytes;
    return b{}
        .env(b{}
                 .u(5)
                 .u(2).u(0).u(2).str("golden.Triangle").str("golden.Circle").u(1).u(1)  // id 1, names 1 and 2, 1 object inside
                 .env(b{}.env(b{}.s(1))
                          .u(2).u(2).u(0).env(b{}.env(b{}.s(2)).s(4)))               // the corner: id 2, index 2
                 .u(3)                                                                // the triangle again: id 1
                 .u(4)                                                                // the circle: id 2
                 .u(2).u(0).u(1).str("golden.Square").u(3).u(0).env(b{}.env(b{}.s(3)).s(5))  // id 3, name 3
                 .u(5))                                                               // the square again: id 3
        .out;
  }
};

/// Sets and maps whose keys hold char, with code units above 0x7f: the canonical order compares
/// them as unsigned (docs/format.md, section 12), whatever char's signedness on the writer.
/// Before this case existed, x86 writers put 0x80-0xff first; readers accept either order.
struct char_order {
  static constexpr const char* name = "char_order";
  using type = std::tuple<std::set<char>, std::multiset<char>, std::map<char, std::string>,
                          std::set<char, std::greater<>>, std::set<std::pair<char, std::int32_t>>,
                          std::set<std::tuple<std::int32_t, char>>, std::set<std::array<char, 2>>,
                          std::set<std::vector<char>>>;
  static constexpr char c(unsigned code_unit) { return static_cast<char>(code_unit); }
  static type value() {
    return {{c(0xff), 'a', c(0x80), '\0', c(0x7f)},
            {c(0xe9), 'e', c(0xe9)},
            {{c(0xc3), "high"}, {'C', "low"}},
            {c(0x80), 'a'},
            {{c(0x80), 1}, {'a', 2}, {'a', -1}},
            {{1, c(0x80)}, {1, 'a'}, {0, c(0xff)}},
            {{{'a', c(0x80)}}, {{'a', 'b'}}, {{c(0x81), 'a'}}},
            {{c(0x80)}, {'a', 'b'}, {'a'}}};
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .u(5).raw({0x00, 0x61, 0x7f, 0x80, 0xff})                        // set<char>: raw bytes, unsigned order
        .u(3).raw({0x65, 0xe9, 0xe9})                                    // multiset<char>
        .u(2).raw({0x43}).str("low").raw({0xc3}).str("high")             // map<char, string>
        .u(2).raw({0x80, 0x61})                                          // set<char, greater<>>: descending
        .u(3).raw({0x61}).s(-1).raw({0x61}).s(2).raw({0x80}).s(1)        // set<pair<char, int32_t>>
        .u(3).s(0).raw({0xff}).s(1).raw({0x61}).s(1).raw({0x80})         // set<tuple<int32_t, char>>
        .u(3).raw({0x61, 0x62}).raw({0x61, 0x80}).raw({0x81, 0x61})      // set<array<char, 2>>: no count
        .u(3).str("a").str("ab").raw({0x01, 0x80})                       // set<vector<char>>: by element, then length
        .out;
  }
};

/// Minimal types, a UTF-8 path, a valarray, const pointees and classes made by their hooks
/// (docs/format.md, section 29): the bytes of the values they stand for.
struct minimal {
  static constexpr const char* name = "minimal";
  using type = MinimalSet;
  static type value() {
    MinimalSet v;
    v.label = {"golden"};
    v.users = {GUserId(1), GUserId(300), GUserId(std::uint64_t{1} << 63)};
    v.path = std::filesystem::path(u8"dir/caf\u00e9.txt");
    v.samples = {1, -2, 32767};
    v.note = std::make_unique<const std::string>("n");
    v.limit.emplace(-5);
    v.made = {GMade(7, "x")};
    v.maybe.emplace(-1, "");
    return v;
  }
  static std::vector<std::byte> spec() {
    return spec::bytes{}
        .env(spec::bytes{}
                 .str("golden")                                   // label: its string
                 .u(3).u(1).u(300).u(std::uint64_t{1} << 63)     // users: count, three varints
                 .str("dir/caf\xc3\xa9.txt")                       // path: UTF-8 (é = c3 a9)
                 .u(3).le(1, 2).le(0xfffe, 2).le(0x7fff, 2)       // samples: as vector<int16_t>
                 .u(1).str("n")                                   // note: a new object
                 .u(1).s(-5)                                      // limit: engaged
                 .u(1).env(spec::bytes{}.s(7).str("x"))           // made: one struct
                 .u(1).env(spec::bytes{}.s(-1).str("")))          // maybe: engaged
        .out;
  }
};

/// The list of cases, handed to a variadic template: golden::case_list<::testing::Types>.
template <template <class...> class List>
using case_list = List<integers, scalars, fixed_wrappers, floats, vector_double, strings, vector_int32, vector_long,
                       blocks, vector_bool, account, versioned, deprecated_fields, base_class, optional_variant,
                       tuple_pair, maps_sets, array_bitset, complex_chrono, unique_ptrs, body_64, body_8192, sequences,
                       empties, stream, records, record_book, pointers, char_order, minimal, polymorphic,
                       polymorphic_unknown>;

/// The cases that a schema (docs/schema.md) describes: all but `minimal`, whose types without a
/// default constructor (minimal types, load_and_construct) it does not cover yet: schema<T>()
/// refuses them at compile time.
template <template <class...> class List>
using schema_case_list =
    List<integers, scalars, fixed_wrappers, floats, vector_double, strings, vector_int32, vector_long, blocks,
         vector_bool, account, versioned, deprecated_fields, base_class, optional_variant, tuple_pair, maps_sets,
         array_bitset, complex_chrono, unique_ptrs, body_64, body_8192, sequences, empties, stream, records,
         record_book, pointers, char_order, polymorphic, polymorphic_unknown>;

/// The registered classes a case's schema describes besides its type (a std::tuple):
/// schema<typename Case::type, Registered...>() (docs/schema.md, section 6).
template <class Case>
struct registered_of {
  using type = std::tuple<>;
};
template <class Case>
  requires requires { typename Case::registered; }
struct registered_of<Case> {
  using type = typename Case::registered;
};

// ---- typed files (docs/format.md section 30): tests/golden/framed/<name>.bin --------------------
// The same values as some cases above, behind the frame: magic, format 1, the type's name.

namespace spec {
inline bytes frame(std::string_view type_name) {
  bytes b;
  b.raw({0x89, 0x62, 0x66, 0x72}).u(1).str(type_name);
  return b;
}
inline bytes framed(std::string_view type_name, const std::vector<std::byte>& value) {
  bytes b = frame(type_name);
  b.out.insert(b.out.end(), value.begin(), value.end());
  return b;
}
}  // namespace spec

/// A struct: its schema name.
struct framed_account {
  static constexpr const char* name = "account";
  using type = Account;
  static type value() { return account::value(); }
  static std::vector<std::byte> spec() { return spec::framed("golden::Account", account::spec()).out; }
};

/// A standard container: the type's spelling.
struct framed_vector {
  static constexpr const char* name = "vector_int32";
  using type = std::vector<std::int32_t>;
  static type value() { return {1, -2}; }
  static std::vector<std::byte> spec() {
    return spec::framed("sequence<i32>", spec::bytes{}.u(2).le(1, 4).le(0xFFFF'FFFEu, 4).out).out;
  }
};

/// A spelling with named types inside.
struct framed_map {
  static constexpr const char* name = "map_points";
  using type = std::map<std::string, RecPoint>;
  static type value() { return {{"a", {1, -2}}}; }
  static std::vector<std::byte> spec() {
    return spec::framed("map<string<char>, golden::RecPoint>",
                        spec::bytes{}.u(1).str("a").record(spec::point(1, -2)).out).out;
  }
};

template <template <class...> class List>
using framed_case_list = List<framed_account, framed_vector, framed_map>;

template <class Case>
inline constexpr bool is_streamed = requires { requires Case::streamed; };

// =============================================================================================
// Helpers shared by the tests and the generator
// =============================================================================================

/// What this host's writer produces for a case (with bifrons::writer for streamed cases).
template <class Case>
std::vector<std::byte> encode(const typename Case::type& value) {
  std::vector<std::byte> out;
  if constexpr (is_streamed<Case>) {
    bifrons::writer w(out);
    std::apply([&](const auto&... v) { w(v...); }, value);
  } else {
    bifrons::to_bytes(value, out);
  }
  return out;
}

template <class T>
struct is_unique_ptr : std::false_type {};
template <class T>
struct is_unique_ptr<std::unique_ptr<T>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_variant : std::false_type {};
template <class... T>
struct is_variant<std::variant<T...>> : std::true_type {};
template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};

template <class T>
concept tuple_like = requires { std::tuple_size<T>::value; };

/// Deep equality: floating point compares bit patterns (NaN payloads, -0.0), pointers compare
/// what they point to, containers compare element by element; anything else uses ==.
template <class T>
bool same(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) == 4)
      return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
    else
      return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
  } else if constexpr (is_unique_ptr<T>::value) {
    return a && b ? same(*a, *b) : !a && !b;
  } else if constexpr (is_optional<T>::value) {
    return a && b ? same(*a, *b) : !a && !b;
  } else if constexpr (is_variant<T>::value) {
    if (a.index() != b.index()) return false;
    if (a.valueless_by_exception()) return true;
    return std::visit(
        [&](const auto& x) { return same(x, std::get<std::remove_cvref_t<decltype(x)>>(b)); }, a);
  } else if constexpr (is_complex<T>::value) {
    return same(a.real(), b.real()) && same(a.imag(), b.imag());
  } else if constexpr (std::ranges::range<T> && !std::is_same_v<T, std::string>) {
    auto ia = std::ranges::begin(a);
    auto ib = std::ranges::begin(b);
    for (; ia != std::ranges::end(a) && ib != std::ranges::end(b); ++ia, ++ib) {
      using E = std::remove_cvref_t<std::ranges::range_value_t<T>>;
      if (!same<E>(*ia, *ib)) return false;
    }
    return ia == std::ranges::end(a) && ib == std::ranges::end(b);
  } else if constexpr (tuple_like<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (same<std::remove_cvref_t<std::tuple_element_t<I, T>>>(std::get<I>(a), std::get<I>(b)) && ...);
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    return a == b;
  }
}

}  // namespace golden
// clang-format on
