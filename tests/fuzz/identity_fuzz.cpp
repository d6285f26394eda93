// Fuzz harness: the addresses the reader hands out (issue 32, bifrons/detail/objects.hpp), in
// every position where the library moves or destroys what it read: optional<const T>, pairs with
// a load_and_construct element, map keys and the values that point at them, vectors that grow,
// load_and_construct hooks, objects that only weak_ptrs reach, chains of owners built from
// back-references, and cycles through weak links. Properties: fuzz_support.hpp (also reads into
// reused objects, and LeakSanitizer on every input), and an ownership checker: every value read
// is walked, every non-owning pointer in it must point at an object the value holds (found by
// the walk), and every pointer is dereferenced, so that AddressSanitizer stops at one that
// dangles.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "../owning_types.hpp"
#include "fuzz_support.hpp"

namespace {

using bifrons_test::owning_types::Leaf;
using bifrons_test::owning_types::Own;

/// Held by value with identity (enable_identity below): the target of non-owning pointers.
struct Ident {
  std::int32_t id = 0;
  bool operator<(const Ident& o) const { return id < o.id; }
};

/// Made only by load_and_construct, which reads an Ident and a pointer into locals.
struct Made {
  Ident local;
  const Ident* to = nullptr;
  Made(Ident i, const Ident* t) : local(i), to(t) {}
  template <class Archive>
  void save(Archive& ar) const {
    ar(local, to);
  }
  template <class Archive>
  static Made load_and_construct(Archive& ar) {
    Ident i;
    const Ident* t = nullptr;
    ar(i, t);
    return Made(i, t);
  }
};

/// Every position of issue 32's findings 1 and 3 in one value. (The optionals of const are held
/// in vectors so that the class stays move-assignable: a reused object's missing fields are then
/// reset, not left holding pointers into what the vector that held it copied and destroyed.)
struct Positions {
  std::vector<Ident> idents;
  std::vector<std::optional<const Own>> const_owners;
  std::vector<std::pair<Own, Made>> built;
  std::map<Ident, const Ident*> keyed;
  std::vector<std::pair<std::optional<const Ident>, const Ident*>> const_idents;
  std::vector<const Ident*> pointers;
  Own owner;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(idents, const_owners, built, keyed, const_idents, pointers, owner);
  }

