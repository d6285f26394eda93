// Cap'n Proto (0.9). Schema: bench/schemas/bench.capnp.
//
// Encode = build the message from the native value + write it out flat;
// decode = FlatArrayMessageReader over the input + copy every field into the
// native value. Both conversions are timed: a Cap'n Proto user who has
// native C++ types pays them too. (Reading fields in place is the Cap'n Proto
// way of using data, but it is not "deserialize into T", which is what every
// library here is measured on.)
//
// Choices, as a user who cares about speed would make them:
//   - the MallocMessageBuilder is given a reused, zeroed first segment (its
//     destructor zeroes what it used, so the segment can be reused); when a
//     message outgrows it, the next call gets one as large as that message,
//     so messages after the first are single-segment and allocation-free;
//   - the flat form (segment table + segments) is written into a reused
//     output buffer rather than a fresh kj::Array (messageToFlatArray);
//   - lists of int32/float/double are copied out with one memcpy of their raw
//     bytes when their element size is the expected one (little-endian
//     target, as Cap'n Proto's wire format).
// The reader's traversal limit is at least twice the input's size in words,
// so no message of this benchmark (the largest is 1 Mi doubles) hits it,
// while the limit still bounds amplification on hostile input.
// Malformed input throws: Cap'n Proto throws kj::Exception (which is also a
// std::exception) on bad pointers or a short buffer; an input that is not a
// whole number of aligned words, or an out-of-range enum, throws here.
#include <capnp/any.h>
#include <capnp/message.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "../harness/harness.hpp"
#include "bench.capnp.h"

static_assert(std::endian::native == std::endian::little, "the memcpy fast paths assume a little-endian target");

