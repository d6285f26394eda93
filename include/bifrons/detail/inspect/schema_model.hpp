// SPDX-License-Identifier: MIT
#pragma once
// A schema document (docs/schema.md) loaded into types that the tools walk: the checker
// (bifrons-compat) and the schema-driven decoder (bifrons-inspect, bifrons::to_json, the
// conformance tests).

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "json_text.hpp"

namespace bifrons::detail::inspect {

enum class kind : std::uint8_t {
  primitive,
  named,
  string,
  sequence,
  bitvector,
  array,
  bitset,
  set,
  map,
  tuple,
  complex,
  optional,
  variant,
  duration,
  time_point,
  pointer,
  fixed,
  deprecated,
};

enum class primitive : std::uint8_t {
  boolean,
  character,
  byte,
  i8,
  i16,
  i32,
  i64,
  u8,
  u16,
  u32,
  u64,
  f32,
  f64,
  monostate
};

/// A type expression. args holds the inner expressions: element (sequence, array), key and value
/// (set, map), elements (tuple), alternatives (variant), of (complex, optional, fixed,
/// deprecated), rep (duration), duration (time_point), to (pointer).
struct type {
  inspect::kind kind = kind::primitive;
  primitive prim = primitive::boolean;  // primitive; string: its unit
  std::string name;                     // named: the type's name; pointer: the role
  std::string period;                   // duration: "num/den"
  std::string clock;                    // time_point
  bool view = false;
  bool varint = false;
  bool multi = false;
  bool polymorphic = false;  // pointer: may hold a registered class related to `to` (tag 2)
  std::uint64_t size = 0;  // array, bitset
  std::vector<type> args;
  std::vector<std::byte> writes;  // deprecated

  [[nodiscard]] const type& arg(std::size_t i = 0) const { return args.at(i); }
};

struct field {
  std::string name;
  inspect::type type;
  std::vector<std::byte> default_bytes;
  bool base = false;
  bool is_virtual = false;   // a virtual base: written only where the complete object first meets it
  std::uint64_t offset = 0;  // records
  std::uint64_t width = 0;   // records
};

enum class definition_kind : std::uint8_t { structure, record, enumeration };

struct definition {
  definition_kind kind = definition_kind::structure;
  std::string name;
  std::vector<field> fields;
  std::optional<std::uint32_t> version;
  bool identity = false;
  bool refuse_newer = false;  // bifrons_refuse_newer: data of a later version fails (newer_version)
  bool hook = false;
  bool abstract = false;  // a struct no object has as its own class: tag 1 cannot create one
  std::vector<std::string> bases;  // a registered class: the classes it reaches through registered relations
  std::uint64_t size = 0;     // records
  primitive underlying{};      // enums
};

struct schema {
  type root;
  std::map<std::string, definition> types;
  /// Registered name -> the struct it stands for (docs/schema.md section 6).
  std::map<std::string, std::string> polymorphic;

