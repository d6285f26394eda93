// RapidJSON: written by hand per type with the SAX Writer into a reused
// StringBuffer, read back with the DOM (Document::Parse, then a conversion
// per type), the way performance-minded RapidJSON code does both.
//
// The JSON layout is the one the nlohmann adapter describes (objects keyed by
// field name, char[10] as strings, enums as integers, map<int32,int32> as an
// array of [key, value] pairs, null for a missing tree child), so sizes
// compare across the JSON libraries.
//
// Numbers round-trip exactly: Writer::Double prints enough digits (Grisu2) and
// kParseFullPrecisionFlag makes the parser round correctly; a float is written
// as the double it converts to exactly. That flag slows down every number
// (the parser keeps a copy of its digits), integers included, and only
// floating-point values need it, so it is set for the types that hold them.
//
// Decoding checks every type before reading it (RapidJSON's getters only
// assert, which is a no-op in Release) and throws on a parse error, a wrong
// type, an out-of-range integer, a missing key or trailing bytes.
#if defined(__SSE2__) && !defined(RAPIDJSON_SSE2)
#define RAPIDJSON_SSE2  // SSE2 is baseline on x86-64: string scanning in the Writer
#endif

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

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

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------
using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Declared up front so that the templates below find them.
void write(Writer& w, const IntegerClass& v);
void write(Writer& w, const KelpieEntry& v);
void write(Writer& w, const Order& v);

template <std::size_t N>
void key(Writer& w, const char (&name)[N]) {
  w.Key(name, N - 1);
}

void write_string(Writer& w, const char* data, std::size_t size) {
  if (size > std::numeric_limits<rapidjson::SizeType>::max()) throw std::length_error("rapidjson: string too long");
  w.String(data, static_cast<rapidjson::SizeType>(size));
}

void write(Writer& w, std::int32_t v) { w.Int(v); }
void write(Writer& w, std::uint64_t v) { w.Uint64(v); }
void write(Writer& w, std::uint8_t v) { w.Uint(v); }
void write(Writer& w, double v) {
  if (!w.Double(v)) throw std::domain_error("rapidjson: JSON has no NaN or infinity");
}
void write(Writer& w, float v) { write(w, static_cast<double>(v)); }
void write(Writer& w, const std::string& v) { write_string(w, v.data(), v.size()); }

template <std::size_t N>
void write_fixed(Writer& w, const char (&field)[N]) {
  write_string(w, field, strnlen(field, N));
}

template <class T>
void write(Writer& w, const std::vector<T>& v) {
  w.StartArray();
  for (const T& x : v) write(w, x);
  w.EndArray();
}

void write(Writer& w, const std::map<std::int32_t, std::int32_t>& m) {
  w.StartArray();
  for (const auto& [k, v] : m) {
    w.StartArray();
    w.Int(k);
    w.Int(v);
    w.EndArray();
  }
  w.EndArray();
}

void write(Writer& w, const IntegerClass& v) {
  w.StartObject();
  key(w, "a"); w.Int(v.a);
  key(w, "b"); w.Int(v.b);
  key(w, "c"); w.Int(v.c);
  key(w, "d"); w.Int(v.d);
  key(w, "e"); w.Int(v.e);
  key(w, "f"); w.Int(v.f);
  key(w, "g"); w.Int(v.g);
  key(w, "h"); w.Int(v.h);
  key(w, "i"); w.Int(v.i);
  key(w, "j"); w.Int(v.j);
  w.EndObject();
}

void write(Writer& w, const std::unique_ptr<UniqueNode>& node) {
  if (!node) {
    w.Null();
    return;
  }
  w.StartObject();
  key(w, "value"); w.Int(node->value);
  key(w, "left"); write(w, node->left);
  key(w, "right"); write(w, node->right);
  w.EndObject();
}

void write(Writer& w, const KelpieEntry& v) {
  w.StartObject();
  key(w, "id"); w.Uint64(v.id);
  key(w, "name"); write(w, v.name);
  w.EndObject();
}

void write(Writer& w, const KelpieMessage& v) {
  w.StartObject();
  key(w, "op"); w.Uint(v.op);
  key(w, "tag"); w.Uint(v.tag);
  key(w, "source"); w.Uint(v.source);
  key(w, "destination"); w.Uint(v.destination);
  key(w, "entries"); write(w, v.entries);
  w.EndObject();
}

void write(Writer& w, const MetaTuple& v) {
  w.StartArray();
  write(w, std::get<0>(v));
  write(w, std::get<1>(v));
  write(w, std::get<2>(v));
  write(w, std::get<3>(v));
  w.EndArray();
}

void write(Writer& w, const SurveyMixed& v) {
  w.StartObject();
  key(w, "number"); w.Int(v.number);
  key(w, "real"); write(w, v.real);
  key(w, "text"); write_string(w, v.text.data(), v.text.size());
  w.EndObject();
}

void write(Writer& w, const Order& v) {
  w.StartObject();
  key(w, "id"); w.Int(v.id);
  key(w, "symbol"); write_fixed(w, v.symbol);
  key(w, "side"); w.Uint(static_cast<unsigned>(v.side));
  key(w, "type"); w.Uint(static_cast<unsigned>(v.type));
  key(w, "price"); write(w, v.price);
  key(w, "volume"); write(w, v.volume);
  w.EndObject();
}

