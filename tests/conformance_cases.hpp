#pragma once
// The conformance vectors of tests/conformance/ (format: tests/conformance/README.md), generated
// from the C++ library: each file is a C++ root type (its schema is bifrons::schema<Root>()) and
// a list of inputs.
//   - value(v): the bytes to_bytes(v) writes; the value is the JSON form of v computed from the
//     C++ value (tests/tools/value_json.hpp);
//   - written_as(w): the bytes another type's writer wrote (an older or newer version): the value
//     is what the schema-driven decoder reads, checked against the C++ value that
//     from_bytes<Root> reads (the members beginning with $ aside), and encodes_to what to_bytes
//     of that value writes;
//   - bytes(b, options): any input; the library's try_from_bytes<Root> decides whether it is a
//     positive vector (as written_as) or a negative one (its error code and offset).
// Shared by tools/gen_conformance.cpp, which writes the files, and tests/tools/conformance_test,
// which checks that the committed files are what this produces and runs the decoder over them.

#include <bifrons/schema.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <complex>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "lib/decoder.hpp"
#include "tools/value_json.hpp"

namespace conformance {

using bifrons::tools::json;

// ---- the types -----------------------------------------------------------------------------------

enum class Color : std::int16_t { red = -1, green = 300 };
enum class Flag : std::uint8_t { off, on };

struct Scalars {
  bool flag = false;
  char letter = 'a';
  std::byte raw{};
  std::int8_t i8 = 0;
  std::int16_t i16 = 0;
  std::int32_t i32 = 0;
  std::int64_t i64 = 0;
  std::uint8_t u8 = 0;
  std::uint16_t u16 = 0;
  std::uint32_t u32 = 0;
  std::uint64_t u64 = 0;
  float f32 = 0;
  double f64 = 0;
  Color color = Color::red;
  Flag on = Flag::off;
};

struct Texts {
  std::string utf8;
  std::u16string utf16;
  std::u32string utf32;
  std::vector<std::string> words;
};

struct Containers {
  std::vector<std::int32_t> block;
  std::vector<bool> bits;
  std::deque<bool> bytes_of_bools;
  std::array<std::int16_t, 3> fixed{};
  std::bitset<10> set_bits;
  std::vector<Color> colors;
  std::vector<std::int32_t> varints;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("block", block), bifrons::named("bits", bits), bifrons::named("bytes_of_bools", bytes_of_bools),
       bifrons::named("fixed", fixed), bifrons::named("set_bits", set_bits), bifrons::named("colors", colors),
       bifrons::named("varints", bifrons::varint(varints)));
  }
};

struct Keyed {
  std::set<std::int32_t> ids;
  std::map<std::string, std::int32_t> counts;
  std::multiset<std::int8_t> repeats;
};

struct Choices {
  std::optional<std::int32_t> maybe;
  std::optional<std::optional<std::int32_t>> nested;
  std::variant<std::monostate, std::int32_t, std::string> either;
  std::pair<std::uint8_t, bool> pair{};
  std::tuple<> nothing;
  std::complex<double> z;
  std::chrono::milliseconds elapsed{};
  std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds> when;
};

struct PointV1 {
  std::int32_t x = 0;
  std::int32_t y = 0;
};
struct Point {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t z = 7;  // a default other than zero: what readers give to data without it
};
struct PointV3 {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t z = 7;
  std::string label;
};
struct Reading {
  static constexpr std::uint32_t bifrons_version = 2;
  std::int32_t millikelvin = 0;
  bifrons::deprecated<std::string> old_unit;
  Point at;
  template <class Archive>
  void serialize(Archive& ar, std::uint32_t) {
    ar(bifrons::named("millikelvin", millikelvin), bifrons::named("old_unit", old_unit), bifrons::named("at", at));
  }
};
template <class P>
struct ShapesOf {
  P origin;
  std::vector<P> path;
  std::optional<Reading> reading;
};
using Shapes = ShapesOf<Point>;

