// Fuzz harness: try_from_bytes of every pointer kind of docs/format.md section 23: unique_ptr,
// shared_ptr (also of const), weak_ptr, raw non-owning pointers, owning raw pointers
// (bifrons::owning), reference_wrapper and by-value objects with enable_identity; and the golden
// value pointers.bin. Properties: fuzz_support.hpp, and for each case its own (`check`): objects
// shared in a value read are still shared, in the same pattern, once its encoding is read back;
// non-owning pointers point into the value itself. LeakSanitizer (on in every libFuzzer run) fails
// an input whose read, failed or not, leaks an object.
//
// Polymorphic pointers (tag 2, registered type names): the golden hierarchies of
// polymorphic.bin and polymorphic_unknown.bin (every pointer kind to a base, multiple and virtual
// inheritance), with the properties above plus "the dynamic types survive the round trip"; and
// registered classes that only their load_and_construct makes, in every owning position, with
// children that point back at them while they are made.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"

namespace {

// ---- shared_ptr and weak_ptr -----------------------------------------------------------------------

/// A doubly linked node: shared forward, weak back (a cycle through a weak link is fine).
struct SNode {
  std::int32_t value = 0;
  std::shared_ptr<SNode> next;
  std::weak_ptr<SNode> back;
};

/// Several owners of the same objects, weak observers and a const pointee.
struct Shared {
  std::vector<std::shared_ptr<SNode>> heads;
  std::vector<std::weak_ptr<SNode>> watchers;
  std::shared_ptr<const std::string> text;
  std::vector<std::shared_ptr<const std::string>> texts;
};

/// The nodes reachable from a value, each once, in the order the writer meets them.
std::vector<const SNode*> nodes_of(const Shared& v) {
  std::vector<const SNode*> out;
  const auto visit = [&](const SNode* n) {
    for (; n != nullptr; n = n->next.get()) {
      for (const SNode* seen : out)
        if (seen == n) return;
      out.push_back(n);
    }
  };
  for (const auto& h : v.heads) visit(h.get());
  for (const auto& w : v.watchers) visit(w.lock().get());
  return out;
}

/// Which object each pointer of v holds, as an index into nodes_of(v) (-1: null or expired), and
/// which of the texts are the same object: the sharing pattern, comparable across values.
std::vector<std::ptrdiff_t> sharing_of(const Shared& v) {
  const std::vector<const SNode*> nodes = nodes_of(v);
  const auto index = [&](const SNode* n) -> std::ptrdiff_t {
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i] == n) return static_cast<std::ptrdiff_t>(i);
    return -1;
  };
  std::vector<std::ptrdiff_t> out;
  for (const auto& h : v.heads) out.push_back(index(h.get()));
  for (const auto& w : v.watchers) out.push_back(index(w.lock().get()));
  for (const SNode* n : nodes) {
    out.push_back(index(n->next.get()));
    out.push_back(index(n->back.lock().get()));
  }
  for (const auto& t : v.texts) {
    std::ptrdiff_t same = -1;
    if (t == v.text && t) same = 0;
    for (std::size_t i = 0; i < v.texts.size() && same < 0; ++i)
      if (v.texts[i] == t && t) same = static_cast<std::ptrdiff_t>(i + 1);
    out.push_back(same);
  }
  return out;
}

Shared shared_sample() {
  Shared s;
  auto a = std::make_shared<SNode>(SNode{1, nullptr, {}});
  auto b = std::make_shared<SNode>(SNode{2, nullptr, a});
  auto c = std::make_shared<SNode>(SNode{3, nullptr, b});
  a->next = b;
  b->next = c;
  s.heads = {a, c, a, nullptr};  // a twice; c also reachable from a
  s.watchers = {b, std::weak_ptr<SNode>(), c};
  s.text = std::make_shared<const std::string>("shared");
  s.texts = {s.text, std::make_shared<const std::string>("own"), s.text};
  return s;
}