  [[nodiscard]] const definition& at(const std::string& name) const { return types.at(name); }
  /// The definition a type expression names, or nullptr if it is not a named type.
  [[nodiscard]] const definition* named(const type& t) const {
    return t.kind == kind::named ? &types.at(t.name) : nullptr;
  }
};

/// The largest fixed size a schema may give, in bytes or elements: an array's or bitset's size,
/// a record's width, the fewest bytes a value takes. No real type comes near it, and below it
/// the tools' size arithmetic cannot overflow (a larger schema is refused, naming the type).
inline constexpr std::uint64_t max_schema_size = std::uint64_t{1} << 32;
/// How deeply a type expression may nest inside one field (`optional<vector<tuple<...>>>`), and
/// records inside records: the tools recurse on both, so a hostile schema must not be able to
/// exhaust their stack. Real types nest a few levels; structs nest through names, which the
/// decoder bounds with max_depth.
inline constexpr std::size_t max_schema_nesting = 64;

/// A schema document that does not follow docs/schema.md: where (a JSON path) and why.
class schema_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline schema load_schema(const json& document);
inline schema load_schema_text(std::string_view text);

/// The one-line spelling of docs/schema.md, section 8.
inline std::string spell(const type& t);
inline std::string_view primitive_name(primitive p);

/// A primitive other than monostate: arrays of them are raw blocks, and they are record fields.
inline bool block_element(const type& t);
/// The width of a block element (also of a fixed-width integer).
inline std::size_t block_width(primitive p);
inline bool is_integer(primitive p);
inline bool is_signed(primitive p);
inline bool is_float(primitive p);

/// The fewest bytes a value of t takes (docs/schema.md, section 9), alone and as an element of
/// a sequence or array. Saturates at the largest std::uint64_t rather than wrapping (a loaded
/// schema gives at most max_schema_size).
inline std::uint64_t min_size(const schema& s, const type& t);
inline std::uint64_t element_min_size(const schema& s, const type& t);

/// The width of a record field's type (block elements, enums, arrays of them, records); throws
/// schema_error if it exceeds max_schema_size (load_schema refuses such schemas).
inline std::uint64_t record_width(const schema& s, const type& t);

/// Lowercase hex without separators, both ways (from_hex throws std::invalid_argument).
inline std::string to_hex(const std::vector<std::byte>& bytes);
inline std::vector<std::byte> from_hex(std::string_view hex);

// ---- implementation -------------------------------------------------------------------------

namespace model_impl {

inline constexpr std::pair<std::string_view, primitive> primitives[] = {
    {"bool", primitive::boolean}, {"char", primitive::character},
    {"byte", primitive::byte},    {"i8", primitive::i8},
    {"i16", primitive::i16},      {"i32", primitive::i32},
    {"i64", primitive::i64},      {"u8", primitive::u8},
    {"u16", primitive::u16},      {"u32", primitive::u32},
    {"u64", primitive::u64},      {"f32", primitive::f32},
    {"f64", primitive::f64},      {"monostate", primitive::monostate},
};

inline std::optional<primitive> find_primitive(std::string_view name) {
  for (const auto& [n, p] : model_impl::primitives)
    if (n == name) return p;
  return std::nullopt;
}

/// What fixed() takes: bool, char, byte, an integer, or an enum (a name that is not a primitive;
/// checked to be an enum once every definition is loaded).
inline bool fixed_width_integer(const type& t) {
  if (t.kind == kind::named) return true;
  return t.kind == kind::primitive && t.prim != primitive::f32 && t.prim != primitive::f64 &&
         t.prim != primitive::monostate;
}

inline constexpr std::uint64_t max_fixed_size = max_schema_size;

class loader {
 public:
  explicit loader(const json& doc) : doc_(doc) {}

  schema load() {
    if (!doc_.is_object()) fail("", "a schema is a JSON object");
    allowed(doc_, "", {"bifrons_schema", "format", "root", "types", "polymorphic"});
    if (number(member(doc_, "", "bifrons_schema"), "bifrons_schema") != 1)
      fail("bifrons_schema", "only version 1 of the schema model is known");
    if (number(member(doc_, "", "format"), "format") != 1) fail("format", "only format 1 is known");
    const json& types = member(doc_, "", "types");
    if (!types.is_object()) fail("types", "an object");
    for (const auto& [name, def] : types.members()) names_.insert(name);
    for (const auto& [name, def] : types.members()) result_.types.emplace(name, definition_of(name, def));
    result_.root = expression(member(doc_, "", "root"), "root");
    if (const json* registered = doc_.find("polymorphic")) polymorphic(*registered);
    return std::move(result_);
  }

  /// The registered names: each of one struct, each struct under one name (as the registry
  /// keeps them); "bases" only on those structs, naming structs.
  void polymorphic(const json& registered) {
    if (!registered.is_object() || registered.members().empty()) fail("polymorphic", "an object, absent when empty");
    std::set<std::string> structs;
    for (const auto& [name, target] : registered.members()) {
      const std::string path = "polymorphic[\"" + name + "\"]";
      if (name.empty() || name.size() > 255) fail(path, "a registered name has 1 to 255 bytes");
      const auto it = target.is_string() ? result_.types.find(target.text()) : result_.types.end();
      if (it == result_.types.end() || it->second.kind != definition_kind::structure)
        fail(path, "the name of a struct");
      if (!structs.insert(target.text()).second) fail(path, "\"" + target.text() + "\" is registered under two names");
      result_.polymorphic.emplace(name, target.text());
    }
    for (const auto& [name, d] : result_.types)
      if (!d.bases.empty() && !structs.count(name))
        fail("types[\"" + name + "\"].bases", "only a registered class (a value of \"polymorphic\") lists bases");
  }