namespace {

namespace m = bench::model;

// ---------------------------------------------------------------------------
// Native type -> root struct
// ---------------------------------------------------------------------------
template <class T>
struct root_for;
template <>
struct root_for<m::IntegerClass> {
  using type = benchcp::IntegerClass;
};
template <>
struct root_for<std::vector<m::IntegerClass>> {
  using type = benchcp::IntegerClasses;
};
template <>
struct root_for<std::vector<std::int32_t>> {  // also survey vector_int (int is int32_t)
  using type = benchcp::Int32s;
};
template <>
struct root_for<std::vector<float>> {
  using type = benchcp::Floats;
};
template <>
struct root_for<std::vector<double>> {
  using type = benchcp::Doubles;
};
template <>
struct root_for<std::map<std::int32_t, std::int32_t>> {
  using type = benchcp::IntMap;
};
template <>
struct root_for<std::unique_ptr<m::UniqueNode>> {
  using type = benchcp::Node;
};
template <>
struct root_for<m::KelpieMessage> {
  using type = benchcp::KelpieMessage;
};
template <>
struct root_for<m::MetaTuple> {
  using type = benchcp::MetaTuple;
};
template <>
struct root_for<std::string> {
  using type = benchcp::String;
};
template <>
struct root_for<m::SurveyMixed> {
  using type = benchcp::SurveyMixed;
};
template <>
struct root_for<m::Account> {
  using type = benchcp::Account;
};

template <class T>
concept has_root = requires { typename root_for<T>::type; };

// ---------------------------------------------------------------------------
// native -> builder
// ---------------------------------------------------------------------------
capnp::Text::Reader text(const std::string& s) { return capnp::Text::Reader(s.c_str(), s.size()); }

// Text from characters that need not be NUL-terminated.
template <class Init>
void set_text(Init&& init, const char* chars, std::size_t size) {
  capnp::Text::Builder builder = init(static_cast<unsigned>(size));
  std::memcpy(builder.begin(), chars, size);
}

template <std::size_t N>
std::size_t fixed_length(const char (&chars)[N]) {
  return static_cast<std::size_t>(std::find(chars, chars + N, '\0') - chars);
}

void fill(benchcp::IntegerClass::Builder out, const m::IntegerClass& v) {
  out.setA(v.a);
  out.setB(v.b);
  out.setC(v.c);
  out.setD(v.d);
  out.setE(v.e);
  out.setF(v.f);
  out.setG(v.g);
  out.setH(v.h);
  out.setI(v.i);
  out.setJ(v.j);
}

void fill(benchcp::IntegerClasses::Builder out, const std::vector<m::IntegerClass>& v) {
  auto items = out.initItems(static_cast<unsigned>(v.size()));
  for (unsigned k = 0; k < v.size(); ++k) fill(items[k], v[k]);
}

template <class Builder, class Scalar>
void fill_values(Builder out, const std::vector<Scalar>& v) {
  out.setValues(kj::ArrayPtr<const Scalar>(v.data(), v.size()));
}
void fill(benchcp::Int32s::Builder out, const std::vector<std::int32_t>& v) { fill_values(out, v); }
void fill(benchcp::Floats::Builder out, const std::vector<float>& v) { fill_values(out, v); }
void fill(benchcp::Doubles::Builder out, const std::vector<double>& v) { fill_values(out, v); }

void fill(benchcp::IntMap::Builder out, const std::map<std::int32_t, std::int32_t>& v) {
  auto entries = out.initEntries(static_cast<unsigned>(v.size()));
  unsigned k = 0;
  for (const auto& [key, value] : v) {
    auto entry = entries[k++];
    entry.setKey(key);
    entry.setValue(value);
  }
}

void fill(benchcp::Node::Builder out, const m::UniqueNode& v) {
  out.setValue(v.value);
  if (v.left) fill(out.initLeft(), *v.left);
  if (v.right) fill(out.initRight(), *v.right);
}
void fill(benchcp::Node::Builder out, const std::unique_ptr<m::UniqueNode>& v) { fill(out, *v); }

void fill(benchcp::KelpieMessage::Builder out, const m::KelpieMessage& v) {
  out.setOp(v.op);
  out.setTag(v.tag);
  out.setSource(v.source);
  out.setDestination(v.destination);
  auto entries = out.initEntries(static_cast<unsigned>(v.entries.size()));
  for (unsigned k = 0; k < v.entries.size(); ++k) {
    auto entry = entries[k];
    entry.setId(v.entries[k].id);
    entry.setName(text(v.entries[k].name));
  }
}

void fill(benchcp::MetaTuple::Builder out, const m::MetaTuple& v) {
  out.setFirst(std::get<0>(v));
  out.setSecond(std::get<1>(v));
  out.setThird(capnp::Data::Reader(std::get<2>(v).data(), std::get<2>(v).size()));
  out.setFourth(text(std::get<3>(v)));
}

void fill(benchcp::String::Builder out, const std::string& v) { out.setValue(text(v)); }

void fill(benchcp::SurveyMixed::Builder out, const m::SurveyMixed& v) {
  out.setNumber(v.number);
  out.setReal(v.real);
  set_text([&](unsigned n) { return out.initText(n); }, v.text.data(), v.text.size());
}

void fill(benchcp::Account::Builder out, const m::Account& v) {
  out.setId(v.id);
  out.setName(text(v.name));
  auto wallet = out.initWallet();
  set_text([&](unsigned n) { return wallet.initCurrency(n); }, v.wallet.currency, fixed_length(v.wallet.currency));
  wallet.setAmount(v.wallet.amount);
  auto orders = out.initOrders(static_cast<unsigned>(v.orders.size()));
  for (unsigned k = 0; k < v.orders.size(); ++k) {
    const m::Order& o = v.orders[k];
    auto order = orders[k];
    order.setId(o.id);
    set_text([&](unsigned n) { return order.initSymbol(n); }, o.symbol, fixed_length(o.symbol));
    order.setSide(static_cast<benchcp::OrderSide>(o.side));
    order.setType(static_cast<benchcp::OrderType>(o.type));
    order.setPrice(o.price);
    order.setVolume(o.volume);
  }
}

// ---------------------------------------------------------------------------
// reader -> native
// ---------------------------------------------------------------------------
void read_string(capnp::Text::Reader in, std::string& out) { out.assign(in.begin(), in.size()); }

template <std::size_t N>
void read_fixed(capnp::Text::Reader in, char (&chars)[N]) {
  if (in.size() > N) throw std::runtime_error("capnp: text longer than its fixed-size field");
  std::memset(chars, 0, N);
  std::memcpy(chars, in.begin(), in.size());
}

template <class Native, class Generated>
Native read_enum(Generated value, Generated last) {
  if (value > last) throw std::runtime_error("capnp: enum value out of range");
  return static_cast<Native>(value);
}

template <class Scalar>
void read_values(typename capnp::List<Scalar>::Reader in, std::vector<Scalar>& out) {
  out.resize(in.size());
  const capnp::AnyList::Reader any(in);
  constexpr auto expected = sizeof(Scalar) == 4 ? capnp::ElementSize::FOUR_BYTES : capnp::ElementSize::EIGHT_BYTES;
  if (any.getElementSize() == expected) {
    const kj::ArrayPtr<const kj::byte> raw = any.getRawBytes();
    if (raw.size() != out.size() * sizeof(Scalar)) throw std::runtime_error("capnp: list size mismatch");
    if (!out.empty()) std::memcpy(out.data(), raw.begin(), raw.size());
  } else {
    for (unsigned k = 0; k < out.size(); ++k) out[k] = in[k];
  }
}

void read(benchcp::IntegerClass::Reader in, m::IntegerClass& v) {
  v = {in.getA(), in.getB(), in.getC(), in.getD(), in.getE(),
       in.getF(), in.getG(), in.getH(), in.getI(), in.getJ()};
}

void read(benchcp::IntegerClasses::Reader in, std::vector<m::IntegerClass>& v) {
  const auto items = in.getItems();
  v.resize(items.size());
  for (unsigned k = 0; k < v.size(); ++k) read(items[k], v[k]);
}

void read(benchcp::Int32s::Reader in, std::vector<std::int32_t>& v) { read_values<std::int32_t>(in.getValues(), v); }
void read(benchcp::Floats::Reader in, std::vector<float>& v) { read_values<float>(in.getValues(), v); }
void read(benchcp::Doubles::Reader in, std::vector<double>& v) { read_values<double>(in.getValues(), v); }

void read(benchcp::IntMap::Reader in, std::map<std::int32_t, std::int32_t>& v) {
  v.clear();
  for (const auto entry : in.getEntries()) v.emplace_hint(v.end(), entry.getKey(), entry.getValue());
}

void read(benchcp::Node::Reader in, std::unique_ptr<m::UniqueNode>& v) {
  v = std::make_unique<m::UniqueNode>();
  v->value = in.getValue();
  if (in.hasLeft()) read(in.getLeft(), v->left);
  if (in.hasRight()) read(in.getRight(), v->right);
}

void read(benchcp::KelpieMessage::Reader in, m::KelpieMessage& v) {
  v.op = in.getOp();
  v.tag = in.getTag();
  v.source = in.getSource();
  v.destination = in.getDestination();
  const auto entries = in.getEntries();
  v.entries.resize(entries.size());
  for (unsigned k = 0; k < v.entries.size(); ++k) {
    const auto entry = entries[k];
    v.entries[k].id = entry.getId();
    read_string(entry.getName(), v.entries[k].name);
  }
}

void read(benchcp::MetaTuple::Reader in, m::MetaTuple& v) {
  std::get<0>(v) = in.getFirst();
  std::get<1>(v) = in.getSecond();
  const capnp::Data::Reader bytes = in.getThird();
  std::get<2>(v).assign(bytes.begin(), bytes.end());
  read_string(in.getFourth(), std::get<3>(v));
}

void read(benchcp::String::Reader in, std::string& v) { read_string(in.getValue(), v); }

void read(benchcp::SurveyMixed::Reader in, m::SurveyMixed& v) {
  v.number = in.getNumber();
  v.real = in.getReal();
  const capnp::Text::Reader t = in.getText();
  v.text.assign(t.begin(), t.end());
}

void read(benchcp::Account::Reader in, m::Account& v) {
  v.id = in.getId();
  read_string(in.getName(), v.name);
  const auto wallet = in.getWallet();
  read_fixed(wallet.getCurrency(), v.wallet.currency);
  v.wallet.amount = wallet.getAmount();
  const auto orders = in.getOrders();
  v.orders.resize(orders.size());
  for (unsigned k = 0; k < v.orders.size(); ++k) {
    const auto order = orders[k];
    m::Order& o = v.orders[k];
    o.id = order.getId();
    read_fixed(order.getSymbol(), o.symbol);
    o.side = read_enum<m::OrderSide>(order.getSide(), benchcp::OrderSide::SELL);
    o.type = read_enum<m::OrderType>(order.getType(), benchcp::OrderType::STOP);
    o.price = order.getPrice();
    o.volume = order.getVolume();
  }
}

// ---------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------
struct capnp_adapter {
  static constexpr std::string_view name = "capnp";

