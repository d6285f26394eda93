// FlatBuffers adapters, shared by "flatbuffers" (read straight after
// GetRoot) and "flatbuffers_verified" (run the Verifier first, throw if it
// rejects the buffer). Schema: bench/schemas/bench.fbs.
//
// Encode = build the buffer from the native value with a FlatBufferBuilder
// the adapter keeps and Clear()s before each message (its memory is reused);
// decode = find the root and copy every field into the native value. Both
// conversions are timed: a FlatBuffers user who has native C++ types pays
// them too. Reading fields in place without copying them out is the
// FlatBuffers way of using data, but it is not "deserialize into T", which
// is what every library here is measured on.
//
// Flat arrays of scalars and of structs are copied with one memcpy (the
// target is little-endian, as FlatBuffers' wire format), which is what a
// careful user writes.
//
// Malformed input: the plain adapter trusts its input, as FlatBuffers without
// the Verifier does; an out-of-range enum still throws. The verified adapter
// throws when the Verifier rejects the buffer.
#pragma once

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "../harness/harness.hpp"
#include "bench_generated.h"

static_assert(FLATBUFFERS_LITTLEENDIAN, "the memcpy fast paths assume a little-endian target");

namespace bench_flatbuffers {

namespace m = bench::model;
namespace fb = flatbuffers;

// ---------------------------------------------------------------------------
// native -> builder (each returns the root table's offset)
// ---------------------------------------------------------------------------
inline benchfb::IntegerClass to_struct(const m::IntegerClass& v) {
  return benchfb::IntegerClass(v.a, v.b, v.c, v.d, v.e, v.f, v.g, v.h, v.i, v.j);
}

inline fb::Offset<benchfb::IntegerClassRoot> build(fb::FlatBufferBuilder& b, const m::IntegerClass& v) {
  const benchfb::IntegerClass s = to_struct(v);
  return benchfb::CreateIntegerClassRoot(b, &s);
}

inline fb::Offset<benchfb::IntegerClasses> build(fb::FlatBufferBuilder& b, const std::vector<m::IntegerClass>& v) {
  benchfb::IntegerClass* items = nullptr;
  const auto vec = b.CreateUninitializedVectorOfStructs(v.size(), &items);
  for (std::size_t k = 0; k < v.size(); ++k) items[k] = to_struct(v[k]);
  return benchfb::CreateIntegerClasses(b, vec);
}

inline fb::Offset<benchfb::Int32s> build(fb::FlatBufferBuilder& b, const std::vector<std::int32_t>& v) {
  return benchfb::CreateInt32s(b, b.CreateVector(v.data(), v.size()));
}
inline fb::Offset<benchfb::Floats> build(fb::FlatBufferBuilder& b, const std::vector<float>& v) {
  return benchfb::CreateFloats(b, b.CreateVector(v.data(), v.size()));
}
inline fb::Offset<benchfb::Doubles> build(fb::FlatBufferBuilder& b, const std::vector<double>& v) {
  return benchfb::CreateDoubles(b, b.CreateVector(v.data(), v.size()));
}

inline fb::Offset<benchfb::IntMap> build(fb::FlatBufferBuilder& b, const std::map<std::int32_t, std::int32_t>& v) {
  benchfb::IntPair* entries = nullptr;
  const auto vec = b.CreateUninitializedVectorOfStructs(v.size(), &entries);
  for (const auto& [key, value] : v) *entries++ = benchfb::IntPair(key, value);
  return benchfb::CreateIntMap(b, vec);
}

inline fb::Offset<benchfb::Node> build(fb::FlatBufferBuilder& b, const m::UniqueNode& v) {
  // Children first: a table is finished before the one that refers to it.
  fb::Offset<benchfb::Node> left, right;
  if (v.left) left = build(b, *v.left);
  if (v.right) right = build(b, *v.right);
  return benchfb::CreateNode(b, v.value, left, right);
}
inline fb::Offset<benchfb::Node> build(fb::FlatBufferBuilder& b, const std::unique_ptr<m::UniqueNode>& v) {
  return build(b, *v);
}

template <std::size_t N>
fb::Offset<fb::String> build_fixed(fb::FlatBufferBuilder& b, const char (&chars)[N]) {
  return b.CreateString(chars, static_cast<std::size_t>(std::find(chars, chars + N, '\0') - chars));
}

// ---------------------------------------------------------------------------
// table -> native
// ---------------------------------------------------------------------------
inline void read_string(const fb::String* in, std::string& out) {
  if (in) {
    out.assign(in->c_str(), in->size());
  } else {
    out.clear();
  }
}

template <class T>
void read_flat(const fb::Vector<T>* in, std::vector<T>& out) {
  if (in) {
    out.assign(in->data(), in->data() + in->size());
  } else {
    out.clear();
  }
}

template <std::size_t N>
void read_fixed(const fb::String* in, char (&chars)[N]) {
  std::memset(chars, 0, N);
  if (!in) return;
  if (in->size() > N) throw std::runtime_error("flatbuffers: string longer than its fixed-size field");
  std::memcpy(chars, in->c_str(), in->size());
}

template <class Native, class Generated>
Native read_enum(Generated value, Generated first, Generated last) {
  if (value < first || value > last) throw std::runtime_error("flatbuffers: enum value out of range");
  return static_cast<Native>(value);
}

inline void read(const benchfb::IntegerClass& in, m::IntegerClass& v) {
  v = {in.a(), in.b(), in.c(), in.d(), in.e(), in.f(), in.g(), in.h(), in.i(), in.j()};
}

inline void read(const benchfb::IntegerClassRoot& in, m::IntegerClass& v) {
  if (in.value()) {
    read(*in.value(), v);
  } else {
    v = {};
  }
}

inline void read(const benchfb::IntegerClasses& in, std::vector<m::IntegerClass>& v) {
  v.clear();
  if (!in.items()) return;
  v.resize(in.items()->size());
  // Same layout (ten little-endian int32), so one copy.
  static_assert(sizeof(benchfb::IntegerClass) == sizeof(m::IntegerClass));
  std::memcpy(v.data(), in.items()->data(), v.size() * sizeof(m::IntegerClass));
}

inline void read(const benchfb::Int32s& in, std::vector<std::int32_t>& v) { read_flat(in.values(), v); }
inline void read(const benchfb::Floats& in, std::vector<float>& v) { read_flat(in.values(), v); }
inline void read(const benchfb::Doubles& in, std::vector<double>& v) { read_flat(in.values(), v); }

inline void read(const benchfb::IntMap& in, std::map<std::int32_t, std::int32_t>& v) {
  v.clear();
  if (!in.entries()) return;
  for (const benchfb::IntPair* pair : *in.entries()) v.emplace_hint(v.end(), pair->key(), pair->value());
}

inline void read(const benchfb::Node& in, std::unique_ptr<m::UniqueNode>& v) {
  v = std::make_unique<m::UniqueNode>();
  v->value = in.value();
  if (in.left()) read(*in.left(), v->left);
  if (in.right()) read(*in.right(), v->right);
}

inline void read(const benchfb::KelpieMessage& in, m::KelpieMessage& v) {
  v.op = in.op();
  v.tag = in.tag();
  v.source = in.source();
  v.destination = in.destination();
  const auto* entries = in.entries();
  v.entries.resize(entries ? entries->size() : 0);
  for (std::size_t k = 0; k < v.entries.size(); ++k) {
    const benchfb::KelpieEntry* entry = entries->Get(static_cast<fb::uoffset_t>(k));
    v.entries[k].id = entry->id();
    read_string(entry->name(), v.entries[k].name);
  }
}

inline void read(const benchfb::MetaTuple& in, m::MetaTuple& v) {
  std::get<0>(v) = in.first();
  std::get<1>(v) = in.second();
  read_flat(in.third(), std::get<2>(v));
  read_string(in.fourth(), std::get<3>(v));
}

inline void read(const benchfb::Text& in, std::string& v) { read_string(in.value(), v); }

inline void read(const benchfb::SurveyMixed& in, m::SurveyMixed& v) {
  v.number = in.number();
  v.real = in.real();
  if (in.text()) {
    v.text.assign(in.text()->c_str(), in.text()->c_str() + in.text()->size());
  } else {
    v.text.clear();
  }
}

inline void read(const benchfb::Account& in, m::Account& v) {
  v.id = in.id();
  read_string(in.name(), v.name);
  if (const benchfb::Balance* wallet = in.wallet()) {
    read_fixed(wallet->currency(), v.wallet.currency);
    v.wallet.amount = wallet->amount();
  } else {
    v.wallet = {};
  }
  const auto* orders = in.orders();
  v.orders.resize(orders ? orders->size() : 0);
  for (std::size_t k = 0; k < v.orders.size(); ++k) {
    const benchfb::Order* order = orders->Get(static_cast<fb::uoffset_t>(k));
    auto& o = v.orders[k];
    o.id = order->id();
    read_fixed(order->symbol(), o.symbol);
    o.side = read_enum<m::OrderSide>(order->side(), benchfb::OrderSide_MIN, benchfb::OrderSide_MAX);
    o.type = read_enum<m::OrderType>(order->type(), benchfb::OrderType_MIN, benchfb::OrderType_MAX);
    o.price = order->price();
    o.volume = order->volume();
  }
}

// ---------------------------------------------------------------------------
// Native type -> root table
// ---------------------------------------------------------------------------
template <class T>
struct root_for;
template <>
struct root_for<m::IntegerClass> {
  using type = benchfb::IntegerClassRoot;
};
template <>
struct root_for<std::vector<m::IntegerClass>> {
  using type = benchfb::IntegerClasses;
};
template <>
struct root_for<std::vector<std::int32_t>> {  // also survey vector_int (int is int32_t)
  using type = benchfb::Int32s;
};
template <>
struct root_for<std::vector<float>> {
  using type = benchfb::Floats;
};
template <>
struct root_for<std::vector<double>> {
  using type = benchfb::Doubles;
};
template <>
struct root_for<std::map<std::int32_t, std::int32_t>> {
  using type = benchfb::IntMap;
};
template <>
struct root_for<std::unique_ptr<m::UniqueNode>> {
  using type = benchfb::Node;
};
template <>
struct root_for<m::KelpieMessage> {
  using type = benchfb::KelpieMessage;
};
template <>
struct root_for<m::MetaTuple> {
  using type = benchfb::MetaTuple;
};
template <>
struct root_for<std::string> {
  using type = benchfb::Text;
};
template <>
struct root_for<m::SurveyMixed> {
  using type = benchfb::SurveyMixed;
};
template <>
struct root_for<m::Account> {
  using type = benchfb::Account;
};

template <class T>
concept has_root = requires { typename root_for<T>::type; };

// ---------------------------------------------------------------------------
// The adapter; Verify selects the Verifier.
// ---------------------------------------------------------------------------
template <bool Verify>
struct adapter_base {
  fb::FlatBufferBuilder builder{1024};
  // Table offsets of the current vector of tables, reused across calls.
  std::vector<fb::Offset<benchfb::KelpieEntry>> entry_offsets;
  std::vector<fb::Offset<benchfb::Order>> order_offsets;