 private:
  [[noreturn]] static void fail(const std::string& path, const std::string& why) {
    throw schema_error("schema: " + (path.empty() ? std::string("the document") : path) + ": " + why);
  }

  static const json& member(const json& object, const std::string& path, std::string_view key) {
    const json* v = object.find(key);
    if (v == nullptr) fail(path, "missing \"" + std::string(key) + "\"");
    return *v;
  }
  static void allowed(const json& object, const std::string& path, std::initializer_list<std::string_view> keys) {
    for (const auto& [k, v] : object.members())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) fail(path, "unknown key \"" + k + "\"");
  }
  static std::uint64_t number(const json& v, const std::string& path) {
    std::uint64_t n = 0;
    const std::string& t = v.text();
    if (!v.is_number() || std::from_chars(t.data(), t.data() + t.size(), n).ptr != t.data() + t.size())
      fail(path, "a non-negative integer");
    return n;
  }
  static bool flag(const json& object, std::string_view key, const std::string& path) {
    const json* v = object.find(key);
    if (v == nullptr) return false;
    if (!v->is_bool() || !v->boolean()) fail(path + "." + std::string(key), "only `true` (absent when false)");
    return true;
  }
  static std::vector<std::byte> hex(const json& v, const std::string& path) {
    if (!v.is_string()) fail(path, "a hex string");
    try {
      return from_hex(v.text());
    } catch (const std::invalid_argument&) {
      fail(path, "a hex string");
    }
  }

  type expression(const json& v, const std::string& path, std::size_t depth = 1) {
    // The tools recurse on type expressions: a hostile schema must not exhaust their stack.
    if (depth > max_schema_nesting)
      fail(path, "type expressions nest more than " + std::to_string(max_schema_nesting) + " deep");
    type t;
    if (v.is_string()) {
      if (const auto p = find_primitive(v.text())) {
        t.prim = *p;
        return t;
      }
      if (!names_.count(v.text())) fail(path, "\"" + v.text() + "\" is neither a primitive nor a type of \"types\"");
      t.kind = kind::named;
      t.name = v.text();
      return t;
    }
    if (!v.is_object()) fail(path, "a type expression is a string or an object");
    const json& k = member(v, path, "kind");
    const std::string kind_name = k.is_string() ? k.text() : "";
    const auto sub = [&](std::string_view key) {
      return expression(member(v, path, key), path + "." + std::string(key), depth + 1);
    };
    const auto subs = [&](std::string_view key) {
      const json& list = member(v, path, key);
      if (!list.is_array()) fail(path + "." + std::string(key), "an array");
      std::vector<type> out;
      for (std::size_t i = 0; i < list.items().size(); ++i)
        out.push_back(expression(list.items()[i], path + "." + std::string(key) + "[" + std::to_string(i) + "]",
                                 depth + 1));
      return out;
    };
    if (kind_name == "string") {
      allowed(v, path, {"kind", "unit", "view"});
      t.kind = kind::string;
      const std::string& unit = member(v, path, "unit").text();
      t.prim = unit == "char" ? primitive::character : unit == "u16" ? primitive::u16 : primitive::u32;
      if (unit != "char" && unit != "u16" && unit != "u32") fail(path + ".unit", "char, u16 or u32");
      t.view = flag(v, "view", path);
    } else if (kind_name == "sequence") {
      allowed(v, path, {"kind", "element", "varint", "view"});
      t.kind = kind::sequence;
      t.args.push_back(sub("element"));
      t.varint = flag(v, "varint", path);
      t.view = flag(v, "view", path);
    } else if (kind_name == "bitvector") {
      allowed(v, path, {"kind"});
      t.kind = kind::bitvector;
    } else if (kind_name == "array") {
      allowed(v, path, {"kind", "element", "size", "varint"});
      t.kind = kind::array;
      t.args.push_back(sub("element"));
      t.size = number(member(v, path, "size"), path + ".size");
      if (t.size > max_fixed_size) fail(path + ".size", "more than 2^32 elements");
      t.varint = flag(v, "varint", path);
    } else if (kind_name == "bitset") {
      allowed(v, path, {"kind", "size"});
      t.kind = kind::bitset;
      t.size = number(member(v, path, "size"), path + ".size");
      if (t.size > max_fixed_size) fail(path + ".size", "more than 2^32 bits");
    } else if (kind_name == "set") {
      allowed(v, path, {"kind", "key", "multi"});
      t.kind = kind::set;
      t.args.push_back(sub("key"));
      t.multi = flag(v, "multi", path);
    } else if (kind_name == "map") {
      allowed(v, path, {"kind", "key", "value", "multi"});
      t.kind = kind::map;
      t.args.push_back(sub("key"));
      t.args.push_back(sub("value"));
      t.multi = flag(v, "multi", path);
    } else if (kind_name == "tuple") {
      allowed(v, path, {"kind", "elements"});
      t.kind = kind::tuple;
      t.args = subs("elements");
    } else if (kind_name == "variant") {
      allowed(v, path, {"kind", "alternatives"});
      t.kind = kind::variant;
      t.args = subs("alternatives");
      if (t.args.empty()) fail(path, "a variant has alternatives");
    } else if (kind_name == "complex" || kind_name == "optional" || kind_name == "fixed") {
      allowed(v, path, {"kind", "of"});
      t.kind = kind_name == "complex" ? kind::complex : kind_name == "optional" ? kind::optional : kind::fixed;
      t.args.push_back(sub("of"));
      if (t.kind == kind::fixed && !fixed_width_integer(t.arg()))
        fail(path + ".of", "an integer type or an enum's name");
    } else if (kind_name == "deprecated") {
      allowed(v, path, {"kind", "of", "writes"});
      t.kind = kind::deprecated;
      t.args.push_back(sub("of"));
      t.writes = hex(member(v, path, "writes"), path + ".writes");
    } else if (kind_name == "duration") {
      allowed(v, path, {"kind", "rep", "period"});
      t.kind = kind::duration;
      t.args.push_back(sub("rep"));
      t.period = member(v, path, "period").text();
    } else if (kind_name == "time_point") {
      allowed(v, path, {"kind", "clock", "duration"});
      t.kind = kind::time_point;
      t.clock = member(v, path, "clock").text();
      t.args.push_back(sub("duration"));
      if (t.args[0].kind != kind::duration) fail(path + ".duration", "a duration");
    } else if (kind_name == "pointer") {
      allowed(v, path, {"kind", "role", "to", "polymorphic"});
      t.kind = kind::pointer;
      t.polymorphic = flag(v, "polymorphic", path);
      t.name = member(v, path, "role").text();
      static constexpr std::string_view roles[] = {"unique", "owning", "shared", "weak", "raw", "reference"};
      if (std::find(std::begin(roles), std::end(roles), t.name) == std::end(roles))
        fail(path + ".role", "unique, owning, shared, weak, raw or reference");
      t.args.push_back(sub("to"));
      if (t.polymorphic && !names_.count(t.arg().name)) fail(path + ".polymorphic", "only on a pointer to a struct");
    } else {
      fail(path + ".kind", "unknown kind \"" + kind_name + "\"");
    }
    return t;
  }