struct shared {
  static constexpr const char* name = "shared";
  static constexpr bool copy_by_bytes = true;
  using type = Shared;
  static std::vector<type> samples() { return {shared_sample(), Shared{}}; }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(sharing_of(read) == sharing_of(again), "shared objects: another sharing pattern after a round trip");
  }
};

// ---- unique_ptr ----------------------------------------------------------------------------------

struct UNode {
  std::int32_t value = 0;
  std::vector<std::unique_ptr<UNode>> children;
  std::optional<std::unique_ptr<std::string>> label;
};

std::unique_ptr<UNode> unique_sample() {
  auto root = std::make_unique<UNode>();
  root->value = 1;
  root->children.push_back(std::make_unique<UNode>());
  root->children.push_back(nullptr);
  root->children[0]->value = -2;
  root->children[0]->label = std::make_unique<std::string>("leaf");
  return root;
}

struct unique {
  static constexpr const char* name = "unique";
  static constexpr bool copy_by_bytes = true;
  using type = std::pair<std::unique_ptr<UNode>, std::unique_ptr<std::unique_ptr<std::int32_t>>>;
  static std::vector<type> samples() {
    std::vector<type> out;
    out.emplace_back(unique_sample(),
                     std::make_unique<std::unique_ptr<std::int32_t>>(std::make_unique<std::int32_t>(7)));
    out.emplace_back();
    return out;
  }
};

// ---- raw pointers, owning raw pointers, reference_wrapper, enable_identity -----------------------

/// Held by value (enable_identity below): raw pointers may point at it.
struct Slot {
  std::int32_t value = 0;
  const Slot* prior = nullptr;  // a slot written before this one, or null
};

/// Non-owning pointers into objects held by value, by a unique_ptr, by a shared_ptr and by an
/// owning raw pointer.
struct Observers {
  std::vector<Slot> slots;
  std::unique_ptr<std::int32_t> unique;
  std::shared_ptr<std::int32_t> shared;
  std::int32_t* owned = nullptr;  // owned: deleted by the destructor
  const Slot* current = nullptr;
  const std::int32_t* to_unique = nullptr;
  std::int32_t* to_shared = nullptr;
  const std::int32_t* to_owned = nullptr;

  Observers() = default;
  Observers(const Observers&) = delete;
  Observers& operator=(const Observers&) = delete;
  Observers(Observers&& o) noexcept { *this = std::move(o); }
  Observers& operator=(Observers&& o) noexcept {
    if (this != &o) {
      delete owned;
      // The slots' storage moves with the vector: pointers into it stay valid.
      slots = std::move(o.slots);
      unique = std::move(o.unique);
      shared = std::move(o.shared);
      owned = std::exchange(o.owned, nullptr);
      current = o.current;
      to_unique = o.to_unique;
      to_shared = o.to_shared;
      to_owned = o.to_owned;
    }
    return *this;
  }
  ~Observers() { delete owned; }

  template <class Ar>
  void serialize(Ar& ar) {
    ar(slots, unique, shared, bifrons::owning(owned), current, to_unique, to_shared, to_owned);
  }