struct Tick {
  std::int32_t id = 0;
  double price = 0;
};
struct TickV1 {
  std::int32_t id = 0;
};
struct TickV3 {
  std::int32_t id = 0;
  double price = 0;
  std::uint16_t venue = 0;
};
struct TickMisfit {
  std::int16_t id = 0;
};
struct Ticks {
  Tick last;
  std::vector<Tick> history;
  std::array<Tick, 2> pair;
};
template <class T>
struct TicksOf {
  T last;
  std::vector<T> history;
  std::array<T, 2> pair;
};

struct Node {
  std::int32_t value = 0;
  const Node* next = nullptr;
};
struct Link {
  std::int32_t value = 0;
  std::shared_ptr<Link> next;
  std::weak_ptr<Link> prev;
};
struct Graph {
  std::unique_ptr<std::int32_t> owned;
  std::vector<std::shared_ptr<std::string>> shared;
  std::weak_ptr<std::string> watcher;
  std::vector<Node> nodes;
  const Node* current = nullptr;
  std::shared_ptr<Link> list;
};

// Polymorphic pointers and virtual bases (docs/schema.md section 6).
struct Animal {
  std::int32_t legs = 0;
  virtual ~Animal() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("legs", legs));
  }
};
struct Dog final : Animal {
  std::string name;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("animal", bifrons::base<Animal>(*this)), bifrons::named("name", name));
  }
};
struct Cat final : Animal {
  std::int32_t lives = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("animal", bifrons::base<Animal>(*this)), bifrons::named("lives", lives));
  }
};
struct Shelter final : Animal {
  std::vector<std::unique_ptr<Animal>> residents;  // objects inside a polymorphic object
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("animal", bifrons::base<Animal>(*this)), bifrons::named("residents", residents));
  }
};
struct VRoot {
  std::int32_t root = 0;
};
struct VLeft : virtual VRoot {
  std::int32_t left = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("root", bifrons::base<VRoot>(*this)), bifrons::named("left", left));
  }
};
struct VRight : virtual VRoot {
  std::int32_t right = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("root", bifrons::base<VRoot>(*this)), bifrons::named("right", right));
  }
};
struct VJoin final : VLeft, VRight {
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("left", bifrons::base<VLeft>(*this)), bifrons::named("right", bifrons::base<VRight>(*this)));
  }
};
struct Zoo {
  std::vector<std::shared_ptr<Animal>> animals;
  const Animal* favourite = nullptr;
  std::unique_ptr<Animal> shelter;
  VJoin diamond;
};

}  // namespace conformance

BIFRONS_REGISTER(conformance::Dog, "conformance.Dog");
BIFRONS_REGISTER(conformance::Cat, "conformance.Cat");
BIFRONS_REGISTER(conformance::Shelter, "conformance.Shelter");

template <>
inline constexpr bool bifrons::enable_record<conformance::Tick> = true;
template <>
inline constexpr bool bifrons::enable_record<conformance::TickV1> = true;
template <>
inline constexpr bool bifrons::enable_record<conformance::TickV3> = true;
template <>
inline constexpr bool bifrons::enable_record<conformance::TickMisfit> = true;
template <>
inline constexpr bool bifrons::enable_identity<conformance::Node> = true;
// The other versions of a type carry its name, as they would in the program that wrote them.
template <>
inline constexpr std::string_view bifrons::schema_name<conformance::PointV1> = "conformance::Point";
template <>
inline constexpr std::string_view bifrons::schema_name<conformance::PointV3> = "conformance::Point";

namespace conformance {

// ---- building a file ---------------------------------------------------------------------------

inline std::string hex(const std::vector<std::byte>& b) { return bifrons::tools::to_hex(b); }

inline json strip_dollars(const json& v) {
  if (v.is_array()) {
    json out = json::array();
    for (const json& item : v.items()) out.push(strip_dollars(item));
    return out;
  }
  if (!v.is_object()) return v;
  json out = json::object();
  for (const auto& [k, item] : v.members())
    if (k.empty() || k[0] != '$') out.set(k, strip_dollars(item));
  return out;
}

/// The vectors of one file; problems collects what does not hold (the generator and the test
/// report them).
template <class Root, class... Registered>
class file {
 public:
  file(std::string name, std::string description, std::vector<std::string>& problems)
      : name_(std::move(name)), description_(std::move(description)), problems_(problems) {
    schema_text_ = bifrons::schema<Root, Registered...>();
    schema_ = bifrons::tools::load_schema_text(schema_text_);
  }

