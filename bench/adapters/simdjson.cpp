// simdjson: parse only. Decoding uses the On Demand API with one parser reused
// across calls, reading straight into the C++ types; simdjson writes no JSON,
// so encode (not timed) is a small hand-written writer that only produces the
// test input.
//
// The JSON layout is the one the nlohmann adapter describes (objects keyed by
// field name, char[10] as strings, enums as integers, map<int32,int32> as an
// array of [key, value] pairs, null for a missing tree child). Numbers are
// printed with std::to_chars, the shortest text that parses back to the same
// double; a float is written as the double it converts to exactly.
//
// Objects are read by iterating their fields, so any key order is accepted
// (the order written is tried first), unknown keys are skipped, and the whole
// document is consumed, which lets decode reject trailing bytes. Decoding
// throws simdjson::simdjson_error on a parse error or a wrong type, and
// std::runtime_error on an out-of-range integer, a missing key or trailing
// bytes.
//
// Build note: simdjson picks its stage 1 (the SIMD structural index) at run
// time, but the On Demand code that walks the index and parses numbers and
// strings is compiled into this file for the compiler's target; at the
// suite's default flags (baseline x86-64) that is simdjson's "fallback"
// kernel, as it is for any user who does not build with -march.
#include <simdjson.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "../harness/harness.hpp"

namespace {

using namespace bench::model;
namespace od = simdjson::ondemand;

// ---------------------------------------------------------------------------
// Writing (test input only)
// ---------------------------------------------------------------------------
template <class N>
void put_number(std::string& out, N v) {
  char digits[32];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
  if (ec != std::errc()) throw std::runtime_error("simdjson adapter: to_chars failed");
  out.append(digits, end);
}

void put(std::string& out, std::int32_t v) { put_number(out, v); }
void put(std::string& out, std::uint32_t v) { put_number(out, v); }
void put(std::string& out, std::uint64_t v) { put_number(out, v); }
void put(std::string& out, std::uint8_t v) { put_number(out, unsigned{v}); }
// "1000.0" rather than "1000", as RapidJSON and nlohmann write it: the same
// input for every JSON library, with a double always a floating-point token.
void put(std::string& out, double v) {
  if (!std::isfinite(v)) throw std::domain_error("simdjson adapter: JSON has no NaN or infinity");
  const std::size_t start = out.size();
  put_number(out, v);
  if (out.find_first_of(".e", start) == std::string::npos) out += ".0";
}
void put(std::string& out, float v) { put(out, static_cast<double>(v)); }

void put_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 0xf];
    } else {
      out += c;
    }
  }
  out += '"';
}
void put(std::string& out, const std::string& s) { put_string(out, s); }

template <std::size_t N>
void put_fixed(std::string& out, const char (&field)[N]) {
  put_string(out, {field, strnlen(field, N)});
}

void put(std::string& out, const IntegerClass& v);
void put(std::string& out, const KelpieEntry& v);
void put(std::string& out, const Order& v);

template <class T>
void put(std::string& out, const std::vector<T>& v) {
  out += '[';
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (k > 0) out += ',';
    put(out, v[k]);
  }
  out += ']';
}

void put(std::string& out, const std::map<std::int32_t, std::int32_t>& m) {
  out += '[';
  bool first = true;
  for (const auto& [k, v] : m) {
    out += first ? "[" : ",[";
    first = false;
    put(out, k);
    out += ',';
    put(out, v);
    out += ']';
  }
  out += ']';
}

void put(std::string& out, const IntegerClass& v) {
  out += "{\"a\":"; put(out, v.a);
  out += ",\"b\":"; put(out, v.b);
  out += ",\"c\":"; put(out, v.c);
  out += ",\"d\":"; put(out, v.d);
  out += ",\"e\":"; put(out, v.e);
  out += ",\"f\":"; put(out, v.f);
  out += ",\"g\":"; put(out, v.g);
  out += ",\"h\":"; put(out, v.h);
  out += ",\"i\":"; put(out, v.i);
  out += ",\"j\":"; put(out, v.j);
  out += '}';
}

void put(std::string& out, const std::unique_ptr<UniqueNode>& node) {
  if (!node) {
    out += "null";
    return;
  }
  out += "{\"value\":"; put(out, node->value);
  out += ",\"left\":"; put(out, node->left);
  out += ",\"right\":"; put(out, node->right);
  out += '}';
}

