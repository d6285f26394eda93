// The native C++ types of every workload, and their deterministic test values.
//
// Every library is measured on these same types: schema-based libraries
// (protobuf, FlatBuffers, Cap'n Proto, SBE) convert from and to them inside
// the timed region, because their users pay that conversion too and the
// published comparisons counted it.
//
// The types are plain aggregates so that bifrons needs no code for them; the
// other libraries' adapters add their hooks in their own translation units.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace bench::model {

// ---------------------------------------------------------------------------
// Workload 1: Breiter & Nowak (cereal_fwd paper)
// ---------------------------------------------------------------------------
struct IntegerClass {
  std::int32_t a, b, c, d, e, f, g, h, i, j;
  friend bool operator==(const IntegerClass&, const IntegerClass&) = default;
};

// Binary trees, three ways. Every node holds a value; a tree of depth d has
// 2^(d+1) - 1 nodes.
struct UniqueNode {
  std::int32_t value = 0;
  std::unique_ptr<UniqueNode> left, right;
};

struct SharedNode {
  std::int32_t value = 0;
  std::shared_ptr<SharedNode> left, right;
  std::weak_ptr<SharedNode> parent;
};

// Polymorphic: the node at level L is a PolyLevel<L>; every level adds nothing
// but its dynamic type, so a library must record and restore that type.
struct PolyNode {
  std::int32_t value = 0;
  std::unique_ptr<PolyNode> left, right;
  virtual ~PolyNode() = default;
  virtual int level() const = 0;
};
template <int Level>
struct PolyLevel final : PolyNode {
  int level() const override { return Level; }
};
inline constexpr int max_tree_depth = 9;

// ---------------------------------------------------------------------------
// Workload 2: Ulmer (Kelpie RPC messages)
// ---------------------------------------------------------------------------
struct KelpieEntry {
  std::uint64_t id = 0;
  std::string name;  // 8 to 24 characters
  friend bool operator==(const KelpieEntry&, const KelpieEntry&) = default;
};
struct KelpieMessage {
  std::uint32_t op = 0, tag = 0, source = 0, destination = 0;
  std::vector<KelpieEntry> entries;
  friend bool operator==(const KelpieMessage&, const KelpieMessage&) = default;
};

// ---------------------------------------------------------------------------
// Workload 3: meta-serialization blog
// ---------------------------------------------------------------------------
using MetaTuple = std::tuple<int, std::uint64_t, std::vector<std::uint8_t>, std::string>;

// ---------------------------------------------------------------------------
// Workload 4: MusicScience37 survey
// ---------------------------------------------------------------------------
struct SurveyMixed {
  std::int32_t number = 0;
  double real = 0;
  std::vector<char> text;
  friend bool operator==(const SurveyMixed&, const SurveyMixed&) = default;
};

// ---------------------------------------------------------------------------
// Workload 5: chronoxor/CppSerialization (Account / Balance / Orders)
// ---------------------------------------------------------------------------
enum class OrderSide : std::uint8_t { buy, sell };
enum class OrderType : std::uint8_t { market, limit, stop };

struct Order {
  std::int32_t id = 0;
  char symbol[10] = {};
  OrderSide side = OrderSide::buy;
  OrderType type = OrderType::market;
  double price = 0;
  double volume = 0;
  friend bool operator==(const Order& x, const Order& y) {
    return x.id == y.id && std::memcmp(x.symbol, y.symbol, sizeof x.symbol) == 0 &&
           x.side == y.side && x.type == y.type && x.price == y.price && x.volume == y.volume;
  }
};
struct Balance {
  char currency[10] = {};
  double amount = 0;
  friend bool operator==(const Balance& x, const Balance& y) {
    return std::memcmp(x.currency, y.currency, sizeof x.currency) == 0 && x.amount == y.amount;
  }
};
struct Account {
  std::int32_t id = 0;
  std::string name;
  Balance wallet;
  std::vector<Order> orders;
  friend bool operator==(const Account&, const Account&) = default;
};