  /// The bytes the writer writes for v.
  file& value(const std::string& name, const Root& v) {
    const std::vector<std::byte> bytes = bifrons::to_bytes(v);
    json vec = json::object();
    vec.set("name", name);
    vec.set("hex", hex(bytes));
    vec.set("value", value_json::of<std::tuple<Registered...>>(v));
    const bifrons::tools::decode_result decoded = bifrons::tools::decode(schema_, bytes);
    if (!decoded.ok || !(decoded.value == *vec.find("value")))
      problems_.push_back(name_ + "/" + name + ": the decoder reads " +
                          (decoded.ok ? bifrons::tools::to_text(decoded.value)
                                      : std::string(bifrons::tools::errc_name(decoded.code))) +
                          ", the value is " + bifrons::tools::to_text(*vec.find("value")));
    vectors_.push(std::move(vec));
    return *this;
  }

  /// The bytes another type's writer wrote (an older or newer version of Root).
  template <class W>
  file& written_as(const std::string& name, const W& w) {
    return bytes(name, bifrons::to_bytes(w));
  }

  /// Any input, read with the given limits. rewrites: whether the C++ writer's bytes for what it
  /// read are what writing the value gives (not where only the order of set elements differs).
  file& bytes(const std::string& name, const std::vector<std::byte>& input, const bifrons::read_options& limits = {},
              bool rewrites = true) {
    json vec = json::object();
    vec.set("name", name);
    vec.set("hex", hex(input));
    bifrons::tools::decode_options options;
    json limit_object = json::object();
    const bifrons::read_options defaults;
    if (limits.max_depth != defaults.max_depth) limit_object.set("max_depth", json::integer(limits.max_depth));
    if (limits.max_elements != defaults.max_elements)
      limit_object.set("max_elements", json::integer(limits.max_elements));
    if (limits.max_objects != defaults.max_objects) limit_object.set("max_objects", json::integer(limits.max_objects));
    options.max_depth = limits.max_depth;
    options.max_elements = limits.max_elements;
    options.max_objects = limits.max_objects;
    if (!limit_object.members().empty()) vec.set("read_options", std::move(limit_object));

    auto typed = bifrons::try_from_bytes<Root>(input, limits);
    const bifrons::tools::decode_result decoded = bifrons::tools::decode(schema_, input, options);
    if (!typed) {
      json error = json::object();
      error.set("code", bifrons::tools::errc_name(typed.code()));
      error.set("offset", json::integer(typed.offset()));
      vec.set("error", std::move(error));
    } else {
      if (!decoded.ok) {
        problems_.push_back(name_ + "/" + name + ": the library reads it, the decoder fails with " +
                            std::string(bifrons::tools::errc_name(decoded.code)));
        return *this;
      }
      // The decoder's reading, checked against the library's (the data's $ members aside).
      const json expected = value_json::of<std::tuple<Registered...>>(*typed);
      if (rewrites && !(strip_dollars(decoded.value) == strip_dollars(expected)))
        problems_.push_back(name_ + "/" + name + ": the decoder reads " + bifrons::tools::to_text(decoded.value) +
                            ", the library " + bifrons::tools::to_text(expected));
      vec.set("value", decoded.value);
      const std::vector<std::byte> again = bifrons::to_bytes(*typed);
      if (again != input && rewrites) vec.set("encodes_to", hex(again));
    }
    vectors_.push(std::move(vec));
    return *this;
  }