  fb::Offset<benchfb::KelpieMessage> build(fb::FlatBufferBuilder& b, const m::KelpieMessage& v) {
    entry_offsets.clear();
    for (const auto& e : v.entries) {
      const auto name = b.CreateString(e.name);
      entry_offsets.push_back(benchfb::CreateKelpieEntry(b, e.id, name));
    }
    const auto entries = b.CreateVector(entry_offsets.data(), entry_offsets.size());
    return benchfb::CreateKelpieMessage(b, v.op, v.tag, v.source, v.destination, entries);
  }

  fb::Offset<benchfb::Account> build(fb::FlatBufferBuilder& b, const m::Account& v) {
    order_offsets.clear();
    for (const auto& o : v.orders) {
      const auto symbol = build_fixed(b, o.symbol);
      order_offsets.push_back(benchfb::CreateOrder(b, o.id, symbol, static_cast<benchfb::OrderSide>(o.side),
                                                   static_cast<benchfb::OrderType>(o.type), o.price, o.volume));
    }
    const auto orders = b.CreateVector(order_offsets.data(), order_offsets.size());
    const auto currency = build_fixed(b, v.wallet.currency);
    const auto wallet = benchfb::CreateBalance(b, currency, v.wallet.amount);
    const auto name = b.CreateString(v.name);
    return benchfb::CreateAccount(b, v.id, name, wallet, orders);
  }