  /// Every non-owning pointer points into this value (or is null).
  [[nodiscard]] bool points_into_itself() const {
    const auto in_slots = [&](const Slot* p) {
      if (p == nullptr) return true;
      for (const Slot& s : slots)
        if (&s == p) return true;
      return false;
    };
    if (!in_slots(current)) return false;
    for (const Slot& s : slots)
      if (!in_slots(s.prior)) return false;
    const auto ours = [&](const std::int32_t* p) {
      if (p == nullptr || p == unique.get() || p == shared.get() || p == owned) return true;
      for (const Slot& s : slots)
        if (p == &s.value) return true;
      return false;
    };
    return ours(to_unique) && ours(to_shared) && ours(to_owned);
  }
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_identity<Slot> = true;

namespace {

Observers observers_sample() {
  Observers o;
  o.slots.resize(3);
  for (std::size_t i = 0; i < 3; ++i) o.slots[i].value = static_cast<std::int32_t>(10 * i);
  o.slots[1].prior = &o.slots[0];
  o.slots[2].prior = &o.slots[0];
  o.unique = std::make_unique<std::int32_t>(-1);
  o.shared = std::make_shared<std::int32_t>(5);
  o.owned = new std::int32_t(9);
  o.current = &o.slots[2];
  o.to_unique = o.unique.get();
  o.to_shared = o.shared.get();
  o.to_owned = o.owned;
  return o;
}

struct observers {
  static constexpr const char* name = "observers";
  static constexpr bool copy_by_bytes = true;
  using type = Observers;
  static std::vector<type> samples() {
    std::vector<type> out;
    out.push_back(observers_sample());
    out.emplace_back();
    out.back().slots.resize(1);
    out.back().current = &out.back().slots[0];
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(read.points_into_itself() && again.points_into_itself(),
              "non-owning pointers: a pointer read points outside the value");
  }
};

// ---- reference_wrapper ----------------------------------------------------------------------------

/// Held by value (enable_identity below): the only objects a reference_wrapper<const Anchor> names.
struct Anchor {
  std::int32_t value = 0;
};

/// A reference_wrapper, never null: by default it refers to the anchor member (written before it),
/// so that a value whose data lacks the reference (a short envelope) can still be written. It needs
/// a hook: reflection cannot count the members of an aggregate holding one.
struct Refs {
  Anchor anchor;
  std::vector<Anchor> more;
  std::reference_wrapper<const Anchor> chosen{anchor};

