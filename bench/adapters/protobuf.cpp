// Protocol Buffers (proto3, libprotobuf 3.21). Schema: bench/schemas/bench.proto.
//
// Encode = fill the generated message from the native value + serialize;
// decode = parse + convert the generated message to the native value. Both
// conversions are timed: a protobuf user pays them too.
//
// Choices, as a user who cares about speed would make them:
//   - one message object per type lives in the adapter and is reused across
//     calls (Clear() before filling; ParseFromArray clears before parsing),
//     so repeated and sub-message storage is recycled rather than
//     reallocated. An Arena (with a reused first block) was tried as the
//     alternative and came out mixed, not better: it removes the per-node
//     allocations of maps and trees (which Clear() frees), but strings'
//     characters are still malloc'd on an arena, where Clear() keeps their
//     capacity (Kelpie's 1024 names: 563 mallocs per call against 0).
//   - encode sizes the message once (ByteSizeLong), grows a reused buffer if
//     needed and writes with SerializeWithCachedSizesToArray, so the size is
//     not computed twice as SerializeToArray would do.
//   - encode_into writes into the caller's buffer the same way.
// Malformed input: ParseFromArray returning false throws, and so does a
// field whose value the native type cannot hold (an unknown enum value, a
// symbol longer than its char[10]).
#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "../harness/harness.hpp"
#include "bench.pb.h"
#include "protobuf_account.hpp"