  fb::Offset<benchfb::MetaTuple> build(fb::FlatBufferBuilder& b, const m::MetaTuple& v) {
    const auto third = b.CreateVector(std::get<2>(v).data(), std::get<2>(v).size());
    const auto fourth = b.CreateString(std::get<3>(v));
    return benchfb::CreateMetaTuple(b, std::get<0>(v), std::get<1>(v), third, fourth);
  }

  fb::Offset<benchfb::Text> build(fb::FlatBufferBuilder& b, const std::string& v) {
    return benchfb::CreateText(b, b.CreateString(v));
  }

  fb::Offset<benchfb::SurveyMixed> build(fb::FlatBufferBuilder& b, const m::SurveyMixed& v) {
    const auto text = b.CreateString(v.text.data(), v.text.size());
    return benchfb::CreateSurveyMixed(b, v.number, v.real, text);
  }

  template <class T>
  auto build(fb::FlatBufferBuilder& b, const T& v) -> decltype(bench_flatbuffers::build(b, v)) {
    return bench_flatbuffers::build(b, v);
  }

  template <has_root T>
  bench::bytes_view encode(const T& value) {
    builder.Clear();
    builder.Finish(build(builder, value));
    return {reinterpret_cast<const std::byte*>(builder.GetBufferPointer()), builder.GetSize()};
  }

  template <has_root T>
  void decode(bench::bytes_view in, T& out) {
    using Root = typename root_for<T>::type;
    const auto* data = reinterpret_cast<const std::uint8_t*>(in.data());
    if (in.size() < sizeof(fb::uoffset_t)) throw std::runtime_error("flatbuffers: buffer too short");
    if constexpr (Verify) {
      fb::Verifier verifier(data, in.size());
      if (!verifier.VerifyBuffer<Root>(nullptr)) throw std::runtime_error("flatbuffers: Verifier rejected the buffer");
    }
    read(*fb::GetRoot<Root>(data), out);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree") return "FlatBuffers has no shared references (a table is referenced from one place; no parent links)";
    if (family == "poly_tree") return "FlatBuffers unions could tag a type per node, but not a C++ class hierarchy's dynamic type";
    return {};
  }
};

}  // namespace bench_flatbuffers
