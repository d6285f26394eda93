// SPDX-License-Identifier: MIT
#pragma once
// A schema-driven decoder: reads bifrons bytes with nothing but a schema (docs/schema.md), into
// the JSON values of docs/schema.md section 10, with the library's own error codes and offsets
// (docs/format.md section 26). It mirrors the C++ reader check by check, with these exceptions:
// its allocation budget charges what the decoder itself holds (JSON values, the text they print
// as, annotations; see decode_options::max_alloc_bytes), not the C++ types' sizes; it keeps no
// hash-bucket limit (keys are compared by value, in O(log n) each); it reads views like owning
// containers (never misaligned_view), and it compares keys by value (docs/schema.md section 9).
//
// bifrons-inspect prints what it finds, bifrons::to_json (json.hpp) prints it for a value of the
// program, and the conformance tests run it over every vector. Header-only, so that to_json needs
// no library and the two cannot drift apart; only json.hpp and the tools (tools/lib/decoder.hpp,
// which adds typed files) include it.

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../error.hpp"
#include "../../read_options.hpp"
#include "schema_model.hpp"

namespace bifrons::detail::inspect {

struct decode_options {
  std::uint64_t max_depth = 64;
  std::uint64_t max_elements = std::uint64_t{64} << 20;
  std::uint64_t max_objects = std::uint64_t{1} << 20;
  /// The allocation budget, read_options::max_alloc_bytes (and its default, 256 MiB), charged
  /// before anything is allocated, as the library charges it, but for what the decoder holds:
  /// every JSON value (each element, including those that take no input bytes, and the values of
  /// the field defaults it expands), its printed text (indentation included), the annotations,
  /// the keys of sets and maps, the table of objects. So memory and output stay within a constant
  /// times this, whatever the schema and the data; past it, allocation_limit_exceeded. An input
  /// byte costs at most a few hundred bytes of budget (docs: SECURITY.md).
  std::uint64_t max_alloc_bytes = bifrons::read_options{}.max_alloc_bytes;
  /// read_options::unknown_types = unknown_type_policy::null: an object of a registered name the
  /// schema does not hold is skipped, and it, and every reference to it or to an object inside
  /// it, reads as null (a reference pointer fails with unknown_type). Otherwise unknown_type.
  bool unknown_types_null = false;
  /// What the note of unknown_type suggests, in the words of the program that decodes.
  std::string_view unknown_type_hint = "--unknown-types-null reads such pointers as null";
  /// Collect an annotation for every part of the bytes (bifrons-inspect --annotate).
  bool annotate = false;
  /// Stop at the end of the value: bytes after it are not trailing_bytes, and decode_result::end
  /// says where the next value starts (several values written one after another).
  bool allow_trailing = false;
};

/// One part of the input: its bytes, where it is in the value, what it means.
struct annotation {
  std::size_t offset = 0;
  std::size_t length = 0;
  std::size_t depth = 0;
  std::string path;
  std::string text;
};

struct decode_result {
  bool ok = false;
  json value;
  errc code = errc::ok;
  std::size_t offset = 0;  ///< of the error
  std::string path;        ///< of the error: the field being read
  std::string note;        ///< of the error: what is at fault, beyond the code (may be empty)
  std::size_t end = 0;     ///< where the value ended
  std::vector<annotation> annotations;
  /// Comparisons of keys the duplicate check of sets and maps made: O(log n) per key (tests
  /// count them).
  std::uint64_t key_comparisons = 0;
};

/// Reads one value of type t (the schema's root by default) from bytes.
inline decode_result decode(const schema& s, std::span<const std::byte> bytes, const decode_options& options = {});
inline decode_result decode(const schema& s, const type& t, std::span<const std::byte> bytes,
                            const decode_options& options = {});

/// The JSON form of a floating-point value (docs/schema.md section 10).
inline json float_json(double value);
inline json float_json(float value);

/// The errc names of docs/format.md section 26, both ways.
inline std::string_view errc_name(errc code);
inline std::optional<errc> errc_from_name(std::string_view name);

// ---- implementation -------------------------------------------------------------------------

inline std::string_view errc_name(errc code) {
  switch (code) {
    case errc::ok: return "ok";
    case errc::unexpected_end: return "unexpected_end";
    case errc::buffer_too_small: return "buffer_too_small";
    case errc::malformed_varint: return "malformed_varint";
    case errc::value_out_of_range: return "value_out_of_range";
    case errc::invalid_value: return "invalid_value";
    case errc::count_exceeds_input: return "count_exceeds_input";
    case errc::depth_limit_exceeded: return "depth_limit_exceeded";
    case errc::allocation_limit_exceeded: return "allocation_limit_exceeded";
    case errc::element_limit_exceeded: return "element_limit_exceeded";
    case errc::trailing_bytes: return "trailing_bytes";
    case errc::duplicate_key: return "duplicate_key";
    case errc::misaligned_view: return "misaligned_view";
    case errc::out_of_memory: return "out_of_memory";
    case errc::stream_error: return "stream_error";
    case errc::user_error: return "user_error";
    case errc::bucket_limit_exceeded: return "bucket_limit_exceeded";
    case errc::invalid_stride: return "invalid_stride";
    case errc::unwritten_pointee: return "unwritten_pointee";
    case errc::ownership_conflict: return "ownership_conflict";
    case errc::ownership_cycle: return "ownership_cycle";
    case errc::object_limit_exceeded: return "object_limit_exceeded";
    case errc::unknown_type: return "unknown_type";
    case errc::unregistered_type: return "unregistered_type";
    case errc::not_bifrons: return "not_bifrons";
    case errc::type_mismatch: return "type_mismatch";
    case errc::newer_version: return "newer_version";
    case errc::non_canonical: return "non_canonical";
    case errc::checksum_mismatch: return "checksum_mismatch";
  }
  return "unknown";
}

inline std::optional<errc> errc_from_name(std::string_view name) {
  for (unsigned i = 0; i < 256; ++i) {
    const auto code = static_cast<errc>(i);
    if (errc_name(code) == name) return code;
  }
  return std::nullopt;
}

namespace decoder_impl {

template <class F>
json finite_or_special(F value) {
  using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  const U bits = std::bit_cast<U>(value);
  if (value != value) {
    constexpr U quiet = static_cast<U>(sizeof(F) == 4 ? 0x7FC00000u : 0x7FF8000000000000u);
    if (bits == quiet) return json("nan");
    char hex[17];
    const auto r = std::to_chars(hex, hex + sizeof hex, bits, 16);
    std::string digits(hex, r.ptr);
    digits.insert(0, 2 * sizeof(F) - digits.size(), '0');
    return json("nan:" + digits);
  }
  if (value == std::numeric_limits<F>::infinity()) return json("inf");
  if (value == -std::numeric_limits<F>::infinity()) return json("-inf");
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  std::string text(buf, r.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return json::number(text);
}

}  // namespace decoder_impl

inline json float_json(double value) { return decoder_impl::finite_or_special(value); }
inline json float_json(float value) { return decoder_impl::finite_or_special(value); }

namespace decoder_impl {

struct failure {
  errc code;
  std::size_t offset;
};

/// An object with an id (docs/format.md section 23).
struct object {
  std::string type;  // spelled; empty once forgotten (read inside a discarded value)
  // skipped: counted by a tag-2 header but not read (in fields an older reader does not know)
  enum class held : std::uint8_t { shared, unique, by_value, skipped } kind;
  bool in_progress = true;
  bool registered = false;  // of a registered class: pointers to the classes it reaches may name it
  // As the library's object table (include/bifrons/detail/objects.hpp) keeps them:
  std::size_t holder = 0;    // index + 1 of the object it lies in; 0: the value itself
  std::uint64_t height = 0;  // the longest chain of owners it heads
  bool weak_link = false;    // a weak_ptr introduced it: its holder does not own it
};

/// A pointer the library's object table records: a non-owning pointer, or a shared_ptr back to an
/// object read before (to one still being read: a link up).
struct pointer_record {
  std::size_t target;  // its index
  std::size_t holder;  // index + 1 of the object the pointer lies in; 0: the value itself
  std::size_t at;
  enum class link : std::uint8_t { observer, strong, up } kind;
};

inline bool valid_utf8(std::span<const std::byte> s) {
  std::string_view text(reinterpret_cast<const char*>(s.data()), s.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    const char32_t c = bifrons::detail::json::next_code_point(text, i);
    if (c == 0xFFFD && text.substr(start, 3) != "\xEF\xBF\xBD") return false;
  }
  return true;
}

inline std::uint64_t load_le(const std::byte* p, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

inline std::int64_t sign_extend(std::uint64_t v, std::size_t width) {
  if (width < 8 && (v >> (8 * width - 1)) & 1) v |= ~std::uint64_t{0} << (8 * width);
  return static_cast<std::int64_t>(v);
}

/// At least the bytes of s as a JSON string literal prints (to_text): quotes, escapes of the
/// control characters (\u00XX), of quotes and backslashes, and replacement characters for
/// invalid bytes.
inline std::uint64_t printed_size(std::string_view s) {
  std::uint64_t n = 2;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    n += u < 0x20 ? 6 : u == '"' || u == '\\' ? 2 : u >= 0x80 ? 3 : 1;
  }
  return n;
}

inline std::set<std::string> registered_of(const schema& s) {
  std::set<std::string> out;
  for (const auto& [name, target] : s.polymorphic) out.insert(target);
  return out;
}

/// What a decoder shares with the decoders of the field defaults it expands, whose values become
/// part of its value: the budget left (a default that expands into more defaults is charged like
/// any value: K nested structs of two defaulted fields each expanded into 2^K values), and the
/// schema's registered classes (computed once, not once per default).
struct shared_state {
  std::uint64_t budget_left = 0;
  std::set<std::string> registered_structs;
  std::uint64_t key_comparisons = 0;
};

/// The order of key texts, counting its comparisons (decode_result::key_comparisons).
struct counting_less {
  std::uint64_t* count;
  bool operator()(const std::string& a, const std::string& b) const {
    ++*count;
    return a < b;
  }
};

class decoder {
 public:
  decoder(const schema& s, std::span<const std::byte> in, const decode_options& options, bool defaults,
          shared_state& shared, std::uint64_t depth_base)
      : s_(s),
        shared_(shared),
        in_(in),
        limit_(in.size()),
        depth_left_(options.max_depth),
        options_(options),
        defaults_(defaults),
        depth_base_(depth_base) {}