void write(Writer& w, const Balance& v) {
  w.StartObject();
  key(w, "currency"); write_fixed(w, v.currency);
  key(w, "amount"); write(w, v.amount);
  w.EndObject();
}

void write(Writer& w, const Account& v) {
  w.StartObject();
  key(w, "id"); w.Int(v.id);
  key(w, "name"); write(w, v.name);
  key(w, "wallet"); write(w, v.wallet);
  key(w, "orders"); write(w, v.orders);
  w.EndObject();
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------
using Value = rapidjson::Value;

// Declared up front so that the templates below find them.
void read(const Value& v, IntegerClass& out);
void read(const Value& v, KelpieEntry& out);
void read(const Value& v, Order& out);

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("rapidjson adapter: " + what); }

const Value& member(const Value& object, const char* name) {
  if (!object.IsObject()) fail("expected an object");
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd()) fail(std::string("missing key \"") + name + "\"");
  return it->value;
}

const Value& element(const Value& array, rapidjson::SizeType index) {
  if (index >= array.Size()) fail("array too short");
  return array[index];
}

void read(const Value& v, std::int32_t& out) {
  if (!v.IsInt()) fail("expected an int32");
  out = v.GetInt();
}
void read(const Value& v, std::uint32_t& out) {
  if (!v.IsUint()) fail("expected a uint32");
  out = v.GetUint();
}
void read(const Value& v, std::uint64_t& out) {
  if (!v.IsUint64()) fail("expected a uint64");
  out = v.GetUint64();
}
void read(const Value& v, std::uint8_t& out) {
  if (!v.IsUint() || v.GetUint() > 0xff) fail("expected a uint8");
  out = static_cast<std::uint8_t>(v.GetUint());
}
void read(const Value& v, double& out) {
  if (!v.IsNumber()) fail("expected a number");
  out = v.GetDouble();
}
void read(const Value& v, float& out) {
  if (!v.IsNumber()) fail("expected a number");
  out = static_cast<float>(v.GetDouble());
}
void read(const Value& v, std::string& out) {
  if (!v.IsString()) fail("expected a string");
  out.assign(v.GetString(), v.GetStringLength());
}

template <std::size_t N>
void read_fixed(const Value& v, char (&field)[N]) {
  if (!v.IsString()) fail("expected a string");
  const std::size_t size = v.GetStringLength();
  if (size > N || std::memchr(v.GetString(), '\0', size) != nullptr) fail("string does not fit its char array");
  std::memcpy(field, v.GetString(), size);
  std::memset(field + size, 0, N - size);
}

template <class E>
void read_enum(const Value& v, E& out, E last) {
  if (!v.IsUint() || v.GetUint() > static_cast<unsigned>(last)) fail("enum value out of range");
  out = static_cast<E>(v.GetUint());
}

// Resizing keeps the elements a reused vector already has (and their string
// capacity); every element is then overwritten in full.
template <class T>
void read(const Value& v, std::vector<T>& out) {
  if (!v.IsArray()) fail("expected an array");
  out.resize(v.Size());
  T* dst = out.data();
  for (auto it = v.Begin(); it != v.End(); ++it) read(*it, *dst++);
}

void read(const Value& v, std::map<std::int32_t, std::int32_t>& out) {
  if (!v.IsArray()) fail("expected an array");
  out.clear();
  for (auto it = v.Begin(); it != v.End(); ++it) {
    if (!it->IsArray() || it->Size() != 2) fail("expected a [key, value] pair");
    std::int32_t key = 0, value = 0;
    read((*it)[0], key);
    read((*it)[1], value);
    out.emplace_hint(out.end(), key, value);
  }
}

void read(const Value& v, IntegerClass& out) {
  read(member(v, "a"), out.a);
  read(member(v, "b"), out.b);
  read(member(v, "c"), out.c);
  read(member(v, "d"), out.d);
  read(member(v, "e"), out.e);
  read(member(v, "f"), out.f);
  read(member(v, "g"), out.g);
  read(member(v, "h"), out.h);
  read(member(v, "i"), out.i);
  read(member(v, "j"), out.j);
}

// A reused tree keeps its nodes where the input has nodes too.
void read(const Value& v, std::unique_ptr<UniqueNode>& out) {
  if (v.IsNull()) {
    out.reset();
    return;
  }
  if (!v.IsObject()) fail("expected a tree node or null");
  if (!out) out = std::make_unique<UniqueNode>();
  read(member(v, "value"), out->value);
  read(member(v, "left"), out->left);
  read(member(v, "right"), out->right);
}

void read(const Value& v, KelpieEntry& out) {
  read(member(v, "id"), out.id);
  read(member(v, "name"), out.name);
}

void read(const Value& v, KelpieMessage& out) {
  read(member(v, "op"), out.op);
  read(member(v, "tag"), out.tag);
  read(member(v, "source"), out.source);
  read(member(v, "destination"), out.destination);
  read(member(v, "entries"), out.entries);
}