  json build() const {
    json doc = json::object();
    doc.set("bifrons_conformance", json::integer(1));
    doc.set("name", name_);
    doc.set("description", description_);
    doc.set("schema", bifrons::tools::parse_json(schema_text_));
    doc.set("vectors", vectors_);
    return doc;
  }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::string description_;
  std::vector<std::string>& problems_;
  std::string schema_text_;
  bifrons::tools::schema schema_;
  json vectors_ = json::array();
};

inline std::vector<std::byte> B(std::initializer_list<unsigned> list) {
  std::vector<std::byte> out;
  for (unsigned b : list) out.push_back(std::byte(b));
  return out;
}

inline bifrons::read_options with_depth(std::size_t depth) {
  bifrons::read_options o;
  o.max_depth = depth;
  return o;
}
inline bifrons::read_options with_elements(std::size_t n) {
  bifrons::read_options o;
  o.max_elements = n;
  return o;
}
inline bifrons::read_options with_objects(std::size_t n) {
  bifrons::read_options o;
  o.max_objects = n;
  return o;
}

/// Every conformance file, in the order of the directory listing.
inline std::vector<std::pair<std::string, json>> generate(std::vector<std::string>& problems) {
  std::vector<std::pair<std::string, json>> out;
  const auto add = [&](const auto& f) { out.emplace_back(f.name(), f.build()); };
  using lim8 = std::numeric_limits<std::int8_t>;
  using lim16 = std::numeric_limits<std::int16_t>;
  using lim32 = std::numeric_limits<std::int32_t>;
  using lim64 = std::numeric_limits<std::int64_t>;

  {
    file<Scalars> f("scalars",
                    "Every primitive type and enums as struct fields: varints (zigzag for signed types), "
                    "raw bytes, IEEE-754; their edges, and the errors of scalars.",
                    problems);
    f.value("zero", Scalars{});
    f.value("edges", Scalars{true, '\xff', std::byte{0xAB}, lim8::min(), lim16::max(), lim32::min(), lim64::max(), 255,
                             65535, std::numeric_limits<std::uint32_t>::max(),
                             std::numeric_limits<std::uint64_t>::max(), -1.5f, 1e300, Color::green, Flag::on});
    f.value("small negative", Scalars{false, 'A', std::byte{0}, -1, -64, -65, -1000000, 127, 128, 16383, 16384, 0.1f,
                                      -0.0, Color::red, Flag::off});
    const std::vector<std::byte> zero = bifrons::to_bytes(Scalars{});
    std::vector<std::byte> bad_bool = zero;
    bad_bool[1] = std::byte{2};
    f.bytes("bool other than 0 or 1", bad_bool);
    std::vector<std::byte> wide = zero;  // i8 = 128: zigzag 256 does not fit 8 bits
    wide[4] = std::byte{0x80};
    wide.insert(wide.begin() + 5, std::byte{0x02});
    wide[0] = std::byte{static_cast<unsigned char>(static_cast<unsigned>(wide[0]) + 2)};
    f.bytes("i8 out of range", wide);
    std::vector<std::byte> overlong = zero;  // i16 = 0 as 80 00: not minimal
    overlong[5] = std::byte{0x80};
    overlong.insert(overlong.begin() + 6, std::byte{0x00});
    overlong[0] = std::byte{static_cast<unsigned char>(static_cast<unsigned>(overlong[0]) + 2)};
    f.bytes("non-minimal varint", overlong);
    f.bytes("empty input", {});
    f.bytes("body longer than the input", std::vector<std::byte>(zero.begin(), zero.end() - 3));
    std::vector<std::byte> trailing = zero;
    trailing.push_back(std::byte{0});
    f.bytes("trailing byte", trailing);
    std::vector<std::byte> header = B({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02});
    f.bytes("varint of more than 64 bits", header);
    add(f);
  }
  {
    using Floats = std::tuple<float, float, float, float, double, double, double, double, double, double>;
    file<Floats> f("floats", "Floating point, bit-exact: signed zero, infinities, NaNs with payloads, subnormals.",
                   problems);
    f.value("special values",
            Floats{-0.0f, std::numeric_limits<float>::infinity(), std::bit_cast<float>(std::uint32_t{0x7FC00001u}),
                   std::bit_cast<float>(std::uint32_t{0x7FC00000u}), 0.1, -std::numeric_limits<double>::infinity(),
                   std::bit_cast<double>(std::uint64_t{0x7FF80000DEADBEEFu}),
                   std::bit_cast<double>(std::uint64_t{0xFFF8000000000000u}), std::numeric_limits<double>::denorm_min(),
                   123456789.125});
    f.bytes("truncated double", B({0, 0, 0x80, 0x3F, 0, 0, 0x80, 0x3F, 0, 0, 0x80, 0x3F, 0, 0, 0x80, 0x3F, 0, 0, 0}));
    add(f);
  }
  {
    file<Texts> f("strings",
                  "Strings of 1-, 2- and 4-byte code units: valid text as JSON strings, other code units as "
                  "{\"units\": [...]}; counts checked against the bytes left.",
                  problems);
    f.value("text", Texts{"gr\xC3\xBC\xC3\x9F", u"A\u00E9\U0001F600", U"\U0010FFFF\u20AC", {"a", "", "bc"}});
    f.value("not text",
            Texts{"\xFF\xFE", std::u16string(1, char16_t{0xD800}), std::u32string(1, char32_t{0x110000}), {}});
    f.value("empty", Texts{});
    f.bytes("count beyond the input", B({0x08, 0x05, 0x61, 0x62, 0x00, 0x00, 0x00, 0x00, 0x00}));
    add(f);
  }
  {
    file<Containers> f("containers",
                       "Sequences and fixed arrays: raw blocks of numbers, packed vector<bool>, bool blocks, "
                       "bitsets, enums one varint each, bifrons::varint arrays; element limits and padding bits.",
                       problems);
    Containers c;
    c.block = {1, -2, 256};
    c.bits = {true, false, true, true, false, false, false, false, true};
    c.bytes_of_bools = {true, false};
    c.fixed = {1, -1, 300};
    c.set_bits.set(0).set(9);
    c.colors = {Color::green, Color::red};
    c.varints = {-1, 300};
    f.value("values", c);
    f.value("empty", Containers{});
    const std::vector<std::byte> full = bifrons::to_bytes(c);
    f.bytes("too many elements", full, with_elements(2));
    std::vector<std::byte> bad_bool = full;
    bad_bool[18] = std::byte{2};  // the first bool of bytes_of_bools
    f.bytes("bool block with 02", bad_bool);
    std::vector<std::byte> padding = full;
    padding[27] = std::byte{0x06};  // the bitset's second byte: bit 10 set
    f.bytes("bitset padding bit set", padding);
    add(f);
  }
  {
    file<Keyed> f("associative",
                  "Sets, maps and multisets: elements in wire order, duplicate keys refused in sets and maps.",
                  problems);
    f.value("values", Keyed{{300, -1}, {{"b", -1}, {"a", 1}}, {1, 1, -2}});
    f.bytes("duplicate set key", B({0x0a, 0x02, 0x02, 0x02, 0x00, 0x00}));
    f.bytes("duplicate map key", B({0x12, 0x00, 0x02, 0x01, 0x61, 0x02, 0x01, 0x61, 0x04, 0x00}));
    // Readers accept elements in any order; the value keeps the wire order, so writing it back
    // gives the same bytes (a C++ std::set would sort them).
    f.bytes("set elements out of order", B({0x0a, 0x02, 0x04, 0x02, 0x00, 0x00}), {}, false);
    add(f);
  }
  {
    file<Choices> f("choices",
                    "optional (nested: {\"some\": ...}), variant with monostate, pair, empty tuple, complex, "
                    "duration and time_point; invalid tags and indices.",
                    problems);
    Choices c;
    c.maybe = 5;
    c.nested = std::optional<std::int32_t>{};
    c.either = std::string("hi");
    c.pair = {200, true};
    c.z = {1.5, -2};
    c.elapsed = std::chrono::milliseconds(-1500);
    c.when = std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds>(std::chrono::seconds(1700000000));
    f.value("values", c);
    f.value("defaults", Choices{});
    const std::vector<std::byte> zero = bifrons::to_bytes(Choices{});
    std::vector<std::byte> bad_tag = zero;
    bad_tag[1] = std::byte{2};
    f.bytes("optional tag 02", bad_tag);
    std::vector<std::byte> bad_index = zero;
    bad_index[3] = std::byte{3};
    f.bytes("variant index 3 of 3", bad_index);
    add(f);
  }
  {
    file<Shapes> f("struct_evolution",
                   "Struct envelopes: a newer writer's fields skipped ($skipped), an older writer's missing "
                   "fields at their defaults, class versions ($version), retired fields, depth limits.",
                   problems);
    Shapes s;
    s.origin = {1, -2, 3};
    s.path = {{1, 1, 1}, {}};
    s.reading = Reading{300, {}, {4, 5, 6}};
    f.value("values", s);
    f.written_as("older writer (Point without z)", ShapesOf<PointV1>{{1, 2}, {{3, 4}}, std::nullopt});
    f.written_as("newer writer (Point with a label)", ShapesOf<PointV3>{{1, 2, 3, "new"}, {}, std::nullopt});
    const std::vector<std::byte> full = bifrons::to_bytes(s);
    f.bytes("nested too deep", full, with_depth(2));
    f.bytes("struct nested past the limit", full, with_depth(0));
    std::vector<std::byte> cut = full;
    cut.resize(full.size() - 1);
    f.bytes("truncated", cut);
    // A field that starts inside its envelope but ends beyond it: origin's body says 1 byte.
    f.bytes("field crossing the end of its envelope", B({0x0a, 0x02, 0x80, 0x01, 0x00, 0x00}));
    add(f);
  }
  {
    file<Ticks> f("records",
                  "Records: alone (a header), in sequences and fixed arrays (a stride); older and newer "
                  "writers' strides; strides inside a field refused.",
                  problems);
    f.value("values", Ticks{{7, 1.5}, {{1, 0.5}, {-2, -0.25}}, {{{3, 3.0}, {4, 4.0}}}});
    f.value("empty", Ticks{});
    f.written_as("older writer (Tick without price)", TicksOf<TickV1>{{7}, {{1}, {2}}, {{{3}, {4}}}});
    f.written_as("newer writer (Tick with venue)",
                 TicksOf<TickV3>{{7, 1.5, 9}, {{1, 0.5, 1}}, {{{3, 3.0, 3}, {4, 4.0, 4}}}});
    f.written_as("stride inside a field", TicksOf<TickMisfit>{{1}, {}, {}});
    std::vector<std::byte> versioned = bifrons::to_bytes(Ticks{});
    versioned[1] |= std::byte{1};  // the header of `last`: 12 << 1, with the version bit
    f.bytes("record header with the version bit", versioned);
    f.bytes("records beyond the input", B({0x0a, 0x00, 0x05, 0x0c, 0x00, 0x00, 0x00}));
    add(f);
  }
  {
    file<Graph> f("pointers",
                  "unique_ptr, shared_ptr shared twice, weak_ptr, by-value objects with identity and raw "
                  "pointers to them, a doubly linked list: object ids, references, and the references a "
                  "reader refuses.",
                  problems);
    Graph g;
    g.owned = std::make_unique<std::int32_t>(-3);
    const auto text = std::make_shared<std::string>("ab");
    g.shared = {text, text, nullptr};
    g.watcher = text;
    g.nodes = {{1, nullptr}, {2, nullptr}};
    g.nodes[1].next = &g.nodes[0];
    g.current = &g.nodes[1];
    g.list = std::make_shared<Link>(Link{10, nullptr, {}});
    g.list->next = std::make_shared<Link>(Link{20, nullptr, g.list});
    f.value("graph", g);
    f.value("empty", Graph{});
    // owned: a reference (tag 3) where only a new object may be.
    f.bytes("unique_ptr given a reference", B({0x0c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00}));
    // shared: a reference to object 2 when only 1 exists.
    f.bytes("reference to an object not read yet", B({0x0e, 0x01, 0x02, 0x01, 0x04, 0x00, 0x00, 0x00}));
    f.bytes("tag 2 (polymorphic objects) refused", B({0x0c, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00}));
    // current: a raw pointer given a new object.
    f.bytes("raw pointer given a new object", B({0x0e, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x00}));
    // current refers to the string (object 1) as a Node.
    f.bytes("reference to an object of another type", B({0x12, 0x00, 0x01, 0x01, 0x01, 0x61, 0x00, 0x00, 0x03, 0x00}));
    f.bytes("too many objects", bifrons::to_bytes(g), with_objects(3));
    add(f);
  }
  {
    file<Zoo, Dog, Cat, Shelter> f(
        "polymorphic",
        "pointers to a polymorphic class holding registered classes (tag 2): type names listed with the "
        "outermost object that uses them, type indexes, objects inside counted, references through the "
        "base; a virtual base written once in a diamond; the headers and classes a reader refuses.",
        problems);
    Zoo z;
    auto rex = std::make_shared<Dog>();
    rex->legs = 4;
    rex->name = "Rex";
    auto tom = std::make_shared<Cat>();
    tom->legs = 4;
    tom->lives = 9;
    z.animals = {rex, tom, rex, std::make_shared<Animal>(), nullptr};
    z.animals[3]->legs = 2;
    z.favourite = tom.get();
    auto shelter = std::make_unique<Shelter>();
    shelter->residents.push_back(std::make_unique<Cat>());
    shelter->residents.push_back(std::make_unique<Dog>());
    z.shelter = std::move(shelter);
    z.diamond.root = 1;
    z.diamond.left = 2;
    z.diamond.right = 3;
    f.value("zoo", z);
    f.value("empty", Zoo{});
    // Zoo: animals (count 1, then the animal), favourite, shelter, diamond: [[[root] left] [right]].
    const auto zoo = [](std::vector<unsigned> animal) {
      std::vector<unsigned> body{0x01};
      body.insert(body.end(), animal.begin(), animal.end());
      for (unsigned b : {0x00u, 0x00u, 0x0cu, 0x06u, 0x02u, 0x00u, 0x00u, 0x02u, 0x00u}) body.push_back(b);
      std::vector<std::byte> out{std::byte(body.size() << 1)};
      for (unsigned b : body) out.push_back(std::byte(b));
      return out;
    };
    // A cat: tag 2, one name, "conformance.Cat" (15 bytes), type 1, nothing inside, [[legs] lives].
    const std::vector<unsigned> cat_name{0x0f, 'c', 'o', 'n', 'f', 'o', 'r', 'm',
                                         'a',  'n', 'c', 'e', '.', 'C', 'a', 't'};
    const auto cat = [&](unsigned names, std::vector<unsigned> name, unsigned index, unsigned inside) {
      std::vector<unsigned> a{0x02, 0x00, names};
      a.insert(a.end(), name.begin(), name.end());
      for (unsigned b : {index, inside, 0x06u, 0x02u, 0x08u, 0x12u}) a.push_back(b);
      return a;
    };
    f.bytes("a cat", zoo(cat(1, cat_name, 1, 0)));
    std::vector<unsigned> cow = cat_name;
    cow[13] = 'C';
    cow[14] = 'o';
    cow[15] = 'w';
    f.bytes("a type name this program has not registered", zoo(cat(1, cow, 1, 0)));
    f.bytes("a type index beyond the names", zoo(cat(1, cat_name, 2, 0)));
    f.bytes("no type names", zoo({0x02, 0x00, 0x00, 0x01, 0x00, 0x06, 0x02, 0x08, 0x12}));
    f.bytes("a type name of no bytes", zoo({0x02, 0x00, 0x01, 0x00, 0x01, 0x00, 0x06, 0x02, 0x08, 0x12}));
    f.bytes("a type index without a name before it", zoo({0x02, 0x01, 0x00, 0x06, 0x02, 0x08, 0x12}));
    f.bytes("more objects inside than bytes", zoo(cat(1, cat_name, 1, 40)));
    // The unread object keeps its id ("unread" in the value), which a writer of the value writes
    // back; the C++ writer, whose object does not keep it, counts none (so no encodes_to).
    f.bytes("fewer objects inside than counted", zoo(cat(1, cat_name, 1, 1)), {}, false);
    add(f);
  }
  return out;
}

}  // namespace conformance