void put(std::string& out, const KelpieEntry& v) {
  out += "{\"id\":"; put(out, v.id);
  out += ",\"name\":"; put(out, v.name);
  out += '}';
}

void put(std::string& out, const KelpieMessage& v) {
  out += "{\"op\":"; put(out, v.op);
  out += ",\"tag\":"; put(out, v.tag);
  out += ",\"source\":"; put(out, v.source);
  out += ",\"destination\":"; put(out, v.destination);
  out += ",\"entries\":"; put(out, v.entries);
  out += '}';
}

void put(std::string& out, const MetaTuple& v) {
  out += '['; put(out, std::get<0>(v));
  out += ','; put(out, std::get<1>(v));
  out += ','; put(out, std::get<2>(v));
  out += ','; put(out, std::get<3>(v));
  out += ']';
}

void put(std::string& out, const SurveyMixed& v) {
  out += "{\"number\":"; put(out, v.number);
  out += ",\"real\":"; put(out, v.real);
  out += ",\"text\":"; put_string(out, {v.text.data(), v.text.size()});
  out += '}';
}

void put(std::string& out, const Order& v) {
  out += "{\"id\":"; put(out, v.id);
  out += ",\"symbol\":"; put_fixed(out, v.symbol);
  out += ",\"side\":"; put(out, static_cast<std::uint8_t>(v.side));
  out += ",\"type\":"; put(out, static_cast<std::uint8_t>(v.type));
  out += ",\"price\":"; put(out, v.price);
  out += ",\"volume\":"; put(out, v.volume);
  out += '}';
}

void put(std::string& out, const Balance& v) {
  out += "{\"currency\":"; put_fixed(out, v.currency);
  out += ",\"amount\":"; put(out, v.amount);
  out += '}';
}

void put(std::string& out, const Account& v) {
  out += "{\"id\":"; put(out, v.id);
  out += ",\"name\":"; put(out, v.name);
  out += ",\"wallet\":"; put(out, v.wallet);
  out += ",\"orders\":"; put(out, v.orders);
  out += '}';
}

// ---------------------------------------------------------------------------
// Reading (On Demand; in exception mode .value() throws simdjson_error)
// ---------------------------------------------------------------------------
[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("simdjson adapter: " + what); }

template <class I>
I integer(od::value& v) {
  if constexpr (std::is_signed_v<I>) {
    const std::int64_t x = v.get_int64().value();
    if (x < std::numeric_limits<I>::min() || x > std::numeric_limits<I>::max()) fail("integer out of range");
    return static_cast<I>(x);
  } else {
    const std::uint64_t x = v.get_uint64().value();
    if (x > std::numeric_limits<I>::max()) fail("integer out of range");
    return static_cast<I>(x);
  }
}

void read(od::value& v, std::int32_t& out) { out = integer<std::int32_t>(v); }
void read(od::value& v, std::uint32_t& out) { out = integer<std::uint32_t>(v); }
void read(od::value& v, std::uint64_t& out) { out = v.get_uint64().value(); }
void read(od::value& v, std::uint8_t& out) { out = integer<std::uint8_t>(v); }
void read(od::value& v, double& out) { out = v.get_double().value(); }
void read(od::value& v, float& out) { out = static_cast<float>(v.get_double().value()); }
void read(od::value& v, std::string& out) { out.assign(v.get_string().value()); }

template <std::size_t N>
void read_fixed(od::value& v, char (&field)[N]) {
  const std::string_view s = v.get_string().value();
  if (s.size() > N || s.find('\0') != std::string_view::npos) fail("string does not fit its char array");
  std::memcpy(field, s.data(), s.size());
  std::memset(field + s.size(), 0, N - s.size());
}

template <class E>
void read_enum(od::value& v, E& out, E last) {
  const std::uint64_t x = v.get_uint64().value();
  if (x > static_cast<std::uint64_t>(last)) fail("enum value out of range");
  out = static_cast<E>(x);
}

void read(od::value& v, IntegerClass& out);
void read(od::value& v, KelpieEntry& out);
void read(od::value& v, Order& out);