  decode_result run(const type& t) {
    decode_result result;
    try {
      charge(1, value_cost(), 0);
      result.value = read(t);
      if (!options_.allow_trailing && pos_ != in_.size()) fail(errc::trailing_bytes, pos_);
      end_value();
      result.ok = true;
    } catch (const failure& f) {
      result.code = f.code;
      result.offset = f.offset;
      result.path = error_path_;
      result.note = std::move(error_note_);
    }
    result.end = pos_;
    result.annotations = std::move(notes_);
    result.key_comparisons = shared_.key_comparisons;
    return result;
  }

 private:
  [[noreturn]] void fail(errc code, std::size_t at) {
    if (error_path_.empty()) error_path_ = current_path();
    throw failure{code, at};
  }

  std::string current_path() const {
    std::string p;
    for (const std::string& segment : path_) p += segment;
    return p.empty() ? "(root)" : p;
  }

  struct path_scope {
    decoder& d;
    path_scope(decoder& dec, std::string segment) : d(dec) { d.path_.push_back(std::move(segment)); }
    ~path_scope() { d.path_.pop_back(); }
    path_scope(const path_scope&) = delete;
    path_scope& operator=(const path_scope&) = delete;
  };

  void note(std::size_t offset, std::size_t length, std::string text) {
    if (!options_.annotate) return;
    std::string path = current_path();
    // The annotation, and its printed lines: offset, the path padded to 40 columns, the text,
    // and a line of 35 characters for every 8 bytes it covers.
    charge(1, sizeof(annotation) + 2 * (path.size() + text.size()) + 96 + 5 * std::uint64_t{length}, offset);
    notes_.push_back({offset, length, path_.size(), std::move(path), std::move(text)});
  }

  // ---- the budget (decode_options::max_alloc_bytes) ----------------------------------------------

  /// Charges n x size bytes before they are allocated; the product is checked, never wrapped.
  void charge(std::uint64_t n, std::uint64_t size, std::size_t at) {
    if (size != 0 && n > shared_.budget_left / size) fail(errc::allocation_limit_exceeded, at);
    shared_.budget_left -= n * size;
  }

  /// How deep the values read now sit in the printed JSON, at most: a level per path segment, and
  /// two for the levels that have none (a map element's pair, a string's "units").
  std::uint64_t json_depth() const { return depth_base_ + path_.size() + 2; }

  /// One JSON value: its node, a number's spelling beyond the string's inline buffer, and its
  /// line of printed text (two spaces per level of indentation, a token of up to 24 characters,
  /// the separator and line end). Charged by whoever makes room for the value: a container for
  /// its elements, before reading them, whether or not they take input bytes.
  std::uint64_t value_cost() const { return sizeof(json) + 32 + 2 * json_depth() + 26; }

  /// A member of an object (a field): the member, its key stored and printed, and its value.
  std::uint64_t member_cost(std::string_view key) const {
    return sizeof(json::member) + 3 * std::uint64_t{key.size()} + 4 + value_cost();
  }

  /// A string value: its characters and its printed literal.
  void charge_text(std::string_view text, std::size_t at) { charge(1, text.size() + printed_size(text), at); }

  /// Adds a member; the keys of a value are distinct (field names are unique and never begin
  /// with $), so no search for an earlier one (json::set's, linear in the members).
  static void add_member(json& object, std::string_view key, json v) {
    object.members().emplace_back(std::string(key), std::move(v));
  }

  std::size_t remaining() const { return limit_ - pos_; }

  const std::byte* take(std::size_t n) {
    if (remaining() < n) fail(errc::unexpected_end, limit_);
    const std::byte* p = in_.data() + pos_;
    pos_ += n;
    return p;
  }

  std::uint8_t byte() { return static_cast<std::uint8_t>(*take(1)); }

  /// A minimal LEB128 varint of at most 64 bits; every error at its first byte.
  std::uint64_t varint() {
    const std::size_t start = pos_;
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (pos_ == limit_) fail(errc::unexpected_end, limit_);
      const auto b = static_cast<std::uint8_t>(in_[pos_++]);
      if (shift == 63 && b > 1) fail(errc::malformed_varint, start);
      value |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (b < 0x80) {
        if (b == 0 && shift != 0) fail(errc::malformed_varint, start);
        return value;
      }
    }
  }