  definition definition_of(const std::string& name, const json& v) {
    const std::string path = "types[\"" + name + "\"]";
    if (find_primitive(name) || name.empty()) fail(path, "a reserved or empty name");
    if (!v.is_object()) fail(path, "a definition is an object");
    definition d;
    d.name = name;
    const std::string& k = member(v, path, "kind").text();
    if (k == "enum") {
      allowed(v, path, {"kind", "underlying"});
      d.kind = definition_kind::enumeration;
      const json& u = member(v, path, "underlying");
      const auto p = u.is_string() ? find_primitive(u.text()) : std::nullopt;
      if (!p || *p == primitive::f32 || *p == primitive::f64 || *p == primitive::byte || *p == primitive::monostate)
        fail(path + ".underlying", "bool, char or an integer type");
      d.underlying = *p;
      return d;
    }
    const bool is_record = k == "record";
    if (is_record) {
      allowed(v, path, {"kind", "fields", "size"});
      d.kind = definition_kind::record;
      d.size = number(member(v, path, "size"), path + ".size");
    } else if (k == "struct") {
      allowed(v, path, {"kind", "fields", "version", "refuse_newer", "identity", "hook", "bases", "abstract"});
      d.abstract = flag(v, "abstract", path);
      if (const json* bases = v.find("bases")) {
        if (!bases->is_array() || bases->items().empty()) fail(path + ".bases", "an array of names, absent when empty");
        for (const json& b : bases->items()) {
          if (!b.is_string() || !names_.count(b.text()) || b.text() == name)
            fail(path + ".bases", "names of other types");
          d.bases.push_back(b.text());
        }
      }
      if (const json* version = v.find("version")) {
        const std::uint64_t n = number(*version, path + ".version");
        if (n > 0xFFFFFFFFu) fail(path + ".version", "at most 2^32 - 1");
        d.version = static_cast<std::uint32_t>(n);
      }
      d.identity = flag(v, "identity", path);
      d.refuse_newer = flag(v, "refuse_newer", path);
      d.hook = flag(v, "hook", path);
    } else {
      fail(path + ".kind", "struct, record or enum");
    }
    const json& fields = member(v, path, "fields");
    if (!fields.is_array()) fail(path + ".fields", "an array");
    std::set<std::string_view> field_names;  // a set: comparing with every earlier field was quadratic
    for (std::size_t i = 0; i < fields.items().size(); ++i) {
      const json& f = fields.items()[i];
      const std::string fpath = path + ".fields[" + std::to_string(i) + "]";
      if (!f.is_object()) fail(fpath, "a field is an object");
      if (is_record)
        allowed(f, fpath, {"name", "type", "default", "offset", "width"});
      else
        allowed(f, fpath, {"name", "type", "default", "base", "virtual"});
      field out;
      out.name = member(f, fpath, "name").text();
      if (!field_names.insert(member(f, fpath, "name").text()).second)
        fail(fpath + ".name", "\"" + out.name + "\" names an earlier field too");
      // Values hold "$version", "$id" and "$skipped" next to the fields (docs/schema.md section 4).
      if (!out.name.empty() && out.name[0] == '$') fail(fpath + ".name", "a field name does not begin with $");
      out.type = expression(member(f, fpath, "type"), fpath + ".type");
      out.default_bytes = hex(member(f, fpath, "default"), fpath + ".default");
      if (is_record) {
        out.offset = number(member(f, fpath, "offset"), fpath + ".offset");
        out.width = number(member(f, fpath, "width"), fpath + ".width");
      } else {
        out.base = flag(f, "base", fpath);
        out.is_virtual = flag(f, "virtual", fpath);
        if (out.is_virtual && !(out.base && out.type.kind == kind::named))
          fail(fpath + ".virtual", "only on a base field of a named type");
      }
      d.fields.push_back(std::move(out));
    }
    return d;
  }