  Refs() = default;
  Refs(const Refs& o) : anchor(o.anchor), more(o.more), chosen(rebound(o)) {}
  Refs& operator=(const Refs& o) {
    anchor = o.anchor;
    more = o.more;
    chosen = rebound(o);
    return *this;
  }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(anchor, more, chosen);
  }
  /// chosen, for a copy of o: its own anchor or the same element of its own `more`.
  [[nodiscard]] const Anchor& rebound(const Refs& o) const {
    for (std::size_t i = 0; i < o.more.size(); ++i)
      if (&o.chosen.get() == &o.more[i]) return more[i];
    return anchor;
  }
  [[nodiscard]] bool refers_into_itself() const {
    if (&chosen.get() == &anchor) return true;
    for (const Anchor& a : more)
      if (&chosen.get() == &a) return true;
    return false;
  }
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_identity<Anchor> = true;

namespace {

struct refs {
  static constexpr const char* name = "refs";
  using type = Refs;
  static std::vector<type> samples() {
    std::vector<type> out(2);
    out[0].anchor.value = 3;
    out[0].more = {Anchor{4}, Anchor{5}};
    out[0].chosen = std::cref(out[0].more[1]);
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(read.refers_into_itself() && again.refers_into_itself(),
              "reference_wrapper: a reference read points outside the value");
  }
};

// ---- the golden value and owning trees ---------------------------------------------------------------

struct golden_pointers {
  static constexpr const char* name = golden::pointers::name;
  static constexpr bool copy_by_bytes = true;
  using type = golden::pointers::type;
  static constexpr std::array golden{golden::pointers::name};
  static std::vector<type> samples() {
    std::vector<type> out;
    out.push_back(golden::pointers::value());
    out.emplace_back();
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    // Every pointer of the golden shape keeps its target after a round trip.
    ctx.check(read.shape_ok() == again.shape_ok(), "golden pointers: the shape changed after a round trip");
  }
};

/// Owning raw pointers with parent pointers (golden::PTree), alone and in a vector.
struct owning_trees {
  static constexpr const char* name = "owning_trees";
  static constexpr bool copy_by_bytes = true;
  using type = std::vector<golden::PTree>;
  static std::vector<type> samples() {
    std::vector<type> out(2);
    out[0].emplace_back(1, new golden::PTree(2, new golden::PTree(4, nullptr, nullptr), nullptr),
                        new golden::PTree(3, nullptr, nullptr));
    out[0].emplace_back();
    return out;
  }
};

// ---- polymorphic objects --------------------------------------------------------------------------

/// The dynamic types of the objects a list of pointers holds, in order (null: nullptr).
template <class Pointers>
std::vector<const std::type_info*> dynamic_types(const Pointers& pointers) {
  std::vector<const std::type_info*> out;
  for (const auto& p : pointers) out.push_back(p ? &typeid(*p) : nullptr);
  return out;
}

/// unique_ptr, shared_ptr, weak_ptr and raw pointers to bases of registered classes.
struct golden_polymorphic {
  static constexpr const char* name = golden::polymorphic::name;
  static constexpr bool copy_by_bytes = true;
  using type = golden::polymorphic::type;
  static constexpr std::array golden{golden::polymorphic::name};
  static std::vector<type> samples() {
    std::vector<type> out;
    out.push_back(golden::polymorphic::value());
    out.emplace_back();
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(dynamic_types(read.shapes) == dynamic_types(again.shapes),
              "polymorphic: another dynamic type after a round trip");
    // Two shared_ptrs to different bases of one object: one object, or not, on both sides.
    const auto one_label = [](const type& v) {
      return v.label_as_shape && v.label_as_named &&
             dynamic_cast<const void*>(v.label_as_shape.get()) == dynamic_cast<const void*>(v.label_as_named.get());
    };
    ctx.check(one_label(read) == one_label(again), "polymorphic: the label's two bases are no longer one object");
  }
};

/// Shared objects of several registered types, one inside another (polymorphic_unknown.bin).
struct shared_polymorphic {
  static constexpr const char* name = golden::polymorphic_unknown::name;
  static constexpr bool copy_by_bytes = true;
  using type = golden::polymorphic_unknown::type;
  static constexpr std::array golden{golden::polymorphic_unknown::name};
  static std::vector<type> samples() {
    std::vector<type> out;
    out.push_back(golden::polymorphic_unknown::value());
    out.emplace_back();
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(dynamic_types(read.shapes) == dynamic_types(again.shapes),
              "shared polymorphic: another dynamic type after a round trip");
    const auto sharing = [](const type& v) {
      std::vector<std::size_t> first_seen;
      for (std::size_t i = 0; i < v.shapes.size(); ++i) {
        std::size_t j = 0;
        while (j < i && v.shapes[j] != v.shapes[i]) ++j;
        first_seen.push_back(j);
      }
      return first_seen;
    };
    ctx.check(sharing(read) == sharing(again), "shared polymorphic: another sharing pattern after a round trip");
  }
};

// ---- polymorphic objects that only load_and_construct makes ---------------------------------------

struct FShape {
  std::int32_t id = 0;
  virtual ~FShape() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
struct FRoot {
  std::int32_t root = 0;
  virtual ~FRoot() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(root);
  }
};
/// A child that may point back at the object being made around it.
struct FKid final : FShape {
  FShape* parent = nullptr;
  FRoot* root_parent = nullptr;  // through a virtual base: refused while the object is made
  std::weak_ptr<FShape> up;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<FShape>(*this), parent, root_parent, up);
  }
};
/// No default constructor, not assignable: made only by its hook, which throws on id 666.
class FBuilt final : public FShape, public virtual FRoot {
 public:
  FBuilt(std::int32_t i, std::int32_t r, std::vector<std::unique_ptr<FShape>> k, std::shared_ptr<FShape> s)
      : kids(std::move(k)), shared(std::move(s)) {
    id = i;
    root = r;
  }
  FBuilt(const FBuilt&) = delete;
  FBuilt& operator=(const FBuilt&) = delete;
  std::vector<std::unique_ptr<FShape>> kids;
  std::shared_ptr<FShape> shared;
  template <class Ar>
  void save(Ar& ar) const {
    ar(id, root, kids, shared);
  }
  template <class Ar>
  static FBuilt load_and_construct(Ar& ar) {
    std::int32_t i = 0, r = 0;
    std::vector<std::unique_ptr<FShape>> k;
    std::shared_ptr<FShape> s;
    ar(i, r, k, s);
    if (i == 666) throw fuzz::user_exception();
    return FBuilt(i, r, std::move(k), std::move(s));
  }
};

/// Every owning pointer kind holding such objects, and observers of them.
struct Built {
  std::vector<std::unique_ptr<FShape>> unique;
  std::vector<std::shared_ptr<FShape>> shared;
  std::vector<std::weak_ptr<FShape>> weak;
  std::unique_ptr<FRoot> by_root;
  FShape* owned = nullptr;
  Built() = default;
  Built(const Built&) = delete;
  Built& operator=(const Built&) = delete;
  Built(Built&& o) noexcept
      : unique(std::move(o.unique)),
        shared(std::move(o.shared)),
        weak(std::move(o.weak)),
        by_root(std::move(o.by_root)),
        owned(std::exchange(o.owned, nullptr)) {}
  Built& operator=(Built&& o) noexcept {
    unique = std::move(o.unique);
    shared = std::move(o.shared);
    weak = std::move(o.weak);
    by_root = std::move(o.by_root);
    std::swap(owned, o.owned);
    return *this;
  }
  ~Built() { delete owned; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(unique, shared, weak, by_root, bifrons::owning(owned));
  }
};

std::unique_ptr<FBuilt> built_with_kid(std::int32_t id) {
  std::vector<std::unique_ptr<FShape>> kids;
  kids.push_back(std::make_unique<FKid>());
  auto made = std::make_unique<FBuilt>(id, id + 1, std::move(kids), nullptr);
  static_cast<FKid&>(*made->kids[0]).parent = made.get();
  return made;
}

struct built_polymorphic {
  static constexpr const char* name = "built_polymorphic";
  static constexpr bool copy_by_bytes = true;
  using type = Built;
  static std::vector<type> samples() {
    std::vector<type> out(2);
    Built& v = out[0];
    v.unique.push_back(built_with_kid(1));
    std::shared_ptr<FBuilt> shared = built_with_kid(2);
    static_cast<FKid&>(*shared->kids[0]).up = shared;
    shared->shared = std::make_shared<FKid>();
    v.shared = {shared, shared, nullptr};
    v.weak = {shared, shared->shared};
    v.by_root = built_with_kid(3);
    v.owned = built_with_kid(4).release();
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(dynamic_types(read.unique) == dynamic_types(again.unique) &&
                  dynamic_types(read.shared) == dynamic_types(again.shared),
              "built polymorphic: another dynamic type after a round trip");
    // Every kid's parent is an object of the value made by its hook: the one that holds it.
    const auto parents_ok = [](const type& v) {
      const auto kids_point_home = [](const FShape* p) {
        const auto* b = dynamic_cast<const FBuilt*>(p);
        if (b == nullptr) return true;
        for (const auto& k : b->kids) {
          const auto* kid = dynamic_cast<const FKid*>(k.get());
          if (kid != nullptr && kid->parent != nullptr && kid->parent != p) return false;
        }
        return true;
      };
      bool ok = kids_point_home(v.owned) && kids_point_home(dynamic_cast<const FShape*>(v.by_root.get()));
      for (const auto& p : v.unique) ok = ok && kids_point_home(p.get());
      for (const auto& p : v.shared) ok = ok && kids_point_home(p.get());
      return ok;
    };
    ctx.check(parents_ok(read) && parents_ok(again),
              "built polymorphic: a kid points at another object than its parent");
  }
};

}  // namespace

BIFRONS_REGISTER(FKid, "fuzz.Kid");
BIFRONS_REGISTER(FBuilt, "fuzz.Built", FShape, FRoot);

BIFRONS_FUZZ_CASES(shared, unique, observers, refs, golden_pointers, owning_trees, golden_polymorphic,
                   shared_polymorphic, built_polymorphic)