  /// A count, checked as source::check_count does, in its order: min is the fewest bytes an
  /// element takes, each element is charged per_element bytes of the budget.
  std::uint64_t count(std::uint64_t min, std::uint64_t per_element, std::string_view what = "count") {
    const std::size_t at = pos_;
    const std::uint64_t n = varint();
    note(at, pos_ - at, std::string(what) + " " + std::to_string(n));
    if (n == 0) return 0;
    if (n > options_.max_elements) fail(errc::element_limit_exceeded, at);
    if (min != 0 && n > remaining() / min) fail(errc::count_exceeds_input, at);
    charge(n, per_element, at);
    return n;
  }

  json integer_json(primitive p, std::uint64_t raw_or_bits) const {
    if (is_signed(p)) return json::integer(static_cast<std::int64_t>(raw_or_bits));
    return json::integer(raw_or_bits);
  }

  /// A scalar integer: a varint, zigzag for signed types, that must fit the type.
  json integer(primitive p) {
    const std::size_t at = pos_;
    const std::uint64_t raw = varint();
    const std::size_t width = block_width(p);
    const std::uint64_t max = width >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * width)) - 1;
    if (raw > max) fail(errc::value_out_of_range, at);
    json v = is_signed(p) ? json::integer(static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1)))
                          : json::integer(raw);
    note(at, pos_ - at, v.text());
    return v;
  }

  json scalar(primitive p) {
    const std::size_t at = pos_;
    switch (p) {
      case primitive::boolean: {
        const std::uint8_t b = byte();
        if (b > 1) fail(errc::invalid_value, at);
        note(at, 1, b ? "true" : "false");
        return json(b == 1);
      }
      case primitive::character:
      case primitive::byte: {
        const std::uint8_t b = byte();
        note(at, 1, std::to_string(b));
        return json::integer(b);
      }
      case primitive::f32: {
        const float f = std::bit_cast<float>(static_cast<std::uint32_t>(load_le(take(4), 4)));
        json v = float_json(f);
        note(at, 4, to_text(v));
        return v;
      }
      case primitive::f64: {
        const double d = std::bit_cast<double>(load_le(take(8), 8));
        json v = float_json(d);
        note(at, 8, to_text(v));
        return v;
      }
      case primitive::monostate: return json();
      default: return integer(p);
    }
  }

  /// A fixed-width value at p (a block element, a record field, fixed()): false if invalid.
  bool fixed_value(primitive p, const std::byte* at, json& out) const {
    const std::size_t width = block_width(p);
    const std::uint64_t bits = load_le(at, width);
    switch (p) {
      case primitive::boolean: out = json(bits == 1); return bits <= 1;
      case primitive::character:
      case primitive::byte: out = json::integer(bits); return true;
      case primitive::f32: out = float_json(std::bit_cast<float>(static_cast<std::uint32_t>(bits))); return true;
      case primitive::f64: out = float_json(std::bit_cast<double>(bits)); return true;
      default: out = is_signed(p) ? json::integer(sign_extend(bits, width)) : json::integer(bits); return true;
    }
  }

  json read(const type& t, bool introduced_by_pointer = false, bool base = false) {
    // max_depth bounds structs, and a schema's type expressions nest at most 64 deep inside each:
    // 63 structs of 63 nested optionals (4 KB of data) recursed 4,000 levels and ran out of stack
    // in a sanitizer build. Every level of the value has a path segment, so the path's length
    // (with the levels above a default's decoder) bounds the recursion.
    if (json_depth() > max_nesting) fail(errc::depth_limit_exceeded, pos_);
    switch (t.kind) {
      case kind::primitive: return scalar(t.prim);
      case kind::named: return read_named(s_.at(t.name), introduced_by_pointer, base);
      case kind::string: return read_string(t);
      case kind::sequence: return read_sequence(t);
      case kind::bitvector: return read_bitvector();
      case kind::array: return read_array(t);
      case kind::bitset: return read_bitset(t);
      case kind::set:
      case kind::map: return read_associative(t);
      case kind::tuple: {
        charge(t.args.size(), value_cost(), pos_);
        json v = json::array();
        for (std::size_t i = 0; i < t.args.size(); ++i) {
          path_scope scope(*this, "<" + std::to_string(i) + ">");
          v.push(read(t.args[i]));
        }
        return v;
      }
      case kind::complex: {
        charge(2, value_cost(), pos_);
        json v = json::array();
        {
          path_scope scope(*this, ".real");
          v.push(read(t.arg()));
        }
        path_scope scope(*this, ".imag");
        v.push(read(t.arg()));
        return v;
      }
      case kind::optional: {
        const std::size_t at = pos_;
        const std::uint8_t tag = byte();
        if (tag == 0) {
          note(at, 1, "optional: empty");
          return json();
        }
        if (tag != 1) fail(errc::invalid_value, at);
        note(at, 1, "optional: engaged");
        path_scope scope(*this, "?");
        json v = read(t.arg());
        if (nullable(t.arg())) {
          charge(1, member_cost("some"), at);
          json some = json::object();
          add_member(some, "some", std::move(v));
          return some;
        }
        return v;
      }
      case kind::variant: {
        const std::size_t at = pos_;
        const std::uint64_t read_index = varint();
        if (read_index >= t.args.size()) fail(errc::invalid_value, at);
        const auto index = static_cast<std::size_t>(read_index);  // below the count of alternatives
        note(at, pos_ - at, "variant: alternative " + std::to_string(index) + ", " + spell(t.args[index]));
        path_scope scope(*this, "|" + std::to_string(index));
        charge(1, member_cost("index") + member_cost("value"), at);
        json v = json::object();
        add_member(v, "index", json::integer(index));
        add_member(v, "value", read(t.args[index]));
        return v;
      }
      case kind::duration: return read(t.arg());
      case kind::time_point: return read(t.arg().arg());
      case kind::pointer: return read_pointer(t);
      case kind::fixed: {
        const definition* d = s_.named(t.arg());
        const primitive p = d ? d->underlying : t.arg().prim;
        const std::size_t at = pos_;
        json v;
        // A fixed bool that is not 0 or 1 does not fit: value_out_of_range, as for any fixed().
        if (!fixed_value(p, take(block_width(p)), v)) fail(errc::value_out_of_range, at);
        note(at, block_width(p), "fixed " + to_text(v));
        return v;
      }
      case kind::deprecated: {
        const std::size_t mark = objects_.size();
        const std::size_t record_mark = records_.size();
        path_scope scope(*this, "(deprecated)");
        json v = read(t.arg());
        // Discarded: references to the objects read inside it become errors (shared objects
        // stay: the reader keeps them alive), and the pointers in it are no longer the
        // reader's to check, but for those inside shared objects (object_table::forget).
        for (std::size_t i = mark; i < objects_.size(); ++i)
          if (objects_[i].kind != object::held::shared) objects_[i].type.clear();
        std::size_t kept = record_mark;
        for (std::size_t i = record_mark; i < records_.size(); ++i)
          if (records_[i].holder > mark && held_in_shared(records_[i].holder)) records_[kept++] = records_[i];
        records_.resize(kept);
        return v;
      }
    }
    return json();
  }

  bool nullable(const type& t) const {
    if (t.kind == kind::deprecated) return nullable(t.arg());
    return t.kind == kind::optional || t.kind == kind::pointer ||
           (t.kind == kind::primitive && t.prim == primitive::monostate);
  }

  json read_named(const definition& d, bool introduced_by_pointer, bool base) {
    switch (d.kind) {
      case definition_kind::enumeration: return scalar(d.underlying);
      case definition_kind::structure: {
        if (base) return read_struct(d, introduced_by_pointer);
        // A complete object: its own virtual bases (format.md section 5).
        std::vector<std::string> outer = std::exchange(virtual_bases_met_, {});
        json v = read_struct(d, introduced_by_pointer);
        virtual_bases_met_ = std::move(outer);
        return v;
      }
      case definition_kind::record: return read_record_alone(d);
    }
    return json();
  }

  json read_struct(const definition& d, bool introduced_by_pointer) {
    const std::size_t start = pos_;
    std::optional<std::size_t> id;
    if (d.identity && !introduced_by_pointer && !defaults_) {
      count_object(start, d.name.size());
      objects_.push_back({d.name, object::held::by_value, false, false, current_});
      id = objects_.size();
    }
    if (depth_left_ == 0) fail(errc::depth_limit_exceeded, start);
    --depth_left_;
    const std::uint64_t h = varint();
    const std::uint64_t length = h >> 1;
    if (length > remaining()) fail(errc::unexpected_end, limit_);
    note(start, pos_ - start, d.name + ": " + std::to_string(length) + " bytes" + ((h & 1) ? ", with a version" : ""));
    const std::size_t saved_limit = limit_;
    limit_ = pos_ + static_cast<std::size_t>(length);
    const std::size_t body_end = limit_;
    json v = json::object();
    if (h & 1) {
      const std::size_t at = pos_;
      const std::uint64_t version = varint();
      if (version > 0xFFFFFFFFu) fail(errc::value_out_of_range, at);
      note(at, pos_ - at, "version " + std::to_string(version));
      charge(1, member_cost("$version"), at);
      add_member(v, "$version", json::integer(version));
    }
    if (id) {
      charge(1, member_cost("$id"), start);
      add_member(v, "$id", json::integer(*id));
    }
    for (const field& f : d.fields) {
      path_scope scope(*this, "." + f.name);
      // Charged for every field, whether the data holds it or it takes its default: a struct
      // costs its fields even when its envelope is empty.
      charge(1, member_cost(f.name), pos_);
      const bool met_before = f.is_virtual && std::find(virtual_bases_met_.begin(), virtual_bases_met_.end(),
                                                        f.type.name) != virtual_bases_met_.end();
      if (met_before) {
        note(pos_, 0, "virtual base " + f.type.name + ": written before in this object");
      } else if (pos_ == limit_) {
        note(pos_, 0, "missing: the default " + to_hex(f.default_bytes));
        add_member(v, f.name, decode_default(f.type, f.default_bytes, false));
      } else {
        if (f.is_virtual) virtual_bases_met_.push_back(f.type.name);
        add_member(v, f.name, read(f.type, false, f.base));
      }
    }
    if (pos_ < body_end) {
      note(pos_, body_end - pos_,
           "skipped: " + std::to_string(body_end - pos_) + " bytes of fields this schema does not know");
      // Two hex digits per byte, stored and printed.
      charge(1, member_cost("$skipped") + 4 * std::uint64_t{body_end - pos_}, pos_);
      add_member(v, "$skipped",
                 to_hex(std::vector<std::byte>(in_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                               in_.begin() + static_cast<std::ptrdiff_t>(body_end))));
    }
    pos_ = body_end;
    limit_ = saved_limit;
    ++depth_left_;
    return v;
  }

  /// The value of a field's default. Its decoder shares this one's budget and limits: a default
  /// holds structs whose fields take their defaults in turn, and a hostile schema doubles the
  /// values at every level (T_k { a: T_k-1 = "00", b: T_k-1 = "00" }). A limit reached inside
  /// a default is reported at the missing field, in the data.
  json decode_default(const type& t, const std::vector<std::byte>& bytes, bool record_field) {
    if (bytes.empty() && min_size(s_, t) != 0) return json();  // a default that cannot be written
    decode_options options = options_;
    options.max_depth = depth_left_;
    options.annotate = false;
    options.allow_trailing = false;
    decoder d(s_, bytes, options, true, shared_, json_depth());
    if (record_field) {
      json v;
      try {
        d.record_field_value(t, bytes.data(), v);
      } catch (const failure& f) {
        fail(f.code, pos_);  // the budget: the only failure of a record field's default
      }
      return v;
    }
    decode_result r = d.run(t);
    if (!r.ok) {
      if (r.code == errc::allocation_limit_exceeded || r.code == errc::depth_limit_exceeded ||
          r.code == errc::element_limit_exceeded || r.code == errc::object_limit_exceeded)
        fail(r.code, pos_);
      throw schema_error("schema: a field default does not decode (" + std::string(errc_name(r.code)) + ")");
    }
    return std::move(r.value);
  }

  // ---- records ---------------------------------------------------------------------------------

  static bool whole_fields(const definition& d, std::uint64_t length) {
    if (length >= d.size) return true;
    if (length == 0) return true;
    for (const field& f : d.fields)
      if (f.offset + f.width == length) return true;
    return false;
  }

  /// A record field of type t at p: its value, or false (and the reason) if a value is invalid.
  errc record_field_value(const type& t, const std::byte* p, json& out) {
    if (block_element(t)) {
      if (!fixed_value(t.prim, p, out))
        return t.prim == primitive::boolean ? errc::invalid_value : errc::value_out_of_range;
      return errc::ok;
    }
    if (t.kind == kind::array) {
      charge(t.size, value_cost(), static_cast<std::size_t>(p - in_.data()));
      out = json::array();
      const std::uint64_t width = record_width(s_, t.arg());
      for (std::uint64_t i = 0; i < t.size; ++i) {
        json e;
        if (const errc r = record_field_value(t.arg(), p + i * width, e); r != errc::ok) return r;
        out.push(std::move(e));
      }
      return errc::ok;
    }
    const definition& d = s_.at(t.name);
    if (d.kind == definition_kind::enumeration) {
      type u;
      u.prim = d.underlying;
      return record_field_value(u, p, out);
    }
    out = json::object();
    for (const field& f : d.fields) {
      charge(1, member_cost(f.name), static_cast<std::size_t>(p + f.offset - in_.data()));
      json e;
      if (const errc r = record_field_value(f.type, p + f.offset, e); r != errc::ok) return r;
      add_member(out, f.name, std::move(e));
    }
    return errc::ok;
  }

  /// The record at p (taken already) whose data has `length` bytes: fields wholly inside them,
  /// the others at their defaults; bytes beyond the reader's fields skipped.
  json record_at(const definition& d, std::size_t p, std::size_t length) {
    json v = json::object();
    for (const field& f : d.fields) {
      path_scope scope(*this, "." + f.name);
      charge(1, member_cost(f.name), p + static_cast<std::size_t>(std::min<std::uint64_t>(f.offset, length)));
      if (f.offset + f.width <= length) {
        json e;
        if (const errc r = record_field_value(f.type, in_.data() + p + f.offset, e); r != errc::ok)
          fail(r, p + static_cast<std::size_t>(f.offset));
        note(p + static_cast<std::size_t>(f.offset), static_cast<std::size_t>(f.width), to_text(e));
        add_member(v, f.name, std::move(e));
      } else {
        note(p + std::min<std::size_t>(length, static_cast<std::size_t>(f.offset)), 0,
             "missing: the default " + to_hex(f.default_bytes));
        add_member(v, f.name, decode_default(f.type, f.default_bytes, true));
      }
    }
    if (length > d.size) {
      const auto known = static_cast<std::size_t>(d.size);  // below length
      const auto from = in_.begin() + static_cast<std::ptrdiff_t>(p + known);
      note(p + known, length - known,
           "skipped: " + std::to_string(length - known) + " bytes of fields this schema does not know");
      charge(1, member_cost("$skipped") + 4 * std::uint64_t{length - known}, p + known);
      add_member(v, "$skipped",
                 to_hex(std::vector<std::byte>(from, from + static_cast<std::ptrdiff_t>(length - known))));
    }
    return v;
  }

  json read_record_alone(const definition& d) {
    const std::size_t start = pos_;
    const std::uint64_t h = varint();
    const std::uint64_t length = h >> 1;
    if (length > remaining()) fail(errc::unexpected_end, limit_);
    if (h & 1) fail(errc::invalid_value, start);
    if (!whole_fields(d, length)) fail(errc::invalid_stride, start);
    note(start, pos_ - start, d.name + " (record): " + std::to_string(length) + " bytes");
    const std::size_t p = pos_;
    take(static_cast<std::size_t>(length));
    return record_at(d, p, static_cast<std::size_t>(length));
  }

  std::uint64_t stride(const definition& d) {
    const std::size_t at = pos_;
    const std::uint64_t width = varint();
    if (!whole_fields(d, width)) fail(errc::invalid_stride, at);
    note(at, pos_ - at, "stride " + std::to_string(width));
    return width;
  }

  json record_block(const definition& d) {
    const std::size_t start = pos_;
    const std::uint64_t n = varint();
    note(start, pos_ - start, "count " + std::to_string(n));
    json v = json::array();
    if (n == 0) return v;
    const std::uint64_t width = stride(d);
    if (width > remaining()) fail(errc::count_exceeds_input, start);
    if (n > options_.max_elements) fail(errc::element_limit_exceeded, start);
    if (width != 0 && n > remaining() / width) fail(errc::count_exceeds_input, start);
    // Records of stride 0 take no input: 7 bytes made 64 Mi records (5.6 GB) before this charge.
    charge(n, value_cost(), start);
    const std::size_t p = pos_;
    take(static_cast<std::size_t>(n * width));
    for (std::uint64_t i = 0; i < n; ++i) {
      path_scope scope(*this, "[" + std::to_string(i) + "]");
      v.push(record_at(d, p + static_cast<std::size_t>(i * width), static_cast<std::size_t>(width)));
    }
    return v;
  }

  // ---- containers ------------------------------------------------------------------------------

  const definition* record_of(const type& t) const {
    const definition* d = s_.named(t);
    return d && d->kind == definition_kind::record ? d : nullptr;
  }

  /// n block elements of p at the current position (a string's code units, an arithmetic array).
  json block(primitive p, std::uint64_t n) {
    const std::size_t width = block_width(p);
    const std::size_t at = pos_;
    const std::byte* data = take(static_cast<std::size_t>(n) * width);
    charge(n, value_cost(), at);
    json v = json::array();
    for (std::uint64_t i = 0; i < n; ++i) {
      json e;
      // An invalid element (a bool byte other than 00/01) is reported at that element.
      if (!fixed_value(p, data + i * width, e)) fail(errc::invalid_value, at + static_cast<std::size_t>(i) * width);
      if (options_.annotate) {
        path_scope scope(*this, "[" + std::to_string(i) + "]");
        note(at + static_cast<std::size_t>(i) * width, width, to_text(e));
      }
      v.push(std::move(e));
    }
    return v;
  }

  json read_string(const type& t) {
    const std::size_t width = block_width(t.prim);
    const std::uint64_t n = count(width, 0, "length");
    const std::size_t at = pos_;
    const std::byte* data = take(static_cast<std::size_t>(n) * width);
    const std::span<const std::byte> bytes(data, static_cast<std::size_t>(n) * width);
    charge(n, sizeof(std::uint32_t), at);  // the code units
    std::vector<std::uint32_t> units;
    for (std::uint64_t i = 0; i < n; ++i) units.push_back(static_cast<std::uint32_t>(load_le(data + i * width, width)));
    std::optional<std::string> text;
    if (t.prim == primitive::character) {
      if (valid_utf8(bytes)) text.emplace(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
    } else if (t.prim == primitive::u16) {
      std::string out;
      bool ok = true;
      for (std::size_t i = 0; i < units.size() && ok; ++i) {
        const std::uint32_t u = units[i];
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF) {
          bifrons::detail::json::append_code_point(out, 0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00));
          ++i;
        } else if (u >= 0xD800 && u <= 0xDFFF) {
          ok = false;
        } else {
          bifrons::detail::json::append_code_point(out, u);
        }
      }
      if (ok) text = std::move(out);
    } else {
      std::string out;
      bool ok = true;
      for (const std::uint32_t u : units) {
        if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) ok = false;
        if (ok) bifrons::detail::json::append_code_point(out, u);
      }
      if (ok) text = std::move(out);
    }
    if (text) {
      charge_text(*text, at);
      json v(*text);
      if (n != 0) note(at, bytes.size(), to_text(v));
      return v;
    }
    charge(1, member_cost("units"), at);
    charge(n, value_cost(), at);
    json list = json::array();
    for (const std::uint32_t u : units) list.push(json::integer(u));
    json v = json::object();
    add_member(v, "units", std::move(list));
    note(at, bytes.size(), to_text(v));
    return v;
  }

  json read_sequence(const type& t) {
    if (const definition* d = record_of(t.arg())) return record_block(*d);
    if (block_element(t.arg()) && !t.varint) {
      // block() charges the elements once it has their bytes.
      const std::uint64_t n = count(block_width(t.arg().prim), 0);
      return block(t.arg().prim, n);
    }
    const std::uint64_t n = count(t.varint ? min_size(s_, t.arg()) : element_min_size(s_, t.arg()), value_cost());
    json v = json::array();
    for (std::uint64_t i = 0; i < n; ++i) {
      path_scope scope(*this, "[" + std::to_string(i) + "]");
      v.push(read(t.arg()));
    }
    return v;
  }

  json read_array(const type& t) {
    json v = json::array();
    if (const definition* d = record_of(t.arg())) {
      if (t.size == 0) return v;
      const std::size_t at = pos_;
      const std::uint64_t width = stride(*d);
      if (width != 0 && t.size > remaining() / width) fail(errc::unexpected_end, limit_);
      charge(t.size, value_cost(), at);
      const std::size_t p = pos_;
      take(static_cast<std::size_t>(t.size * width));
      for (std::uint64_t i = 0; i < t.size; ++i) {
        path_scope scope(*this, "[" + std::to_string(i) + "]");
        v.push(record_at(*d, p + static_cast<std::size_t>(i * width), static_cast<std::size_t>(width)));
      }
      return v;
    }
    if (block_element(t.arg()) && !t.varint) return block(t.arg().prim, t.size);
    // Elements that take no input (array<array<monostate, 2^32>, 2^32>) are bounded by this alone.
    charge(t.size, value_cost(), pos_);
    for (std::uint64_t i = 0; i < t.size; ++i) {
      path_scope scope(*this, "[" + std::to_string(i) + "]");
      v.push(read(t.arg()));
    }
    return v;
  }

  json bits(const std::byte* p, std::uint64_t n, std::size_t bytes) {
    // The unused high bits of the last byte are zero.
    if (n % 8 != 0 && (static_cast<unsigned>(p[bytes - 1]) >> (n % 8)) != 0)
      fail(errc::invalid_value, static_cast<std::size_t>(p + bytes - 1 - in_.data()));
    charge(n, value_cost(), static_cast<std::size_t>(p - in_.data()));
    json v = json::array();
    for (std::uint64_t i = 0; i < n; ++i) v.push(json(((static_cast<unsigned>(p[i / 8]) >> (i % 8)) & 1) != 0));
    return v;
  }

  json read_bitvector() {
    const std::size_t at = pos_;
    const std::uint64_t n = count(0, 0);  // bits() charges the values once it has their bytes
    const std::size_t bytes = static_cast<std::size_t>((n + 7) / 8);
    if (bytes > remaining()) fail(errc::count_exceeds_input, at);
    const std::byte* p = take(bytes);
    json v = bits(p, n, bytes);
    note(static_cast<std::size_t>(p - in_.data()), bytes, to_text(v));
    return v;
  }

  json read_bitset(const type& t) {
    const std::size_t bytes = static_cast<std::size_t>((t.size + 7) / 8);
    const std::byte* p = take(bytes);
    json v = bits(p, t.size, bytes);
    note(static_cast<std::size_t>(p - in_.data()), bytes, to_text(v));
    return v;
  }

  /// Keys of type t are equal when their values are, floating point compared as numbers (-0.0
  /// equals 0.0, a NaN equals nothing); the type says which JSON strings are floats ("nan",
  /// "inf") and which are text. key_text appends to out a text that two keys share exactly when
  /// they are equal, so that a set finds a duplicate in O(log n); false if the key holds a NaN
  /// where its type has a float, and so equals no key. Each part is tagged and, where its length
  /// varies, prefixed with it, so that no two sequences of parts spell the same text.
  bool key_text(const type& t, const json& v, std::string& out) const {
    const auto exact = [&](const json& x) {  // compared as JSON values (members in any order)
      const std::string text = to_text(x, 0, true);
      out += 'j' + std::to_string(text.size()) + ':' + text;
      return true;
    };
    const auto items = [&](const json& x, const auto& type_of) {
      if (!x.is_array()) return exact(x);
      out += 'a' + std::to_string(x.items().size()) + ':';
      for (std::size_t i = 0; i < x.items().size(); ++i)
        if (!key_text(type_of(i), x.items()[i], out)) return false;
      return true;
    };
    switch (t.kind) {
      case kind::primitive: {
        if (!is_float(t.prim)) return exact(v);
        if (v.is_string()) return v.text().rfind("nan", 0) != 0 && exact(v);  // "inf", "-inf"
        double d = std::strtod(v.text().c_str(), nullptr);
        if (d == 0) d = 0;  // -0.0 is 0.0
        char bits[17];
        const auto r = std::to_chars(bits, bits + sizeof bits, std::bit_cast<std::uint64_t>(d), 16);
        out += 'f' + std::string(bits, r.ptr) + ';';
        return true;
      }
      case kind::named: {
        const definition& d = s_.at(t.name);
        if (d.kind == definition_kind::enumeration || !v.is_object()) return exact(v);
        // Fields in the order of the definition, present or absent; the members starting with $
        // (version, id, skipped bytes) are not part of the value. The decoder adds the members
        // in the fields' order: a cursor finds each without a search.
        const auto& members = v.members();
        std::size_t next = 0;
        out += 'o';
        for (const field& f : d.fields) {
          while (next < members.size() && !members[next].first.empty() && members[next].first[0] == '$') ++next;
          const json* x = nullptr;
          if (next < members.size() && members[next].first == f.name)
            x = &members[next++].second;
          else
            x = v.find(f.name);  // not in the decoder's order
          if (x == nullptr) {
            out += '-';
          } else {
            out += '+';
            if (!key_text(f.type, *x, out)) return false;
          }
        }
        return true;
      }
      case kind::sequence:
      case kind::array:
      case kind::set:
      case kind::complex: return items(v, [&](std::size_t) -> const type& { return t.arg(); });
      case kind::tuple:
        if (v.is_array() && v.items().size() != t.args.size()) return false;  // equal to no tuple
        return items(v, [&](std::size_t i) -> const type& { return t.args[i]; });
      case kind::map: {
        if (!v.is_array()) return false;
        out += 'm' + std::to_string(v.items().size()) + ':';
        for (const json& pair : v.items()) {
          if (!pair.is_array() || pair.items().size() > 2) return false;
          if (!items(pair, [&](std::size_t i) -> const type& { return t.arg(i); })) return false;
        }
        return true;
      }
      case kind::optional: {
        if (v.is_null()) return exact(v);
        const json* x = nullable(t.arg()) ? v.find("some") : &v;
        if (x == nullptr) return false;
        out += 's';
        return key_text(t.arg(), *x, out);
      }
      case kind::variant: {
        const json* i = v.find("index");
        const json* x = v.find("value");
        if (i == nullptr || x == nullptr) return false;
        const auto index = static_cast<std::size_t>(std::strtoull(i->text().c_str(), nullptr, 10));
        if (index >= t.args.size()) return false;
        out += 'v' + std::to_string(index) + ':';
        return key_text(t.args[index], *x, out);
      }
      case kind::duration:
      case kind::deprecated: return key_text(t.arg(), v, out);
      case kind::time_point: return key_text(t.arg().arg(), v, out);
      default: return exact(v);  // strings, bits, fixed integers, pointers
    }
  }

  json read_associative(const type& t) {
    const bool is_map = t.kind == kind::map;
    const std::uint64_t min = is_map ? saturating_add(min_size(s_, t.arg(0)), min_size(s_, t.arg(1)))
                                     : min_size(s_, t.arg(0));
    // A map's element is the pair [key, value]: three values.
    const std::uint64_t n = count(min, (is_map ? 3 : 1) * value_cost());
    json v = json::array();
    // The keys read so far, each by key_text: a search in O(log n) (comparing each key with every
    // earlier one made 40,000 keys take 8.8 s).
    std::set<std::string, counting_less> keys(counting_less{&shared_.key_comparisons});
    for (std::uint64_t i = 0; i < n; ++i) {
      path_scope scope(*this, "[" + std::to_string(i) + "]");
      const std::size_t at = pos_;
      json key;
      {
        path_scope k(*this, is_map ? "{key}" : "");
        key = read(t.arg(0));
      }
      json element = key;
      if (is_map) {
        path_scope value_scope(*this, "{value}");
        element = json::array();
        element.push(key);
        element.push(read(t.arg(1)));
      }
      if (!t.multi) {
        std::string text;
        // A key holding a NaN equals no key (not even itself): it is not kept.
        if (key_text(t.arg(0), key, text)) {
          charge(1, text.size() + 64, at);  // the key and its node in the set
          if (!keys.insert(std::move(text)).second) fail(errc::duplicate_key, at);
        }
      }
      v.push(std::move(element));
    }
    return v;
  }

  // ---- pointers ----------------------------------------------------------------------------------

  /// Makes room for one more object in the table (its type's spelling has type_size bytes).
  void count_object(std::size_t at, std::size_t type_size) {
    if (objects_.size() >= options_.max_objects) fail(errc::object_limit_exceeded, at);
    charge(1, sizeof(object) + type_size, at);
  }

  /// Whether a registered class `type` reaches `to` (itself, or one of its "bases").
  bool reaches(const std::string& type, const std::string& to) const {
    if (type == to) return true;
    const auto it = s_.types.find(type);
    return it != s_.types.end() &&
           std::find(it->second.bases.begin(), it->second.bases.end(), to) != it->second.bases.end();
  }

  /// The object that a reference of pointer type t names: of t's `to`, or, for a polymorphic
  /// pointer, of a registered class that reaches it. One counted but not read (in fields of a
  /// newer writer) fails with unknown_type.
  object& referenced(std::uint64_t tag, const type& t, std::size_t at) {
    const std::uint64_t index = tag - 3;
    if (index >= objects_.size()) fail(errc::invalid_value, at);
    object& o = objects_[static_cast<std::size_t>(index)];
    if (o.kind == object::held::skipped && (!options_.unknown_types_null || t.name == "reference"))
      fail(errc::unknown_type, at);
    if (o.kind == object::held::skipped) return o;  // reads as null
    if (o.type == spell(t.arg())) return o;
    if (!(t.polymorphic && o.registered && !o.type.empty() && reaches(o.type, t.arg().name)))
      fail(errc::invalid_value, at);
    return o;
  }

  /// Under unknown_types_null: the envelope of an object of a class this schema does not know,
  /// skipped; it and the objects inside it take their ids, and the pointer reads as null.
  json skip_unknown_object(std::size_t at, const std::string& name, std::uint64_t inside) {
    const std::size_t start = pos_;
    const std::uint64_t length = varint() >> 1;
    if (length > remaining()) fail(errc::unexpected_end, limit_);
    if (inside > length) fail(errc::invalid_value, at);
    take(static_cast<std::size_t>(length));
    note(start, pos_ - start, "skipped: an object of " + to_text(json(name)) + ", a class this schema does not know");
    for (std::uint64_t i = 0; i <= inside; ++i) {
      count_object(at, 0);
      objects_.push_back({"", object::held::skipped, false, false, current_});
    }
    return json();
  }

  /// After tag 2: the type (an index, or 0 and new names first) and the count of objects inside
  /// (docs/format.md section 23). Returns the registered name; its struct in `dynamic` ("" if
  /// this schema does not know the name).
  std::string polymorphic_header(std::string& dynamic, std::uint64_t& inside) {
    std::size_t at = pos_;
    std::uint64_t index = varint();
    if (index == 0) {
      const std::size_t count_at = pos_;
      const std::uint64_t names = varint();
      if (names == 0 || names > remaining() / 2) fail(errc::invalid_value, count_at);  // a name takes 2 bytes
      note(at, pos_ - at, std::to_string(names) + " new type name" + (names == 1 ? "" : "s"));
      for (std::uint64_t i = 0; i < names; ++i) {
        const std::size_t name_at = pos_;
        const std::uint64_t length = varint();
        if (length == 0 || length > 255) fail(errc::invalid_value, name_at);
        const std::byte* p = take(static_cast<std::size_t>(length));
        charge(1, sizeof(std::string) + length, name_at);
        type_names_.emplace_back(reinterpret_cast<const char*>(p), static_cast<std::size_t>(length));
        note(name_at, pos_ - name_at,
             "type " + std::to_string(type_names_.size()) + ": " + to_text(json(type_names_.back())));
      }
      at = pos_;
      index = varint();
    }
    if (index == 0 || index > type_names_.size()) fail(errc::invalid_value, at);  // a type not named before
    const std::string& name = type_names_[static_cast<std::size_t>(index - 1)];
    note(at, pos_ - at, "of type " + std::to_string(index) + ", " + to_text(json(name)));
    const std::size_t count_at = pos_;
    inside = varint();
    // Every object inside takes at least one byte of the encoding that follows, a struct
    // envelope: counted against its length (peeked), and against the input.
    const std::size_t body = pos_;
    const std::uint64_t envelope = varint();
    pos_ = body;
    if (inside > (envelope >> 1) || inside > remaining()) fail(errc::invalid_value, count_at);
    note(count_at, pos_ - count_at, std::to_string(inside) + " objects inside");
    const auto it = s_.polymorphic.find(name);
    dynamic = it == s_.polymorphic.end() ? std::string() : it->second;
    return name;
  }

  json read_pointer(const type& t) {
    const std::size_t at = pos_;
    const std::uint64_t tag = varint();
    const std::string& role = t.name;
    const auto reference = [&](std::uint64_t tag_value) {
      note(at, pos_ - at, "reference to object " + std::to_string(tag_value - 2));
      charge(1, member_cost("ref"), at);
      json v = json::object();
      add_member(v, "ref", json::integer(tag_value - 2));
      return v;
    };
    if (tag == 0 && role != "reference") {
      note(at, pos_ - at, "null");
      return json();
    }
    const bool owns_alone = role == "unique" || role == "owning";
    const bool shares = role == "shared" || role == "weak";
    const bool polymorphic = tag == 2 && t.polymorphic && (owns_alone || shares);
    if ((tag == 1 || polymorphic) && (owns_alone || shares)) {
      std::string type_name = spell(t.arg());
      std::string registered_name;
      std::uint64_t inside = 0;
      bool registered = t.polymorphic && shared_.registered_structs.count(type_name) != 0;
      // Tag 1 would create an object of an abstract class.
      if (const definition* d = s_.named(t.arg()); tag == 1 && d && d->abstract) fail(errc::invalid_value, at);
      if (polymorphic) {
        note(at, 1, "new object " + std::to_string(objects_.size() + 1) + ", of a registered class:");
        registered_name = polymorphic_header(type_name, inside);
        if (type_name.empty()) {
          if (!options_.unknown_types_null) {
            error_note_ = "the data holds an object of type \"" + bifrons::detail::data_spelling(registered_name) +
                          "\", which the schema does not register (" + std::string(options_.unknown_type_hint) + ")";
            fail(errc::unknown_type, at);
          }
          return skip_unknown_object(at, registered_name, inside);
        }
        if (!reaches(type_name, t.arg().name)) fail(errc::invalid_value, at);  // never reinterpret an object
        registered = true;
      }
      count_object(at, type_name.size());
      objects_.push_back({type_name, shares ? object::held::shared : object::held::unique, true, registered, current_});
      const std::size_t index = objects_.size() - 1;
      objects_[index].weak_link = role == "weak";
      if (!polymorphic) note(at, pos_ - at, "new object " + std::to_string(index + 1));
      const std::size_t floor = strong_floor_;
      const std::size_t outer = current_;
      if (role == "weak") strong_floor_ = index;
      current_ = index + 1;
      json value;
      {
        path_scope scope(*this, polymorphic ? "*(" + registered_name + ")" : "*");
        type dynamic;
        dynamic.kind = kind::named;
        dynamic.name = type_name;
        value = read(polymorphic ? dynamic : t.arg(), true);
      }
      strong_floor_ = floor;
      current_ = outer;
      objects_[index].in_progress = false;
      // The chain of owners it heads goes to its holder (object_table::close); destroying a chain
      // longer than max_depth would recurse that deep.
      const std::uint64_t height = ++objects_[index].height;
      if (!objects_[index].weak_link && outer != 0)
        objects_[outer - 1].height = std::max(objects_[outer - 1].height, height);
      if (height > options_.max_depth) fail(errc::depth_limit_exceeded, at);
      std::uint64_t unread = 0;
      if (polymorphic) {
        // An older reader may read fewer of the objects inside (the rest were in fields it
        // skips): they take their ids all the same. Never more.
        const std::size_t read_inside = objects_.size() - (index + 1);
        if (read_inside > inside) fail(errc::invalid_value, at);
        unread = inside - read_inside;
        for (std::uint64_t i = 0; i < unread; ++i) {
          count_object(at, 0);
          objects_.push_back({"", object::held::skipped, false, false, current_});
        }
      }
      charge(1, member_cost("id") + member_cost("value"), at);
      json v = json::object();
      add_member(v, "id", json::integer(index + 1));
      if (polymorphic) {
        charge(1, member_cost("type"), at);
        charge_text(registered_name, at);
        add_member(v, "type", registered_name);
      }
      add_member(v, "value", std::move(value));
      if (unread != 0) {
        charge(1, member_cost("unread"), at);
        add_member(v, "unread", json::integer(unread));
      }
      return v;
    }
    if (tag < 3 || owns_alone) fail(errc::invalid_value, at);
    object& o = referenced(tag, t, at);
    if (o.kind == object::held::skipped) {
      note(at, pos_ - at, "reference to object " + std::to_string(tag - 2) + ", skipped: null");
      return json();
    }
    const auto index = static_cast<std::size_t>(tag - 3);
    if (shares) {
      if (o.kind != object::held::shared) fail(errc::invalid_value, at);
      if (role == "shared") {
        if (o.in_progress && index >= strong_floor_) fail(errc::invalid_value, at);
        // A link up counts when the value ends (end_value); any other link adds a finished chain.
        if (!o.in_progress && current_ != 0)
          objects_[current_ - 1].height = std::max(objects_[current_ - 1].height, o.height);
        links_up_ = links_up_ || o.in_progress;
        records_.push_back({index, current_, at,
                            o.in_progress ? pointer_record::link::up : pointer_record::link::strong});
      }
    } else {
      records_.push_back({index, current_, at, pointer_record::link::observer});
    }
    return reference(tag);
  }

  const schema& s_;
  shared_state& shared_;
  std::vector<std::string> type_names_;          // tag-2 type names, by index - 1
  std::vector<std::string> virtual_bases_met_;   // in the complete object being read
  std::span<const std::byte> in_;
  std::size_t pos_ = 0;
  std::size_t limit_;
  std::uint64_t depth_left_;
  decode_options options_;
  bool defaults_;
  std::vector<std::string> path_;
  std::string error_path_;
  std::string error_note_;  // what is at fault, beyond the code (an unknown type's name)
  std::vector<object> objects_;
  std::size_t strong_floor_ = 0;
  std::size_t current_ = 0;  // index + 1 of the innermost object being read; 0: none
  std::vector<pointer_record> records_;
  bool links_up_ = false;

  /// Whether object `holder` (index + 1, not 0) lies in a shared object (object_table).
  [[nodiscard]] bool held_in_shared(std::size_t holder) const {
    for (std::size_t depth = 0; holder != 0 && depth < objects_.size(); ++depth) {
      const object& o = objects_[holder - 1];
      if (o.kind == object::held::shared) return true;
      holder = o.holder;
    }
    return false;
  }

  /// The end of the value, as the library's object table ends it (object_table::release): with
  /// links up, the graph of owners must have no cycle (invalid_value at the first link up in
  /// one) and no chain of owners longer than max_depth (depth_limit_exceeded at the first link
  /// up); then a non-owning pointer kept by a live object must not name an object that dies
  /// with the reader's references (invalid_value at the first).
  void end_value() {
    const std::size_t n = objects_.size();
    const auto owning_edges = [&](auto&& edge) {
      for (std::size_t i = 0; i < n; ++i) {
        const object& o = objects_[i];
        if (o.holder != 0 && !o.weak_link && (o.kind == object::held::shared || o.kind == object::held::unique))
          edge(o.holder - 1, i);
      }
      for (const pointer_record& r : records_)
        if (r.kind != pointer_record::link::observer && r.holder != 0) edge(r.holder - 1, r.target);
    };
    if (links_up_) {
      // Heights from the objects that own nothing, backwards along the edges (Kahn).
      std::vector<std::vector<std::size_t>> owners(n);
      std::vector<std::size_t> pending(n, 0);
      std::vector<std::uint64_t> height(n, 1);
      owning_edges([&](std::size_t from, std::size_t to) {
        owners[to].push_back(from);
        ++pending[from];
      });
      std::vector<std::size_t> ready;
      for (std::size_t i = 0; i < n; ++i)
        if (pending[i] == 0) ready.push_back(i);
      std::size_t measured = 0;
      while (!ready.empty()) {
        const std::size_t v = ready.back();
        ready.pop_back();
        ++measured;
        for (const std::size_t u : owners[v]) {
          height[u] = std::max(height[u], height[v] + 1);
          if (--pending[u] == 0) ready.push_back(u);
        }
      }
      if (measured != n) {
        for (const pointer_record& r : records_)
          if (r.kind == pointer_record::link::up && r.holder != 0 && pending[r.holder - 1] != 0 &&
              pending[r.target] != 0)
            fail(errc::invalid_value, r.at);
        fail(errc::invalid_value, records_.front().at);
      }
      for (std::size_t i = 0; i < n; ++i)
        if (height[i] > options_.max_depth)
          for (const pointer_record& r : records_)
            if (r.kind == pointer_record::link::up) fail(errc::depth_limit_exceeded, r.at);
    }
    // Which objects live: those the value owns, from its own members on (a forgotten or skipped
    // object owns nothing, and lives not).
    std::vector<bool> alive(n, false);
    std::vector<std::vector<std::size_t>> owned(n + 1);  // by holder, index + 1 (0: the value)
    const auto dead = [&](std::size_t i) {
      const object& o = objects_[i];
      return o.kind == object::held::skipped || (o.kind != object::held::shared && o.type.empty());
    };
    for (std::size_t i = 0; i < n; ++i)
      if (!objects_[i].weak_link) owned[objects_[i].holder].push_back(i);
    for (const pointer_record& r : records_)
      if (r.kind != pointer_record::link::observer) owned[r.holder].push_back(r.target);
    std::vector<std::size_t> stack(owned[0].begin(), owned[0].end());
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      if (alive[i] || dead(i)) continue;
      alive[i] = true;
      for (const std::size_t j : owned[i + 1]) stack.push_back(j);
    }
    for (const pointer_record& r : records_)
      if (r.kind == pointer_record::link::observer && !alive[r.target] && (r.holder == 0 || alive[r.holder - 1]))
        fail(errc::invalid_value, r.at);
  }
  std::vector<annotation> notes_;
  std::uint64_t depth_base_;  // the printed depth of this decoder's root (a default's: its field's)

  /// Levels of the value (structs and what type expressions nest inside them) the decoder
  /// recurses through: 16 per struct at max_depth 64, more than real types nest.
  static constexpr std::uint64_t max_nesting = 1024;
};

}  // namespace decoder_impl

inline decode_result decode(const schema& s, const type& t, std::span<const std::byte> bytes,
                            const decode_options& options) {
  decoder_impl::shared_state shared{options.max_alloc_bytes, decoder_impl::registered_of(s)};
  return decoder_impl::decoder(s, bytes, options, false, shared, 0).run(t);
}

inline decode_result decode(const schema& s, std::span<const std::byte> bytes, const decode_options& options) {
  return decode(s, s.root, bytes, options);
}

}  // namespace bifrons::detail::inspect