  /// Appends every Ident this element holds by value.
  void add_held(std::vector<const Ident*>& out) const {
    for (const Ident& i : idents) out.push_back(&i);
    for (const auto& [o, m] : built) out.push_back(&m.local);
    for (const auto& [k, v] : keyed) out.push_back(&k);
    for (const auto& [c, p] : const_idents)
      if (c) out.push_back(&*c);
  }
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_identity<Ident> = true;

namespace {

/// Every non-owning pointer is null or points at an Ident the value holds (in any of its elements:
/// a pointer may name an Ident another element holds); every pointer is dereferenced
/// (AddressSanitizer: a dangling one stops here).
bool positions_own_their_targets(const std::vector<Positions>& all) {
  std::vector<const Ident*> targets;
  for (const Positions& p : all) p.add_held(targets);
  std::int64_t sum = 0;
  const auto ok = [&](const Ident* q) {
    if (q == nullptr) return true;
    sum += q->id;
    for (const Ident* t : targets)
      if (t == q) return true;
    return false;
  };
  bool ok_all = true;
  for (const Positions& p : all) {
    for (const auto& [c, q] : p.const_idents) ok_all = ok_all && ok(q);
    for (const auto& [o, m] : p.built) {
      ok_all = ok_all && ok(m.to);
      if (o.p) sum += o.p->v;
    }
    for (const auto& [k, v] : p.keyed) ok_all = ok_all && ok(v);
    for (const Ident* q : p.pointers) ok_all = ok_all && ok(q);
    for (const auto& c : p.const_owners)
      if (c && c->p) sum += c->p->v;
    if (p.owner.p) sum += p.owner.p->v;
  }
  return ok_all && sum != INT64_MIN;
}

std::vector<Positions> positions_samples() {
  std::vector<Positions> out(2);
  Positions& p = out[0];
  p.idents = {Ident{1}, Ident{2}};
  p.const_owners.emplace_back().emplace();
  const_cast<Own&>(*p.const_owners[0]).p = new Leaf{5};
  p.built.emplace_back(Own{}, Made(Ident{3}, nullptr));
  p.built[0].first.p = new Leaf{6};
  p.built[0].second.to = &p.idents[0];
  const auto it = p.keyed.emplace(Ident{7}, nullptr).first;
  it->second = &it->first;
  p.keyed.emplace(Ident{8}, &p.idents[1]);
  p.const_idents.resize(2);
  p.const_idents[0].first.emplace(Ident{9});
  p.const_idents[0].second = &*p.const_idents[0].first;
  p.const_idents[1].second = &p.idents[0];
  p.pointers = {&p.idents[1], nullptr, &p.keyed.begin()->first, &*p.const_idents[0].first};
  p.owner.p = new Leaf{10};
  out[1].pointers = {&p.idents[0]};  // an Ident that another element holds
  return out;
}

struct positions {
  static constexpr const char* name = "positions";
  static constexpr bool copy_by_bytes = true;
  // `keyed` read from data out of key order may name a later key (format.md section 12).
  static constexpr bool rewrite_may_be_refused = true;
  // In a vector, so that the objects are on the heap: a value returned by from_bytes<T> may move,
  // and a pointer into its own bytes is refused there (docs/format.md, section 23).
  using type = std::vector<Positions>;
  static std::vector<type> samples() {
    std::vector<type> out(2);
    out[0] = positions_samples();
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(positions_own_their_targets(read), "identity: a pointer outside the value read");
    ctx.check(positions_own_their_targets(again), "identity: a pointer outside the value read back");
  }
};

// ---- objects that only weak_ptrs reach, cycles and chains ------------------------------------------

/// A graph node: a strong link, a weak link, a non-owning pointer, a unique child and a pointer
/// into another node's child.
struct Node {
  std::int32_t value = 0;
  std::shared_ptr<Node> strong;
  std::weak_ptr<Node> weak;
  std::shared_ptr<Node> second;
  Node* raw = nullptr;
  std::unique_ptr<Leaf> child;
  Leaf* to_leaf = nullptr;
};

struct Graph {
  std::vector<std::shared_ptr<Node>> roots;
  std::vector<const Node*> observers;
};

/// Walks what the value owns and dereferences every pointer; false if a non-owning pointer points
/// at a node or leaf that the walk does not reach (it would die with the value, or is elsewhere).
/// The walk starts from the roots of every graph of the value: a node that two graphs share may
/// point at a node only one of them owns, and the value owns it.
bool graphs_own_their_targets(const std::vector<Graph>& graphs) {
  std::vector<const Node*> nodes;
  std::vector<const Leaf*> leaves;
  std::vector<const Node*> stack;
  for (const Graph& g : graphs)
    for (const auto& r : g.roots)
      if (r) stack.push_back(r.get());
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    bool seen = false;
    for (const Node* m : nodes) seen = seen || m == n;
    if (seen) continue;
    nodes.push_back(n);
    if (n->child) leaves.push_back(n->child.get());
    if (n->strong) stack.push_back(n->strong.get());
    if (n->second) stack.push_back(n->second.get());
  }
  std::int64_t sum = 0;
  const auto node_ok = [&](const Node* p) {
    if (p == nullptr) return true;
    sum += p->value;
    for (const Node* n : nodes)
      if (n == p) return true;
    return false;
  };
  bool all = true;
  for (const Node* n : nodes) {
    all = all && node_ok(n->raw);
    if (const auto w = n->weak.lock()) sum += w->value;
    if (n->to_leaf != nullptr) {
      sum += n->to_leaf->v;
      bool found = false;
      for (const Leaf* l : leaves) found = found || l == n->to_leaf;
      all = all && found;
    }
  }
  for (const Graph& g : graphs)
    for (const Node* p : g.observers) all = all && node_ok(p);
  return all && sum != INT64_MIN;
}

std::vector<Graph> graph_samples() {
  std::vector<Graph> out(2);
  Graph& g = out[0];
  auto a = std::make_shared<Node>();
  auto b = std::make_shared<Node>();
  auto c = std::make_shared<Node>();
  a->value = 1;
  b->value = 2;
  c->value = 3;
  a->weak = b;     // b is introduced through a weak link...
  b->strong = a;   // ...and owns a, above it (no cycle: nothing owns b through a)
  c->strong = b;   // then c owns b
  c->child = std::make_unique<Leaf>(Leaf{4});
  a->child = std::make_unique<Leaf>(Leaf{5});
  c->raw = b.get();                // written inside a, owned by c
  c->to_leaf = a->child.get();     // written with a
  g.roots = {a, c};
  g.observers = {b.get(), nullptr, a.get()};
  // A chain built from back-references.
  std::shared_ptr<Node> prev;
  for (int i = 0; i < 6; ++i) {
    auto n = std::make_shared<Node>();
    n->value = 10 + i;
    n->second = prev;
    g.roots.push_back(n);
    prev = n;
  }
  // A node of the second graph points at a node that only the first graph owns.
  auto d = std::make_shared<Node>();
  d->value = 20;
  d->raw = a.get();
  out[1].roots = {d, c};
  return out;
}

struct graphs {
  static constexpr const char* name = "graphs";
  static constexpr bool copy_by_bytes = true;
  using type = std::vector<Graph>;
  static std::vector<type> samples() {
    std::vector<type> out(2);
    out[0] = graph_samples();
    return out;
  }
  static void check(const fuzz::context& ctx, const type& read, const type& again) {
    ctx.check(graphs_own_their_targets(read), "graph: a pointer outside what the value owns");
    ctx.check(graphs_own_their_targets(again), "graph: a pointer outside what the value read back owns");
  }
};

}  // namespace

BIFRONS_FUZZ_CASES(positions, graphs)
