// SPDX-License-Identifier: MIT
#pragma once
// A schema document (docs/schema.md) loaded into types that the tools walk: the checker
// (bifrons-compat) and the schema-driven decoder (bifrons-inspect, the conformance tests).

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "json_read.hpp"

namespace bifrons::tools {

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
  tools::kind kind = kind::primitive;
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
  tools::type type;
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

schema load_schema(const json& document);
schema load_schema_text(std::string_view text);

/// The one-line spelling of docs/schema.md, section 8.
std::string spell(const type& t);
std::string_view primitive_name(primitive p);

/// A primitive other than monostate: arrays of them are raw blocks, and they are record fields.
bool block_element(const type& t);
/// The width of a block element (also of a fixed-width integer).
std::size_t block_width(primitive p);
bool is_integer(primitive p);
bool is_signed(primitive p);
bool is_float(primitive p);

/// The fewest bytes a value of t takes (docs/schema.md, section 9), alone and as an element of
/// a sequence or array. Saturates at the largest std::uint64_t rather than wrapping (a loaded
/// schema gives at most max_schema_size).
std::uint64_t min_size(const schema& s, const type& t);
std::uint64_t element_min_size(const schema& s, const type& t);

/// The width of a record field's type (block elements, enums, arrays of them, records); throws
/// schema_error if it exceeds max_schema_size (load_schema refuses such schemas).
std::uint64_t record_width(const schema& s, const type& t);

/// Lowercase hex without separators, both ways (from_hex throws std::invalid_argument).
std::string to_hex(const std::vector<std::byte>& bytes);
std::vector<std::byte> from_hex(std::string_view hex);

}  // namespace bifrons::tools