// Counting first (a cheap scan of the structural index) sizes the vector once;
// a reused vector keeps its elements (and their string capacity), each then
// overwritten in full.
template <class T>
void read(od::value& v, std::vector<T>& out) {
  od::array array = v.get_array().value();
  out.resize(array.count_elements().value());
  std::size_t k = 0;
  for (od::value element : array) {
    if (k == out.size()) fail("array changed length");  // cannot happen: counted above
    read(element, out[k++]);
  }
}

void read(od::value& v, std::map<std::int32_t, std::int32_t>& out) {
  out.clear();
  for (od::value pair : v.get_array()) {
    std::int32_t kv[2] = {};
    std::size_t k = 0;
    for (od::value x : pair.get_array()) {
      if (k == 2) fail("expected a [key, value] pair");
      read(x, kv[k++]);
    }
    if (k != 2) fail("expected a [key, value] pair");
    out.emplace_hint(out.end(), kv[0], kv[1]);
  }
}

void read(od::value& v, MetaTuple& out) {
  std::size_t k = 0;
  for (od::value x : v.get_array()) {
    switch (k++) {
      case 0: read(x, std::get<0>(out)); break;
      case 1: read(x, std::get<1>(out)); break;
      case 2: read(x, std::get<2>(out)); break;
      case 3: read(x, std::get<3>(out)); break;
      default: fail("tuple array too long");
    }
  }
  if (k != 4) fail("tuple array too short");
}

// Calls on_field(index, value) for every field of the object at v whose key is
// one of `names`; throws unless every name was seen. The key after the last
// one matched is tried first, so fields in written order cost one comparison.
template <std::size_t N, class F>
void read_object(od::value& v, const std::array<std::string_view, N>& names, F&& on_field) {
  static_assert(N < 32);
  std::uint32_t seen = 0;
  std::size_t next = 0;
  for (od::field field : v.get_object()) {
    const od::raw_json_string key = field.key();
    std::size_t k = next;
    if (k >= N || !(key == names[k])) {
      for (k = 0; k < N && !(key == names[k]); ++k) {
      }
      if (k == N) continue;  // unknown key: its value is skipped
    }
    on_field(k, field.value());
    seen |= std::uint32_t{1} << k;
    next = k + 1;
  }
  if (seen != (std::uint32_t{1} << N) - 1) fail("missing key");
}

void read(od::value& v, IntegerClass& out) {
  static constexpr std::array<std::string_view, 10> names = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
  static constexpr std::int32_t IntegerClass::*members[] = {&IntegerClass::a, &IntegerClass::b, &IntegerClass::c,
                                                            &IntegerClass::d, &IntegerClass::e, &IntegerClass::f,
                                                            &IntegerClass::g, &IntegerClass::h, &IntegerClass::i,
                                                            &IntegerClass::j};
  read_object(v, names, [&](std::size_t k, od::value& x) { read(x, out.*members[k]); });
}

void read(od::value& v, std::unique_ptr<UniqueNode>& out);

// A node that is not null. A reused tree keeps its nodes where the input has
// nodes too.
void read_node(od::value& v, std::unique_ptr<UniqueNode>& out) {
  if (!out) out = std::make_unique<UniqueNode>();
  UniqueNode& node = *out;
  static constexpr std::array<std::string_view, 3> names = {"value", "left", "right"};
  read_object(v, names, [&](std::size_t k, od::value& x) {
    switch (k) {
      case 0: read(x, node.value); break;
      case 1: read(x, node.left); break;
      default: read(x, node.right); break;
    }
  });
}

void read(od::value& v, std::unique_ptr<UniqueNode>& out) {
  if (v.is_null().value()) {
    out.reset();
  } else {
    read_node(v, out);
  }
}

void read(od::value& v, KelpieEntry& out) {
  static constexpr std::array<std::string_view, 2> names = {"id", "name"};
  read_object(v, names, [&](std::size_t k, od::value& x) {
    if (k == 0) {
      read(x, out.id);
    } else {
      read(x, out.name);
    }
  });
}

void read(od::value& v, KelpieMessage& out) {
  static constexpr std::array<std::string_view, 5> names = {"op", "tag", "source", "destination", "entries"};
  read_object(v, names, [&](std::size_t k, od::value& x) {
    switch (k) {
      case 0: read(x, out.op); break;
      case 1: read(x, out.tag); break;
      case 2: read(x, out.source); break;
      case 3: read(x, out.destination); break;
      default: read(x, out.entries); break;
    }
  });
}