namespace {

namespace m = bench::model;
using bench_protobuf::fill;
using bench_protobuf::read;

// ---------------------------------------------------------------------------
// Native type -> generated message
// ---------------------------------------------------------------------------
template <class T>
struct message_for;
template <>
struct message_for<m::IntegerClass> {
  using type = benchpb::IntegerClass;
};
template <>
struct message_for<std::vector<m::IntegerClass>> {
  using type = benchpb::IntegerClasses;
};
template <>
struct message_for<std::vector<std::int32_t>> {  // also survey vector_int (int is int32_t)
  using type = benchpb::Int32s;
};
template <>
struct message_for<std::vector<float>> {
  using type = benchpb::Floats;
};
template <>
struct message_for<std::vector<double>> {
  using type = benchpb::Doubles;
};
template <>
struct message_for<std::map<std::int32_t, std::int32_t>> {
  using type = benchpb::IntMap;
};
template <>
struct message_for<std::unique_ptr<m::UniqueNode>> {
  using type = benchpb::Node;
};
template <>
struct message_for<m::KelpieMessage> {
  using type = benchpb::KelpieMessage;
};
template <>
struct message_for<m::MetaTuple> {
  using type = benchpb::MetaTuple;
};
template <>
struct message_for<std::string> {
  using type = benchpb::Text;
};
template <>
struct message_for<m::SurveyMixed> {
  using type = benchpb::SurveyMixed;
};
template <>
struct message_for<m::Account> {
  using type = benchpb::Account;
};

template <class T>
concept has_message = requires { typename message_for<T>::type; };

// ---------------------------------------------------------------------------
// native -> message
// ---------------------------------------------------------------------------
void fill(benchpb::IntegerClass& out, const m::IntegerClass& v) {
  out.set_a(v.a);
  out.set_b(v.b);
  out.set_c(v.c);
  out.set_d(v.d);
  out.set_e(v.e);
  out.set_f(v.f);
  out.set_g(v.g);
  out.set_h(v.h);
  out.set_i(v.i);
  out.set_j(v.j);
}

void fill(benchpb::IntegerClasses& out, const std::vector<m::IntegerClass>& v) {
  auto& items = *out.mutable_items();
  items.Reserve(static_cast<int>(v.size()));
  for (const auto& x : v) fill(*items.Add(), x);
}

template <class Message, class Scalar>
void fill_values(Message& out, const std::vector<Scalar>& v) {
  auto& values = *out.mutable_values();
  values.Reserve(static_cast<int>(v.size()));
  values.Add(v.begin(), v.end());
}
void fill(benchpb::Int32s& out, const std::vector<std::int32_t>& v) { fill_values(out, v); }
void fill(benchpb::Floats& out, const std::vector<float>& v) { fill_values(out, v); }
void fill(benchpb::Doubles& out, const std::vector<double>& v) { fill_values(out, v); }

void fill(benchpb::IntMap& out, const std::map<std::int32_t, std::int32_t>& v) {
  auto& entries = *out.mutable_entries();
  for (const auto& [key, value] : v) entries[key] = value;
}

void fill(benchpb::Node& out, const std::unique_ptr<m::UniqueNode>& v) {
  out.set_value(v->value);
  if (v->left) fill(*out.mutable_left(), v->left);
  if (v->right) fill(*out.mutable_right(), v->right);
}

void fill(benchpb::KelpieMessage& out, const m::KelpieMessage& v) {
  out.set_op(v.op);
  out.set_tag(v.tag);
  out.set_source(v.source);
  out.set_destination(v.destination);
  auto& entries = *out.mutable_entries();
  entries.Reserve(static_cast<int>(v.entries.size()));
  for (const auto& e : v.entries) {
    auto& entry = *entries.Add();
    entry.set_id(e.id);
    entry.set_name(e.name);
  }
}

void fill(benchpb::MetaTuple& out, const m::MetaTuple& v) {
  out.set_first(std::get<0>(v));
  out.set_second(std::get<1>(v));
  const auto& bytes = std::get<2>(v);
  out.set_third(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  out.set_fourth(std::get<3>(v));
}

void fill(benchpb::Text& out, const std::string& v) { out.set_value(v); }

void fill(benchpb::SurveyMixed& out, const m::SurveyMixed& v) {
  out.set_number(v.number);
  out.set_real(v.real);
  out.set_text(v.text.data(), v.text.size());
}

// ---------------------------------------------------------------------------
// message -> native
// ---------------------------------------------------------------------------
void read(const benchpb::IntegerClass& in, m::IntegerClass& v) {
  v = {in.a(), in.b(), in.c(), in.d(), in.e(), in.f(), in.g(), in.h(), in.i(), in.j()};
}

void read(const benchpb::IntegerClasses& in, std::vector<m::IntegerClass>& v) {
  v.resize(static_cast<std::size_t>(in.items_size()));
  for (std::size_t k = 0; k < v.size(); ++k) read(in.items(static_cast<int>(k)), v[k]);
}

template <class Message, class Scalar>
void read_values(const Message& in, std::vector<Scalar>& v) {
  v.assign(in.values().begin(), in.values().end());
}
void read(const benchpb::Int32s& in, std::vector<std::int32_t>& v) { read_values(in, v); }
void read(const benchpb::Floats& in, std::vector<float>& v) { read_values(in, v); }
void read(const benchpb::Doubles& in, std::vector<double>& v) { read_values(in, v); }

void read(const benchpb::IntMap& in, std::map<std::int32_t, std::int32_t>& v) {
  v.clear();
  v.insert(in.entries().begin(), in.entries().end());
}

void read(const benchpb::Node& in, std::unique_ptr<m::UniqueNode>& v) {
  v = std::make_unique<m::UniqueNode>();
  v->value = in.value();
  if (in.has_left()) read(in.left(), v->left);
  if (in.has_right()) read(in.right(), v->right);
}

void read(const benchpb::KelpieMessage& in, m::KelpieMessage& v) {
  v.op = in.op();
  v.tag = in.tag();
  v.source = in.source();
  v.destination = in.destination();
  v.entries.resize(static_cast<std::size_t>(in.entries_size()));
  for (std::size_t k = 0; k < v.entries.size(); ++k) {
    const auto& entry = in.entries(static_cast<int>(k));
    v.entries[k].id = entry.id();
    v.entries[k].name = entry.name();
  }
}

void read(const benchpb::MetaTuple& in, m::MetaTuple& v) {
  std::get<0>(v) = in.first();
  std::get<1>(v) = in.second();
  const std::string& bytes = in.third();
  std::get<2>(v).assign(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                        reinterpret_cast<const std::uint8_t*>(bytes.data()) + bytes.size());
  std::get<3>(v) = in.fourth();
}

void read(const benchpb::Text& in, std::string& v) { v = in.value(); }

void read(const benchpb::SurveyMixed& in, m::SurveyMixed& v) {
  v.number = in.number();
  v.real = in.real();
  v.text.assign(in.text().begin(), in.text().end());
}

// ---------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------
struct protobuf_adapter {
  static constexpr std::string_view name = "protobuf";

  std::tuple<benchpb::IntegerClass, benchpb::IntegerClasses, benchpb::Int32s, benchpb::Floats, benchpb::Doubles,
             benchpb::IntMap, benchpb::Node, benchpb::KelpieMessage, benchpb::MetaTuple, benchpb::Text,
             benchpb::SurveyMixed, benchpb::Account>
      messages;
  std::vector<std::byte> buffer;

  template <class T>
  typename message_for<T>::type& message() {
    return std::get<typename message_for<T>::type>(messages);
  }

  template <has_message T>
  bench::bytes_view encode(const T& value) {
    auto& msg = message<T>();
    msg.Clear();
    fill(msg, value);
    const std::size_t size = msg.ByteSizeLong();
    if (buffer.size() < size) buffer.resize(size);
    msg.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(buffer.data()));
    return {buffer.data(), size};
  }

  template <has_message T>
  std::size_t encode_into(const T& value, std::span<std::byte> out) {
    auto& msg = message<T>();
    msg.Clear();
    fill(msg, value);
    const std::size_t size = msg.ByteSizeLong();
    if (out.size() < size) throw std::length_error("protobuf: output buffer too small");
    msg.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(out.data()));
    return size;
  }

  template <has_message T>
  void decode(bench::bytes_view in, T& out) {
    auto& msg = message<T>();
    if (in.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        !msg.ParseFromArray(in.data(), static_cast<int>(in.size()))) {
      throw std::runtime_error("protobuf: ParseFromArray failed");
    }
    read(msg, out);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree") return "protobuf has no shared references (no pointer identity, no parent links)";
    if (family == "poly_tree") return "protobuf has no polymorphic messages (a oneof per level would be a different model)";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(protobuf_adapter);