  const json& doc_;
  std::set<std::string> names_;
  schema result_;
};

}  // namespace model_impl

namespace model_impl {

/// A fixed() of a named type names an enum.
inline void check_fixed(const schema& s, const type& t, const std::string& where) {
  if (t.kind == kind::fixed && t.arg().kind == kind::named && s.at(t.arg().name).kind != definition_kind::enumeration)
    throw schema_error("schema: " + where + ": fixed<" + t.arg().name + "> is not of an integer type or an enum");
  for (const type& a : t.args) check_fixed(s, a, where);
}

/// How many records deep the record `name` is (1 if it holds no record), memoized in `heights`
/// (0 while being measured). A record that holds itself (through its fields, or arrays of them)
/// has no size; records nested more than max_schema_nesting deep are refused, so that this
/// recursion and the decoder's are bounded. The memo keeps shared records from being walked
/// once per path that reaches them (exponential in a chain of records of two fields).
inline std::size_t record_height(const schema& s, const std::string& name, std::map<std::string, std::size_t>& heights,
                                 std::size_t depth) {
  const auto [it, first] = heights.try_emplace(name, 0);
  if (!first) {
    if (it->second == 0) throw schema_error("schema: types[\"" + name + "\"]: a record that contains itself");
    return it->second;
  }
  if (depth > max_schema_nesting)
    throw schema_error("schema: types[\"" + name + "\"]: records nest more than " + std::to_string(max_schema_nesting) +
                       " deep");
  std::size_t height = 1;
  for (const field& f : s.at(name).fields) {
    const type* t = &f.type;
    while (t->kind == kind::array) t = &t->arg();
    if (const definition* d = s.named(*t); d && d->kind == definition_kind::record)
      height = std::max(height, 1 + record_height(s, d->name, heights, depth + 1));
  }
  if (height > max_schema_nesting)
    throw schema_error("schema: types[\"" + name + "\"]: records nest more than " + std::to_string(max_schema_nesting) +
                       " deep");
  heights[name] = height;
  return height;
}

/// The fewest bytes of t and of every expression inside it stay within max_schema_size, so that
/// counts are checked against sizes that did not wrap.
inline void check_min_sizes(const schema& s, const type& t, const std::string& where) {
  if (min_size(s, t) > max_schema_size)
    throw schema_error("schema: " + where + ": " + spell(t) + " takes more than " + std::to_string(max_schema_size) +
                       " bytes at its smallest");
  for (const type& a : t.args) check_min_sizes(s, a, where);
}

}  // namespace model_impl