// ---------------------------------------------------------------------------
// Test values. Every generator is deterministic (fixed seeds), so every
// library sees the very same values and sizes are comparable across runs.
// ---------------------------------------------------------------------------
enum class Distribution { uniform, normal };

inline std::int32_t draw(std::mt19937& rng, Distribution dist) {
  if (dist == Distribution::uniform) {
    return static_cast<std::int32_t>(rng());  // full 32-bit range
  }
  std::normal_distribution<double> normal(0.0, 127.0);
  return static_cast<std::int32_t>(normal(rng));
}

inline IntegerClass make_integer_class(std::mt19937& rng, Distribution dist) {
  IntegerClass v{};
  for (std::int32_t* field : {&v.a, &v.b, &v.c, &v.d, &v.e, &v.f, &v.g, &v.h, &v.i, &v.j}) {
    *field = draw(rng, dist);
  }
  return v;
}

inline IntegerClass make_integer_class(Distribution dist) {
  std::mt19937 rng(dist == Distribution::uniform ? 1u : 2u);
  return make_integer_class(rng, dist);
}

inline std::vector<IntegerClass> make_integer_classes(std::size_t n, Distribution dist, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<IntegerClass> v;
  v.reserve(n);
  for (std::size_t k = 0; k < n; ++k) v.push_back(make_integer_class(rng, dist));
  return v;
}

inline std::vector<IntegerClass> make_integer_classes(std::size_t n, Distribution dist) {
  return make_integer_classes(n, dist, 3u + static_cast<unsigned>(n));
}

// `count` vectors of n, each from its own seed (none of them the seed of the repeated-input
// case of the same n).
inline std::vector<std::vector<IntegerClass>> make_distinct_integer_classes(std::size_t count, std::size_t n,
                                                                            Distribution dist) {
  std::vector<std::vector<IntegerClass>> inputs;
  inputs.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    inputs.push_back(make_integer_classes(n, dist, 100003u + static_cast<unsigned>(k)));
  }
  return inputs;
}

inline std::vector<std::int32_t> make_int32s(std::size_t n) {
  std::mt19937 rng(5u);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = static_cast<std::int32_t>(rng());
  return v;
}