void read(od::value& v, SurveyMixed& out) {
  static constexpr std::array<std::string_view, 3> names = {"number", "real", "text"};
  read_object(v, names, [&](std::size_t k, od::value& x) {
    switch (k) {
      case 0: read(x, out.number); break;
      case 1: read(x, out.real); break;
      default: {
        const std::string_view text = x.get_string().value();
        out.text.assign(text.begin(), text.end());
        break;
      }
    }
  });
}

void read(od::value& v, Order& out) {
  static constexpr std::array<std::string_view, 6> names = {"id", "symbol", "side", "type", "price", "volume"};
  read_object(v, names, [&](std::size_t k, od::value& x) {
    switch (k) {
      case 0: read(x, out.id); break;
      case 1: read_fixed(x, out.symbol); break;
      case 2: read_enum(x, out.side, OrderSide::sell); break;
      case 3: read_enum(x, out.type, OrderType::stop); break;
      case 4: read(x, out.price); break;
      default: read(x, out.volume); break;
    }
  });
}

void read(od::value& v, Balance& out) {
  static constexpr std::array<std::string_view, 2> names = {"currency", "amount"};
  read_object(v, names, [&](std::size_t k, od::value& x) {
    if (k == 0) {
      read_fixed(x, out.currency);
    } else {
      read(x, out.amount);
    }
  });
}

void read(od::value& v, Account& out) {
  static constexpr std::array<std::string_view, 4> names = {"id", "name", "wallet", "orders"};
  read_object(v, names, [&](std::size_t k, od::value& x) {
    switch (k) {
      case 0: read(x, out.id); break;
      case 1: read(x, out.name); break;
      case 2: read(x, out.wallet); break;
      default: read(x, out.orders); break;
    }
  });
}

// The document root. On Demand hands out arrays and objects at the root as a
// value, but a scalar root (a string, a null tree) must be read from the
// document itself.
// After the root value was read in full the iterator is at the end, unless
// something follows it.
void expect_end(od::document& doc) {
  if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS) fail("trailing content after the JSON value");
}
template <class T>
void read_root(od::document& doc, T& out) {
  od::value root = doc.get_value().value();
  read(root, out);
  expect_end(doc);
}
void read_root(od::document& doc, std::string& out) {
  out.assign(doc.get_string().value());
  expect_end(doc);
}
void read_root(od::document& doc, std::unique_ptr<UniqueNode>& out) {
  if (doc.is_null().value()) {
    out.reset();
    expect_end(doc);
    return;
  }
  od::value root = doc.get_value().value();
  read_node(root, out);
  expect_end(doc);
}

template <class T>
concept simdjson_supported = requires(std::string& s, const T& value, od::value& v, T& out) {
  put(s, value);
  read(v, out);
};

// ---------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------
struct simdjson_adapter {
  static constexpr std::string_view name = "simdjson";
  // simdjson does not serialize: encode only makes the test input.
  static constexpr bool encode_timed = false;

  std::string text;
  std::vector<char> padded;  // input copy with SIMDJSON_PADDING bytes after it
  od::parser parser;         // reused: keeps its buffers sized for the largest input

  template <class T>
    requires simdjson_supported<T>
  bench::bytes_view encode(const T& value) {
    text.clear();
    put(text, value);
    return std::as_bytes(std::span(text.data(), text.size()));
  }

  template <class T>
    requires simdjson_supported<T>
  void decode(bench::bytes_view in, T& out) {
    // simdjson reads up to SIMDJSON_PADDING bytes past the end of its input,
    // which the harness (like most callers) does not promise; so the input is
    // copied into a padded buffer this adapter reuses. The copy is part of
    // what a simdjson user pays for such input, so it stays in the timed
    // decode.
    const std::size_t size = in.size();
    if (padded.size() < size + simdjson::SIMDJSON_PADDING) padded.resize(size + simdjson::SIMDJSON_PADDING);
    if (size != 0) std::memcpy(padded.data(), in.data(), size);
    std::memset(padded.data() + size, 0, simdjson::SIMDJSON_PADDING);
    od::document doc = parser.iterate(padded.data(), size, padded.size()).value();
    read_root(doc, out);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree" || family == "poly_tree") return "JSON has no pointer identity/polymorphism";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(simdjson_adapter);