inline schema load_schema(const json& document) {
  schema s = model_impl::loader(document).load();
  model_impl::check_fixed(s, s.root, "root");
  for (const auto& [name, d] : s.types)
    for (const field& f : d.fields) model_impl::check_fixed(s, f.type, "types[\"" + name + "\"]." + f.name);
  // Records: the widths and offsets that the types imply, each within max_schema_size (a width
  // that wrapped, as array<array<u8, 2^32>, 2^32> did to 0, let the decoder read past its input).
  std::map<std::string, std::size_t> heights;
  for (const auto& [name, d] : s.types) {
    if (d.kind != definition_kind::record) continue;
    model_impl::record_height(s, name, heights, 1);
    std::uint64_t offset = 0;
    for (const field& f : d.fields) {
      const std::string where = "types[\"" + name + "\"]: field \"" + f.name + "\"";
      std::uint64_t width = 0;
      try {
        width = record_width(s, f.type);
      } catch (const schema_error& e) {
        throw schema_error("schema: " + where + ": " + std::string(e.what()).substr(8));  // less "schema: "
      }
      if (f.offset != offset || f.width != width || f.default_bytes.size() != width)
        throw schema_error("schema: " + where + " has an offset, width or default that its type does not give");
      if (width > max_schema_size - offset)
        throw schema_error("schema: " + where + " ends beyond " + std::to_string(max_schema_size) +
                           " bytes: the record is too wide");
      offset += width;
    }
    if (offset != d.size) throw schema_error("schema: types[\"" + name + "\"]: size is not the sum of the widths");
  }
  model_impl::check_min_sizes(s, s.root, "root");
  for (const auto& [name, d] : s.types)
    for (const field& f : d.fields)
      model_impl::check_min_sizes(s, f.type, "types[\"" + name + "\"]: field \"" + f.name + "\"");
  return s;
}

inline schema load_schema_text(std::string_view text) { return load_schema(parse_json(text)); }

inline std::string_view primitive_name(primitive p) {
  for (const auto& [n, q] : model_impl::primitives)
    if (q == p) return n;
  return "?";
}

inline std::string spell(const type& t) {
  const auto list = [](const std::vector<type>& items) {
    std::string out;
    for (const type& item : items) out += (out.empty() ? "" : ", ") + spell(item);
    return out;
  };
  switch (t.kind) {
    case kind::primitive: return std::string(primitive_name(t.prim));
    case kind::named: return t.name;
    case kind::string: return (t.view ? "string_view<" : "string<") + std::string(primitive_name(t.prim)) + ">";
    case kind::sequence:
      if (t.view) return "span<" + spell(t.arg()) + ">";
      return "sequence<" + spell(t.arg()) + (t.varint ? ", varint>" : ">");
    case kind::bitvector: return "bitvector";
    case kind::array: return "array<" + spell(t.arg()) + ", " + std::to_string(t.size) + (t.varint ? ", varint>" : ">");
    case kind::bitset: return "bitset<" + std::to_string(t.size) + ">";
    case kind::set: return (t.multi ? "multiset<" : "set<") + spell(t.arg()) + ">";
    case kind::map: return (t.multi ? "multimap<" : "map<") + spell(t.arg(0)) + ", " + spell(t.arg(1)) + ">";
    case kind::tuple: return "tuple<" + list(t.args) + ">";
    case kind::variant: return "variant<" + list(t.args) + ">";
    case kind::complex: return "complex<" + spell(t.arg()) + ">";
    case kind::optional: return "optional<" + spell(t.arg()) + ">";
    case kind::fixed: return "fixed<" + spell(t.arg()) + ">";
    case kind::deprecated: return "deprecated<" + spell(t.arg()) + ">";
    case kind::duration: return "duration<" + spell(t.arg()) + ", " + t.period + ">";
    case kind::time_point: return "time_point<" + t.clock + ", " + spell(t.arg()) + ">";
    case kind::pointer: return t.name + "<" + spell(t.arg()) + ">";
  }
  return "?";
}