inline std::vector<float> make_floats(std::size_t n) {
  std::mt19937 rng(6u);
  std::uniform_real_distribution<float> d(-1e6f, 1e6f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

inline std::map<std::int32_t, std::int32_t> make_int_map(std::size_t n) {
  std::mt19937 rng(7u);
  std::map<std::int32_t, std::int32_t> m;
  while (m.size() < n) m.emplace(static_cast<std::int32_t>(rng()), static_cast<std::int32_t>(rng()));
  return m;
}

// Values are the node's breadth-first index, so equality checks the shape too.
inline std::unique_ptr<UniqueNode> make_unique_tree(int depth, std::int32_t index = 0) {
  auto node = std::make_unique<UniqueNode>();
  node->value = index;
  if (depth > 0) {
    node->left = make_unique_tree(depth - 1, 2 * index + 1);
    node->right = make_unique_tree(depth - 1, 2 * index + 2);
  }
  return node;
}

inline std::shared_ptr<SharedNode> make_shared_tree(int depth, std::int32_t index = 0,
                                                    const std::shared_ptr<SharedNode>& parent = nullptr) {
  auto node = std::make_shared<SharedNode>();
  node->value = index;
  node->parent = parent;
  if (depth > 0) {
    node->left = make_shared_tree(depth - 1, 2 * index + 1, node);
    node->right = make_shared_tree(depth - 1, 2 * index + 2, node);
  }
  return node;
}

template <int Level = 0>
std::unique_ptr<PolyNode> make_poly_tree(int depth, std::int32_t index = 0) {
  std::unique_ptr<PolyNode> node = std::make_unique<PolyLevel<Level>>();
  node->value = index;
  if constexpr (Level < max_tree_depth) {
    if (depth > 0) {
      node->left = make_poly_tree<Level + 1>(depth - 1, 2 * index + 1);
      node->right = make_poly_tree<Level + 1>(depth - 1, 2 * index + 2);
    }
  }
  return node;
}

inline bool equal_trees(const UniqueNode* x, const UniqueNode* y) {
  if (!x || !y) return x == y;
  return x->value == y->value && equal_trees(x->left.get(), y->left.get()) &&
         equal_trees(x->right.get(), y->right.get());
}
inline bool equal_trees(const std::unique_ptr<UniqueNode>& x, const std::unique_ptr<UniqueNode>& y) {
  return equal_trees(x.get(), y.get());
}

inline bool equal_trees(const SharedNode* x, const SharedNode* y, const SharedNode* expected_parent) {
  if (!x || !y) return x == y;
  // The parent must be the very node we came from: identity, not a copy.
  return x->value == y->value && y->parent.lock().get() == expected_parent &&
         equal_trees(x->left.get(), y->left.get(), y) && equal_trees(x->right.get(), y->right.get(), y);
}
inline bool equal_trees(const std::shared_ptr<SharedNode>& x, const std::shared_ptr<SharedNode>& y) {
  return equal_trees(x.get(), y.get(), nullptr);
}

inline bool equal_trees(const PolyNode* x, const PolyNode* y) {
  if (!x || !y) return x == y;
  return x->value == y->value && x->level() == y->level() && typeid(*x) == typeid(*y) &&
         equal_trees(x->left.get(), y->left.get()) && equal_trees(x->right.get(), y->right.get());
}
inline bool equal_trees(const std::unique_ptr<PolyNode>& x, const std::unique_ptr<PolyNode>& y) {
  return equal_trees(x.get(), y.get());
}

inline KelpieMessage make_kelpie(std::size_t n) {
  std::mt19937 rng(11u);
  KelpieMessage m{7, 42, 1001, 2002, {}};
  m.entries.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t length = 8 + rng() % 17;  // 8..24
    std::string name(length, ' ');
    for (auto& ch : name) ch = static_cast<char>('a' + rng() % 26);
    m.entries.push_back({(std::uint64_t{rng()} << 32) | rng(), std::move(name)});
  }
  return m;
}

inline MetaTuple make_meta_tuple() {
  std::vector<std::uint8_t> bytes(100);
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<std::uint8_t>(k * 7);
  return {123456, 0x0123456789abcdefULL, std::move(bytes), std::string("the quick brown fox jumps over the lazy dog")};
}

inline std::string make_string(std::size_t n) {
  std::string s(n, ' ');
  for (std::size_t k = 0; k < n; ++k) s[k] = static_cast<char>('a' + k % 26);
  return s;
}

inline std::vector<int> make_ints(std::size_t n) {
  std::mt19937 rng(13u);
  std::vector<int> v(n);
  for (auto& x : v) x = static_cast<int>(rng());
  return v;
}

inline std::vector<double> make_doubles(std::size_t n) {
  std::mt19937_64 rng(17u);
  std::uniform_real_distribution<double> d(-1e9, 1e9);
  std::vector<double> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

inline SurveyMixed make_survey_mixed() {
  SurveyMixed s{-123456, 3.14159265358979, {}};
  const std::string text = make_string(100);
  s.text.assign(text.begin(), text.end());
  return s;
}

// The values chronoxor/CppSerialization uses.
inline Account make_account() {
  Account a;
  a.id = 1;
  a.name = "Test";
  std::memcpy(a.wallet.currency, "USD", 3);
  a.wallet.amount = 1000.0;
  const auto order = [](std::int32_t id, OrderSide side, OrderType type, double price, double volume) {
    Order o;
    o.id = id;
    std::memcpy(o.symbol, "EURUSD", 6);
    o.side = side;
    o.type = type;
    o.price = price;
    o.volume = volume;
    return o;
  };
  a.orders.push_back(order(1, OrderSide::buy, OrderType::market, 1.23456, 1000.0));
  a.orders.push_back(order(2, OrderSide::sell, OrderType::limit, 1.0, 100.0));
  a.orders.push_back(order(3, OrderSide::buy, OrderType::stop, 1.5, 10.0));
  return a;
}

}  // namespace bench::model