  // capnp::word is not copyable on every compiler, so the word buffers are
  // vectors of uint64_t (same size and alignment).
  std::vector<std::uint64_t> first_segment = std::vector<std::uint64_t>(capnp::SUGGESTED_FIRST_SEGMENT_WORDS);
  std::vector<std::uint64_t> output;

  static capnp::word* words(std::vector<std::uint64_t>& v) { return reinterpret_cast<capnp::word*>(v.data()); }

  template <has_root T>
  bench::bytes_view encode(const T& value) {
    std::size_t size_words = 0;
    bool spilled = false;
    {
      capnp::MallocMessageBuilder message(kj::arrayPtr(words(first_segment), first_segment.size()));
      fill(message.initRoot<typename root_for<T>::type>(), value);
      const auto segments = message.getSegmentsForOutput();
      size_words = capnp::computeSerializedSizeInWords(segments);
      if (output.size() < size_words) output.resize(size_words);
      kj::ArrayOutputStream stream(kj::arrayPtr(reinterpret_cast<kj::byte*>(output.data()), size_words * 8));
      capnp::writeMessage(stream, segments);
      spilled = segments.size() > 1;
    }  // the builder zeroes the part of first_segment it used
    if (spilled) first_segment.assign(size_words, 0);
    return {reinterpret_cast<const std::byte*>(output.data()), size_words * sizeof(capnp::word)};
  }

  template <has_root T>
  void decode(bench::bytes_view in, T& out) {
    if (in.size() % sizeof(capnp::word) != 0 ||
        reinterpret_cast<std::uintptr_t>(in.data()) % alignof(std::uint64_t) != 0) {
      throw std::runtime_error("capnp: input is not a whole number of aligned words");
    }
    const std::size_t in_words = in.size() / sizeof(capnp::word);
    capnp::ReaderOptions options;
    options.traversalLimitInWords = std::max<std::uint64_t>(options.traversalLimitInWords, 2 * in_words);
    capnp::FlatArrayMessageReader reader(
        kj::ArrayPtr<const capnp::word>(reinterpret_cast<const capnp::word*>(in.data()), in_words), options);
    read(reader.getRoot<typename root_for<T>::type>(), out);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree") return "Cap'n Proto has no shared references (a struct has one owner; no parent links)";
    if (family == "poly_tree") return "Cap'n Proto has no polymorphic structs (a union per level would be a different model)";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(capnp_adapter);