inline bool block_element(const type& t) { return t.kind == kind::primitive && t.prim != primitive::monostate; }

inline std::size_t block_width(primitive p) {
  switch (p) {
    case primitive::boolean:
    case primitive::character:
    case primitive::byte:
    case primitive::i8:
    case primitive::u8: return 1;
    case primitive::i16:
    case primitive::u16: return 2;
    case primitive::i32:
    case primitive::u32:
    case primitive::f32: return 4;
    case primitive::i64:
    case primitive::u64:
    case primitive::f64: return 8;
    case primitive::monostate: return 0;
  }
  return 0;
}

inline bool is_integer(primitive p) { return p >= primitive::i8 && p <= primitive::u64; }
inline bool is_signed(primitive p) { return p >= primitive::i8 && p <= primitive::i64; }
inline bool is_float(primitive p) { return p == primitive::f32 || p == primitive::f64; }

/// Sizes saturate instead of wrapping: a size beyond max_schema_size is refused by load_schema,
/// and, in a schema built in code, only makes counts fail their checks.
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b ? std::numeric_limits<std::uint64_t>::max()
                                                                     : a * b;
}

inline std::uint64_t min_size(const schema& s, const type& t) {
  switch (t.kind) {
    case kind::primitive: return t.prim == primitive::monostate ? 0 : is_float(t.prim) ? block_width(t.prim) : 1;
    case kind::named:
    case kind::string:
    case kind::sequence:
    case kind::bitvector:
    case kind::set:
    case kind::map:
    case kind::optional:
    case kind::variant:
    case kind::pointer: return 1;
    case kind::array: {
      if (const definition* d = s.named(t.arg()); d && d->kind == definition_kind::record) return t.size == 0 ? 0 : 1;
      return saturating_mul(t.size, t.varint ? min_size(s, t.arg()) : element_min_size(s, t.arg()));
    }
    case kind::bitset: return (t.size + 7) / 8;
    case kind::tuple: {
      std::uint64_t total = 0;
      for (const type& e : t.args) total = saturating_add(total, min_size(s, e));
      return total;
    }
    case kind::complex: return saturating_mul(2, min_size(s, t.arg()));
    case kind::duration:
    case kind::time_point:
    case kind::deprecated: return min_size(s, t.arg());
    case kind::fixed: {
      const definition* d = s.named(t.arg());
      return block_width(d ? d->underlying : t.arg().prim);
    }
  }
  return 1;
}

inline std::uint64_t element_min_size(const schema& s, const type& t) {
  return block_element(t) ? block_width(t.prim) : min_size(s, t);
}

inline std::uint64_t record_width(const schema& s, const type& t) {
  if (block_element(t)) return block_width(t.prim);
  if (t.kind == kind::array) {
    // Checked: array<array<u8, 2^32>, 2^32> wrapped to 0 bytes.
    const std::uint64_t element = record_width(s, t.arg());
    if (element != 0 && t.size > max_schema_size / element)
      throw schema_error("schema: " + spell(t) + " is wider than " + std::to_string(max_schema_size) + " bytes");
    return t.size * element;
  }
  if (const definition* d = s.named(t)) {
    if (d->kind == definition_kind::enumeration) return block_width(d->underlying);
    if (d->kind == definition_kind::record) {
      if (d->size > max_schema_size)
        throw schema_error("schema: record " + d->name + " is wider than " + std::to_string(max_schema_size) +
                           " bytes");
      return d->size;
    }
  }
  throw schema_error("schema: " + spell(t) + " cannot be a record field");
}

inline std::string to_hex(const std::vector<std::byte>& bytes) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::byte b : bytes) {
    out += digits[static_cast<unsigned>(b) >> 4];
    out += digits[static_cast<unsigned>(b) & 0xF];
  }
  return out;
}

inline std::vector<std::byte> from_hex(std::string_view hex) {
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) throw std::invalid_argument("odd number of hex digits");
  std::vector<std::byte> out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]);
    const int lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) throw std::invalid_argument("not a hex digit");
    out.push_back(static_cast<std::byte>(hi * 16 + lo));
  }
  return out;
}

}  // namespace bifrons::detail::inspect