void read(const Value& v, MetaTuple& out) {
  if (!v.IsArray()) fail("expected an array");
  read(element(v, 0), std::get<0>(out));
  read(element(v, 1), std::get<1>(out));
  read(element(v, 2), std::get<2>(out));
  read(element(v, 3), std::get<3>(out));
}

void read(const Value& v, SurveyMixed& out) {
  read(member(v, "number"), out.number);
  read(member(v, "real"), out.real);
  const Value& text = member(v, "text");
  if (!text.IsString()) fail("expected a string");
  out.text.assign(text.GetString(), text.GetString() + text.GetStringLength());
}

void read(const Value& v, Order& out) {
  read(member(v, "id"), out.id);
  read_fixed(member(v, "symbol"), out.symbol);
  read_enum(member(v, "side"), out.side, OrderSide::sell);
  read_enum(member(v, "type"), out.type, OrderType::stop);
  read(member(v, "price"), out.price);
  read(member(v, "volume"), out.volume);
}

void read(const Value& v, Balance& out) {
  read_fixed(member(v, "currency"), out.currency);
  read(member(v, "amount"), out.amount);
}

void read(const Value& v, Account& out) {
  read(member(v, "id"), out.id);
  read(member(v, "name"), out.name);
  read(member(v, "wallet"), out.wallet);
  read(member(v, "orders"), out.orders);
}

// Types with a double or float inside: parsed with kParseFullPrecisionFlag.
template <class T>
constexpr bool has_floating_point = std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<float>> ||
                                    std::is_same_v<T, SurveyMixed> || std::is_same_v<T, Account>;

template <class T>
concept rapidjson_supported = requires(Writer& w, const T& value, const Value& v, T& out) {
  write(w, value);
  read(v, out);
};

// ---------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------
// Memory for the DOM: a MemoryPoolAllocator only ever frees everything at
// once, so each decode gets fresh pools over buffers the adapter keeps, and
// grows them after a decode that did not fit (the user-buffer setup RapidJSON
// documents, to parse without heap allocation). One pool holds the values,
// the other the parser's stacks; the Document itself is a cheap local.
class pool_buffer {
 public:
  explicit pool_buffer(std::size_t bytes) : words_(bytes / sizeof(std::uint64_t)) {}
  void* data() { return words_.data(); }
  std::size_t size() const { return words_.size() * sizeof(std::uint64_t); }
  // After a decode: make room for what the pool ended up holding, plus slack.
  void fit(std::size_t used) {
    if (used > size()) words_.resize((used + used / 4) / sizeof(std::uint64_t) + 1);
  }

 private:
  std::vector<std::uint64_t> words_;
};

using Pool = rapidjson::MemoryPoolAllocator<>;
using Document = rapidjson::GenericDocument<rapidjson::UTF8<>, Pool, Pool>;

struct rapidjson_adapter {
  static constexpr std::string_view name = "rapidjson";

  rapidjson::StringBuffer buffer;
  Writer writer{buffer};
  pool_buffer value_memory{16 * 1024};
  pool_buffer stack_memory{16 * 1024};
  std::string input;  // NUL-terminated copy of the input

  template <class T>
    requires rapidjson_supported<T>
  bench::bytes_view encode(const T& value) {
    buffer.Clear();
    writer.Reset(buffer);
    write(writer, value);
    if (!writer.IsComplete()) fail("incomplete JSON written");
    return std::as_bytes(std::span(buffer.GetString(), buffer.GetSize()));
  }

  template <class T>
    requires rapidjson_supported<T>
  void decode(bench::bytes_view in, T& out) {
    // RapidJSON's fast paths (SIMD whitespace skipping and string scanning)
    // are for NUL-terminated input; parsing by length goes through a generic,
    // per-character stream that is slower than copying the input into a
    // reused buffer with a NUL after it. The copy is part of what a RapidJSON
    // user pays for such input, so it stays in the timed decode. A NUL byte
    // cannot occur in JSON text; one here would end the parse early.
    const char* const text = reinterpret_cast<const char*>(in.data());
    if (std::memchr(text, '\0', in.size()) != nullptr) fail("NUL byte in the input");
    input.assign(text, in.size());
    constexpr unsigned flags =
        has_floating_point<T> ? rapidjson::kParseFullPrecisionFlag : rapidjson::kParseDefaultFlags;
    std::size_t values_used = 0, stack_used = 0;
    {
      Pool values(value_memory.data(), value_memory.size());
      Pool stack(stack_memory.data(), stack_memory.size());
      Document doc(&values, 1024, &stack);
      doc.Parse<flags>(input.c_str());
      if (doc.HasParseError()) {
        fail(std::string(rapidjson::GetParseError_En(doc.GetParseError())) + " at offset " +
             std::to_string(doc.GetErrorOffset()));
      }
      read(static_cast<const Value&>(doc), out);
      values_used = values.Capacity();
      stack_used = stack.Capacity();
    }
    value_memory.fit(values_used);
    stack_memory.fit(stack_used);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree" || family == "poly_tree") return "JSON has no pointer identity/polymorphism";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(rapidjson_adapter);
