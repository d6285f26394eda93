// SPDX-License-Identifier: MIT
#include "checker.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace bifrons::tools {

std::string_view verdict_name(verdict v) {
  switch (v) {
    case verdict::compatible: return "compatible";
    case verdict::breaking: return "breaking";
    case verdict::silent: return "silent";
  }
  return "?";
}

const std::vector<rule_info>& rules() {
  static const std::vector<rule_info> list = {
      {"append-field", "Append a field at the end of a struct"},
      {"remove-last-field", "Remove the last field"},
      {"retire-field", "Retire a field in the middle with `bifrons::deprecated<T>`"},
      {"remove-field", "Remove a field in the middle outright"},
      {"insert-field", "Insert a field in the middle"},
      {"reorder-fields", "Reorder fields"},
      {"rename", "Rename a field or a type"},
      {"change-default", "Change a field's default (member initializer)"},
      {"widen-integer", "Widen an integer, same signedness (8 → 16 → 32 → 64 bits)"},
      {"resize-array-element",
       "Widen or narrow the element type of an arithmetic array (`vector<int16_t>` → `vector<int32_t>`, "
       "`std::array`, `u16string` → `u32string`)"},
      {"narrow-integer", "Narrow an integer, same signedness"},
      {"change-signedness", "Change signedness (`int32_t` ↔ `uint32_t`)"},
      {"float-double", "`float` ↔ `double`"},
      {"integer-enum", "Integer ↔ enum with the same underlying type"},
      {"bool-unsigned", "`bool` → unsigned integer"},
      {"string-bytes", "`std::string` ↔ `vector<char>`, `vector<uint8_t>`, `vector<std::byte>`"},
      {"string-view", "`std::string` ↔ `std::string_view`"},
      {"span-view", "`vector<T>` ↔ `span<const T>` (arithmetic `T`)"},
      {"set-multiset", "`set` → `multiset`, `map` → `multimap`"},
      {"multiset-set", "`multiset` → `set`, `multimap` → `map`"},
      {"map-pairs", "`map<K, V>` ↔ `vector<pair<K, V>>`"},
      {"optional-wrap", "`T` → `optional<T>` (or back)"},
      {"optional-unique", "`optional<T>` ↔ `unique_ptr<T>`"},
      {"unique-shared", "`unique_ptr<T>` → `shared_ptr<T>`"},
      {"shared-weak", "`shared_ptr<T>` ↔ `weak_ptr<T>`"},
      {"raw-reference", "Raw `T*` (non-owning) ↔ `reference_wrapper<T>`"},
      {"owning-unique", "`owning(T*)` ↔ `unique_ptr<T>`"},
      {"identity", "Add or remove `enable_identity<T>`"},
      {"wrap-struct", "`T` → a struct wrapping `T`; fields moved into a base class"},
      {"hook-aggregate", "Aggregate → class with a hook writing the same fields in the same order"},
      {"add-version", "Add a class version to a class that had none"},
      {"bump-version", "Bump the class version"},
      {"append-alternative", "Add alternatives at the end of a `variant`"},
      {"change-alternatives", "Insert, remove or reorder `variant` alternatives"},
      {"array-size", "Change a `std::array` or C array size"},
      {"tuple-elements", "Add or remove a `pair`/`tuple` element"},
      {"duration-period", "Change a `chrono::duration`'s period (ms → µs)"},
      {"fixed-plain", "`fixed(x)` ↔ plain `x`"},
      {"record-append-field", "Append a field at the end of a record"},
      {"record-remove-last-field", "Remove the last field of a record"},
      {"record-middle-fields", "Remove, insert or reorder fields in the middle of a record"},
      {"record-field-type",
       "Change the type or width of a field of a record (`int32_t` → `int64_t`, `char[4]` → `char[8]`, `float` ↔ "
       "`double`)"},
      {"record-integer-enum", "Integer ↔ enum with the same underlying type, in a record"},
      {"struct-record", "Struct ↔ record (declare an existing struct a record with `enable_record`, or stop)"},
      {"record-nested-append", "Append a field to a record that is nested in another record"},
      {"array-vector", "`std::array<R, N>` ↔ `vector<R>` of records"},
      {"time-point-clock", "a `time_point`'s clock (docs/format.md §18: the clock is not written)"},
      {"framed-rename", "Rename the root type of typed files (`bifrons::to_framed`)"},
      {"add-registered", "Add a class derived from a registered polymorphic class (and register it)"},
      {"rename-registered", "Rename a registered type (its registered name)"},
      {"remove-registered", "Remove a registered class (or stop registering it)"},
      {"registered-bases", "Change the registered relations of a registered class (its bases)"},
      {"make-polymorphic", "Make a class polymorphic (add a virtual function)"},
      {"virtual-base", "Make a base class virtual"},
      {"make-abstract", "Make a class abstract (a pure virtual function)"},
      {"change-type", "a change of type that no row of docs/evolution.md allows"},
  };
  return list;
}

std::string_view rule_row(std::string_view id) {
  for (const rule_info& r : rules())
    if (r.id == id) return r.row;
  return "";
}

verdict worst(const std::vector<finding>& findings) {
  verdict w = verdict::compatible;
  for (const finding& f : findings) {
    if (f.verdict == verdict::silent) return verdict::silent;
    if (f.verdict == verdict::breaking) w = verdict::breaking;
  }
  return w;
}

namespace {

/// Where a type sits, which decides its encoding: alone (its own encoding: a field, an element
/// of a container of elements one by one, an optional's value), as an element of a raw block, as
/// a field of a record, or a record nested in another record (which cannot grow).
enum class context : std::uint8_t { alone, block, record_field, nested_record };

/// A sequence-like type: how its elements travel.
struct shape {
  enum form_type : std::uint8_t { bits, block, records, elements } form = elements;
  type element;  // a map's is the tuple of its key and value
  bool unique = false;
  bool associative = false;
  bool string = false;
  bool view = false;
  bool varint = false;
};

/// The varint at the start of bytes and its length; length 0 if there is none.
std::pair<std::uint64_t, std::size_t> leading_varint(const std::vector<std::byte>& bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < bytes.size() && i < 10; ++i) {
    const auto b = static_cast<std::uint8_t>(bytes[i]);
    value |= std::uint64_t{b & 0x7fu} << (7 * i);
    if ((b & 0x80u) == 0) return {value, i + 1};
  }
  return {0, 0};
}

/// Whether two struct encodings (envelope header, body) differ only by fields appended to the
/// newer one: the same version flag, and the older body a proper prefix of the newer.
bool only_appended(const std::vector<std::byte>& older, const std::vector<std::byte>& newer) {
  const auto [old_header, old_width] = leading_varint(older);
  const auto [new_header, new_width] = leading_varint(newer);
  if (old_width == 0 || new_width == 0 || (old_header & 1) != (new_header & 1)) return false;
  const std::size_t old_body = older.size() - old_width, new_body = newer.size() - new_width;
  if (old_header >> 1 != old_body || new_header >> 1 != new_body || old_body >= new_body) return false;
  return std::equal(older.begin() + static_cast<std::ptrdiff_t>(old_width), older.end(),
                    newer.begin() + static_cast<std::ptrdiff_t>(new_width));
}

/// field0, field1, ...: how a hook's field without a name is named.
bool is_position_name(std::string_view name) {
  constexpr std::string_view prefix = "field";
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return false;
  for (const char c : name.substr(prefix.size()))
    if (c < '0' || c > '9') return false;
  return true;
}

bool holds_pointers(const schema& s) {
  std::set<std::string> seen;
  const auto walk = [&](auto&& self, const type& t) -> bool {
    if (t.kind == kind::pointer) return true;
    if (t.kind == kind::named) {
      if (!seen.insert(t.name).second) return false;
      for (const field& f : s.at(t.name).fields)
        if (self(self, f.type)) return true;
      return false;
    }
    for (const type& a : t.args)
      if (self(self, a)) return true;
    return false;
  };
  return walk(walk, s.root);
}

/// One more level of a recursion, for as long as it lives.
struct nesting {
  std::size_t& depth;
  explicit nesting(std::size_t& d) : depth(++d) {}
  ~nesting() { --depth; }
  nesting(const nesting&) = delete;
  nesting& operator=(const nesting&) = delete;
};

class checker {
 public:
  checker(const schema& o, const schema& n, const check_options& options) : old_(o), new_(n), options_(options) {}

  std::vector<finding> run() {
    compare(old_.root, new_.root, spell(new_.root), context::alone);
    compare_registered();
    return std::move(findings_);
  }

  [[nodiscard]] std::uint64_t comparisons() const { return comparisons_; }

 private:
  using pair_key = std::tuple<std::string, std::string, context>;

  void add(verdict v, const std::string& path, std::string_view rule, std::string message) {
    // A trial (survives) keeps only whether something went wrong: no messages to build.
    if (trial_depth_ > 0 && v == verdict::compatible) return;
    findings_.push_back({v, path, std::string(rule), trial_depth_ > 0 ? std::string() : std::move(message)});
  }

  /// Compares without keeping findings: true if nothing breaking or silent came up.
  ///
  /// A trial used to copy the set of compared pairs and restore it afterwards, so every trial
  /// walked its whole subtree again, and a struct field is tried before it is compared: twice
  /// per level, 2^depth in all (a chain of 24 nested structs took 22 s). Now the outcome of each
  /// pair of named types is remembered (trial_outcomes_), so each pair is tried once; the pairs a
  /// trial enters are forgotten from visited_ afterwards (the real walk must still report their
  /// findings), without copying the set.
  bool survives(const type& o, const type& n, context ctx) {
    std::vector<finding> saved;
    saved.swap(findings_);
    const std::size_t entered = trial_entered_.size();
    ++trial_depth_;
    compare(o, n, "", ctx);
    --trial_depth_;
    while (trial_entered_.size() > entered) {
      visited_.erase(trial_entered_.back());
      trial_entered_.pop_back();
    }
    const bool ok = worst(findings_) == verdict::compatible;
    findings_.swap(saved);
    return ok;
  }

  const definition* named(const schema& s, const type& t) const { return s.named(t); }
  const definition* old_def(const type& t) const { return named(old_, t); }
  const definition* new_def(const type& t) const { return named(new_, t); }

  /// complex<T> has the bytes of tuple<T, T>: compare it as one.
  static type normalized(const type& t) {
    if (t.kind != kind::complex) return t;
    type tuple;
    tuple.kind = kind::tuple;
    tuple.args = {t.arg(), t.arg()};
    return tuple;
  }

  std::string describe(const type& t) const { return "`" + spell(t) + "`"; }

  void compare(const type& o_in, const type& n_in, const std::string& path, context ctx) {
    ++comparisons_;
    // Type expressions nest up to 64 deep inside each of up to max_nesting named types: bounded
    // on its own, this recursion still reached 16,000 levels and ran out of stack.
    if (compare_depth_ >= max_compare_nesting)
      throw schema_error("schema: " + (path.empty() ? spell(n_in) : path) + ": types nest more than " +
                         std::to_string(max_compare_nesting) +
                         " levels (named types and type expressions); "
                         "the checker stops there");
    const nesting level(compare_depth_);
    const type o = normalized(o_in);
    const type n = normalized(n_in);
    if (o.kind == kind::deprecated || n.kind == kind::deprecated) return compare_deprecated(o, n, path, ctx);
    const definition* od = old_def(o);
    const definition* nd = new_def(n);
    const bool old_enum = od && od->kind == definition_kind::enumeration;
    const bool new_enum = nd && nd->kind == definition_kind::enumeration;
    if (old_enum || new_enum) return compare_enum(o, n, od, nd, path, ctx);
    if (od && nd) return compare_named(*od, *nd, path, ctx);
    if (od || nd) return compare_named_with_other(o, n, od, nd, path, ctx);
    if (o.kind == kind::primitive && n.kind == kind::primitive) return compare_primitives(o.prim, n.prim, path, ctx);
    if (is_sequence_like(o) && is_sequence_like(n)) return compare_sequences(o, n, path);
    if (o.kind == kind::array && n.kind == kind::array) return compare_arrays(o, n, path);
    if (o.kind == kind::tuple && n.kind == kind::tuple) return compare_tuples(o, n, path);
    if (o.kind == kind::variant && n.kind == kind::variant) return compare_variants(o, n, path);
    if (o.kind == kind::bitset && n.kind == kind::bitset) {
      if (o.size != n.size) add(verdict::breaking, path, "array-size", describe(o) + " → " + describe(n));
      return;
    }
    if (o.kind == kind::duration && n.kind == kind::duration) return compare_durations(o, n, path);
    if (o.kind == kind::time_point && n.kind == kind::time_point) {
      if (o.clock != n.clock)
        add(verdict::silent, path, "time-point-clock",
            "clock " + o.clock + " → " + n.clock + ": the count is read against another epoch");
      return compare_durations(o.arg(), n.arg(), path);
    }
    if (is_optional_like(o) && is_optional_like(n)) return compare_optionals(o, n, path);
    if (o.kind == kind::pointer && n.kind == kind::pointer) return compare_pointers(o, n, path);
    if (o.kind == kind::fixed && n.kind == kind::fixed) return compare_fixed(o, n, path);
    if (o.kind == kind::fixed || n.kind == kind::fixed) {
      add(verdict::breaking, path, "fixed-plain",
          describe(o) + " → " + describe(n) + ": fixed-width bytes against a varint");
      return;
    }
    if (n.kind == kind::optional && survives(o, n.arg(), ctx)) {
      add(verdict::breaking, path, "optional-wrap",
          describe(o) + " → " + describe(n) + ": `optional` adds a presence byte");
      return;
    }
    if (o.kind == kind::optional && survives(o.arg(), n, ctx)) {
      add(verdict::breaking, path, "optional-wrap", describe(o) + " → " + describe(n) + ": the presence byte goes");
      return;
    }
    if ((is_sequence_like(o) && n.kind == kind::array) || (o.kind == kind::array && is_sequence_like(n))) {
      add(verdict::breaking, path, "array-vector", describe(o) + " → " + describe(n) + ": a fixed array has no count");
      return;
    }
    add(verdict::breaking, path, "change-type", describe(o) + " → " + describe(n));
  }

  // ---- retired fields ------------------------------------------------------------------------

  void compare_deprecated(const type& o, const type& n, const std::string& path, context ctx) {
    if (o.kind == kind::deprecated && n.kind == kind::deprecated) return compare(o.arg(), n.arg(), path, ctx);
    if (n.kind == kind::deprecated) {
      // The retired field still reads the old type's bytes; old readers read what it writes.
      if (survives(o, n.arg(), ctx)) {
        add(verdict::compatible, path, "retire-field",
            describe(o) + " retired: new programs read and discard it, and write the default of its type");
      } else {
        compare(o, n.arg(), path, ctx);
      }
      return;
    }
    if (survives(o.arg(), n, ctx)) {
      add(verdict::compatible, path, "retire-field", "the retired " + describe(o.arg()) + " is a field again");
    } else {
      compare(o.arg(), n, path, ctx);
    }
  }

  // ---- scalars ---------------------------------------------------------------------------------

  void compare_primitives(primitive o, primitive n, const std::string& path, context ctx) {
    if (o == n) return;
    const std::string change = "`" + std::string(primitive_name(o)) + "` → `" + std::string(primitive_name(n)) + "`";
    const bool raw = ctx == context::block || ctx == context::record_field || ctx == context::nested_record;
    if (o == primitive::monostate || n == primitive::monostate)
      return add(verdict::breaking, path, "change-type", change);
    if (raw) {
      const std::string_view width_rule = ctx == context::block ? "resize-array-element" : "record-field-type";
      if (block_width(o) != block_width(n))
        return add(verdict::breaking, path, width_rule,
                   change + ": " + std::to_string(block_width(o)) + " bytes against " + std::to_string(block_width(n)));
      if (is_float(o) != is_float(n))
        return add(verdict::silent, path, ctx == context::block ? "change-type" : "record-field-type",
                   change + ": the same bytes read as another kind of number");
      if (is_integer(o) && is_integer(n))
        return add(verdict::silent, path, "change-signedness", change + ": the same bytes read with another sign");
      if (o == primitive::boolean || n == primitive::boolean)
        return add(verdict::compatible, path, "bool-unsigned",
                   change + ": one byte; a bool reader refuses bytes other than 00 and 01 (invalid_value)");
      return add(verdict::compatible, path, "string-bytes", change + ": the same raw bytes");
    }
    if (is_integer(o) && is_integer(n)) {
      if (is_signed(o) != is_signed(n))
        return add(verdict::silent, path, "change-signedness",
                   change + ": signed integers are zigzag varints, so values read doubled or halved");
      if (block_width(n) > block_width(o))
        return add(verdict::compatible, path, "widen-integer",
                   change + ": old programs refuse values that do not fit (value_out_of_range)");
      return add(verdict::compatible, path, "narrow-integer",
                 change + ": new programs refuse old values that do not fit (value_out_of_range)");
    }
    if (o == primitive::boolean || n == primitive::boolean) {
      const primitive other = o == primitive::boolean ? n : o;
      if (is_integer(other) && is_signed(other))
        return add(verdict::silent, path, "bool-unsigned", change + ": true (01) is the zigzag varint of -1");
      if (is_integer(other) || other == primitive::character || other == primitive::byte)
        return add(verdict::compatible, path, "bool-unsigned",
                   change + ": a bool reader refuses values other than 0 and 1 (invalid_value)");
    }
    if (is_float(o) && is_float(n))
      return add(verdict::breaking, path, "float-double", change + ": 4 bytes against 8; reads fail or misread");
    if ((o == primitive::character || o == primitive::byte) && (n == primitive::character || n == primitive::byte))
      return add(verdict::compatible, path, "string-bytes", change + ": the same raw byte");
    add(verdict::breaking, path, "change-type", change);
  }

  void compare_enum(const type& o, const type& n, const definition* od, const definition* nd, const std::string& path,
                    context ctx) {
    const bool old_enum = od && od->kind == definition_kind::enumeration;
    const bool new_enum = nd && nd->kind == definition_kind::enumeration;
    const bool raw = ctx == context::record_field || ctx == context::nested_record;
    if (old_enum && new_enum) {
      if (od->name != nd->name) add(verdict::compatible, path, "rename", "enum " + od->name + " → " + nd->name);
      return compare_primitives(od->underlying, nd->underlying, path, ctx);
    }
    const type& other = old_enum ? n : o;
    if (other.kind != kind::primitive ||
        !(is_integer(other.prim) || other.prim == primitive::boolean || other.prim == primitive::character)) {
      return add(verdict::breaking, path, "change-type", describe(o) + " → " + describe(n));
    }
    const primitive po = old_enum ? od->underlying : o.prim;
    const primitive pn = new_enum ? nd->underlying : n.prim;
    const std::size_t before = findings_.size();
    compare_primitives(po, pn, path, ctx);
    if (findings_.size() == before)
      add(verdict::compatible, path, raw ? "record-integer-enum" : "integer-enum",
          describe(o) + " → " + describe(n) + ": an enum is its underlying integer");
  }

  void compare_fixed(const type& o, const type& n, const std::string& path) {
    const auto integer = [](const schema& s, const type& t) {
      const definition* d = s.named(t);
      return d ? d->underlying : t.prim;
    };
    compare_primitives(integer(old_, o.arg()), integer(new_, n.arg()), path, context::record_field);
  }

  // ---- containers --------------------------------------------------------------------------------

  static bool is_sequence_like(const type& t) {
    return t.kind == kind::string || t.kind == kind::sequence || t.kind == kind::bitvector || t.kind == kind::set ||
           t.kind == kind::map;
  }
  static bool is_optional_like(const type& t) {
    return t.kind == kind::optional || (t.kind == kind::pointer && (t.name == "unique" || t.name == "owning"));
  }

  shape shape_of(const schema& s, const type& t) const {
    shape out;
    out.view = t.view;
    switch (t.kind) {
      case kind::bitvector: out.form = shape::bits; return out;
      case kind::string:
        out.form = shape::block;
        out.string = true;
        out.element.prim = t.prim;
        return out;
      case kind::set:
        out.associative = true;
        out.unique = !t.multi;
        out.element = t.arg();
        return out;
      case kind::map:
        out.associative = true;
        out.unique = !t.multi;
        out.element.kind = kind::tuple;
        out.element.args = t.args;
        return out;
      default: break;
    }
    out.element = t.arg();
    out.varint = t.varint;
    const definition* d = s.named(t.arg());
    if (d && d->kind == definition_kind::record)
      out.form = shape::records;
    else if (block_element(t.arg()) && !t.varint)
      out.form = shape::block;
    return out;
  }

  void compare_sequences(const type& o, const type& n, const std::string& path) {
    const shape so = shape_of(old_, o);
    const shape sn = shape_of(new_, n);
    const std::string change = describe(o) + " → " + describe(n);
    if (so.form != sn.form) {
      const auto is_enum = [](const schema& s, const type& t) {
        const definition* d = s.named(t);
        return d && d->kind == definition_kind::enumeration;
      };
      if (so.form == shape::bits || sn.form == shape::bits)
        return add(verdict::breaking, path, "change-type", change + ": vector<bool> packs eight elements to a byte");
      if (is_enum(old_, so.element) || is_enum(new_, sn.element))
        return add(verdict::breaking, path, "integer-enum",
                   change + ": in arrays, integers are a raw block and enums one varint each");
      if (so.varint || sn.varint)
        return add(verdict::breaking, path, "change-type", change + ": a raw block against varints (bifrons::varint)");
      return add(verdict::breaking, path, "change-type", change);
    }
    if (so.form == shape::bits) return;
    if (so.string != sn.string) {
      add(verdict::compatible, path, "string-bytes", change + ": the same bytes (a count, then the code units)");
      const primitive a = so.element.prim, b = sn.element.prim;
      if (so.element.kind == kind::primitive && sn.element.kind == kind::primitive &&
          block_width(a) == block_width(b) && !is_float(a) && !is_float(b) && a != primitive::boolean &&
          b != primitive::boolean)
        return;
    }
    if (so.view != sn.view)
      add(verdict::compatible, path, so.string || sn.string ? "string-view" : "span-view",
          change + ": the same bytes; a view is read in place, and may be refused (misaligned_view)");
    if (so.form == shape::block) return compare(so.element, sn.element, path + "[]", context::block);
    if (so.form == shape::records) return compare(so.element, sn.element, path + "[]", context::alone);
    if (so.associative && sn.associative && o.kind != n.kind)
      return add(verdict::breaking, path, "change-type", change);
    if (so.associative || sn.associative) {
      if (so.associative != sn.associative) {
        add(verdict::compatible, path, "map-pairs",
            change + ": the same bytes" +
                (so.unique || sn.unique ? "; a set or map refuses equal keys (duplicate_key)" : ""));
      } else if (so.unique && !sn.unique) {
        add(verdict::compatible, path, "set-multiset",
            change + ": old programs refuse new data that holds equal keys (duplicate_key)");
      } else if (!so.unique && sn.unique) {
        add(verdict::compatible, path, "multiset-set",
            change + ": new programs refuse old data that holds equal keys (duplicate_key)");
      }
    }
    if (o.kind == kind::map && n.kind == kind::map) {
      compare(o.arg(0), n.arg(0), path + "{key}", context::alone);
      return compare(o.arg(1), n.arg(1), path + "{value}", context::alone);
    }
    compare(so.element, sn.element, path + "[]", context::alone);
  }

  void compare_arrays(const type& o, const type& n, const std::string& path) {
    if (o.size != n.size) {
      add(verdict::breaking, path, "array-size",
          describe(o) + " → " + describe(n) + ": the size is part of the type, not on the wire");
      return;
    }
    const shape so = shape_of(old_, o);
    const shape sn = shape_of(new_, n);
    if (so.form != sn.form) return add(verdict::breaking, path, "change-type", describe(o) + " → " + describe(n));
    compare(o.arg(), n.arg(), path + "[]", so.form == shape::block ? context::block : context::alone);
  }

  void compare_tuples(const type& o, const type& n, const std::string& path) {
    if (o.args.size() != n.args.size()) {
      add(verdict::breaking, path, "tuple-elements",
          describe(o) + " → " + describe(n) + ": a tuple has no envelope; use a struct for values that grow");
      return;
    }
    for (std::size_t i = 0; i < o.args.size(); ++i)
      compare(o.args[i], n.args[i], path + "<" + std::to_string(i) + ">", context::alone);
  }

  void compare_variants(const type& o, const type& n, const std::string& path) {
    const std::size_t common = std::min(o.args.size(), n.args.size());
    for (std::size_t i = 0; i < common; ++i) {
      if (!survives(o.args[i], n.args[i], context::alone)) {
        add(verdict::breaking, path, "change-alternatives",
            describe(o) + " → " + describe(n) + ": alternative " + std::to_string(i) +
                " changed; the index identifies the alternative");
        return;
      }
    }
    for (std::size_t i = 0; i < common; ++i)
      compare(o.args[i], n.args[i], path + "|" + std::to_string(i), context::alone);
    if (n.args.size() > o.args.size())
      add(verdict::compatible, path, "append-alternative",
          describe(o) + " → " + describe(n) + ": old programs refuse the new alternatives (invalid_value)");
    else if (n.args.size() < o.args.size())
      add(verdict::compatible, path, "append-alternative",
          describe(o) + " → " + describe(n) +
              ": alternatives removed from the end; new programs refuse old data holding them (invalid_value)");
  }

  void compare_durations(const type& o, const type& n, const std::string& path) {
    if (o.period != n.period)
      add(verdict::silent, path, "duration-period",
          "period " + o.period + " → " + n.period + " s: the period is not written, so the count is reinterpreted");
    compare(o.arg(), n.arg(), path, context::alone);
  }

  void compare_optionals(const type& o, const type& n, const std::string& path) {
    if (o.kind != n.kind)
      add(verdict::compatible, path, "optional-unique",
          describe(o) + " → " + describe(n) + ": 00, or 01 and the value");
    else if (o.kind == kind::pointer && o.name != n.name)
      add(verdict::compatible, path, "owning-unique", describe(o) + " → " + describe(n) + ": the same tags");
    if (o.kind == kind::pointer && n.kind == kind::pointer) compare_polymorphic(o, n, path);
    compare(o.arg(), n.arg(), path + (o.kind == kind::optional ? "?" : "*"), context::alone);
  }

  void compare_pointers(const type& o, const type& n, const std::string& path) {
    const auto owns_alone = [](const std::string& r) { return r == "unique" || r == "owning"; };
    const auto shares = [](const std::string& r) { return r == "shared" || r == "weak"; };
    const auto observes = [](const std::string& r) { return r == "raw" || r == "reference"; };
    const std::string change = describe(o) + " → " + describe(n);
    if (o.name != n.name) {
      if (owns_alone(o.name) && owns_alone(n.name)) {
        add(verdict::compatible, path, "owning-unique", change + ": the same tags, 0 or 1 and the object");
      } else if (owns_alone(o.name) && shares(n.name)) {
        add(verdict::compatible, path, "unique-shared",
            change + ": old programs refuse the references of objects shared twice (invalid_value)");
      } else if (shares(o.name) && owns_alone(n.name)) {
        add(verdict::compatible, path, "unique-shared",
            change + ": new programs refuse the references of objects old data shares (invalid_value)");
      } else if (shares(o.name) && shares(n.name)) {
        add(verdict::compatible, path, "shared-weak",
            change + ": the same tags; an object only a weak_ptr holds reads back expired");
      } else if (observes(o.name) && observes(n.name)) {
        add(verdict::compatible, path, "raw-reference",
            change + ": both are references; a reference_wrapper refuses null (invalid_value)");
      } else {
        return add(verdict::breaking, path, "change-type",
                   change + ": an owning pointer writes its object, a non-owning one a reference");
      }
    }
    compare_polymorphic(o, n, path);
    compare(o.arg(), n.arg(), path + "*", context::alone);
  }

  void compare_polymorphic(const type& o, const type& n, const std::string& path) {
    if (o.polymorphic == n.polymorphic) return;
    // Objects of the declared class keep tag 1; only objects of registered classes use tag 2.
    const bool lost_classes = o.polymorphic && reached_by_registered(old_, o.arg().name);
    add(lost_classes ? verdict::breaking : verdict::compatible, path, "make-polymorphic",
        n.polymorphic  ? o.arg().name + " made polymorphic: its own objects keep tag 1"
        : lost_classes ? o.arg().name + " no longer polymorphic: data holding registered classes (tag 2) is refused"
                       : o.arg().name + " no longer polymorphic: no registered class reached it");
  }

  static bool reached_by_registered(const schema& s, const std::string& type) {
    for (const auto& [name, registered] : s.polymorphic) {
      const std::vector<std::string>& bases = s.at(registered).bases;
      if (registered == type || std::find(bases.begin(), bases.end(), type) != bases.end()) return true;
    }
    return false;
  }

  // ---- registered classes (docs/schema.md section 6) --------------------------------------------

  /// The registered names: a name is the format of the objects of its class (format.md §23).
  void compare_registered() {
    const auto name_of = [](const schema& s, const std::string& type) -> const std::string* {
      for (const auto& [name, t] : s.polymorphic)
        if (t == type) return &name;
      return nullptr;
    };
    for (const auto& [name, type] : new_.polymorphic) {
      const std::string path = "polymorphic[\"" + name + "\"]";
      const auto old = old_.polymorphic.find(name);
      if (old == old_.polymorphic.end()) {
        if (const std::string* before = name_of(old_, type); before == nullptr) {
          if (options_.old_readers_null)
            add(verdict::compatible, path, "add-registered",
                "class " + type + " registered as \"" + name +
                    "\": old programs, reading with unknown_type_policy::null, read its objects as null");
          else
            add(verdict::breaking, path, "add-registered",
                "class " + type + " registered as \"" + name +
                    "\": old programs fail on data holding its objects (unknown_type); they read them as null "
                    "if they read with unknown_type_policy::null (then check with --unknown-types-null)");
        }
        continue;
      }
      compare_named(old_.at(old->second), new_.at(type), path, context::alone);
      compare_bases(old_.at(old->second), new_.at(type), path);
    }
    for (const auto& [name, type] : old_.polymorphic) {
      if (new_.polymorphic.count(name)) continue;
      const std::string path = "polymorphic[\"" + name + "\"]";
      // Renamed when the class (of the same schema name) is registered under another name.
      if (const std::string* now = name_of(new_, type))
        add(verdict::breaking, path, "rename-registered",
            "registered name \"" + name + "\" → \"" + *now +
                "\": data holding its objects fails (unknown_type); "
                "the name is the format, keep it (the C++ class name is free to change)");
      else
        add(verdict::breaking, path, "remove-registered",
            "class " + type + " (\"" + name +
                "\") no longer registered: data holding its objects fails (unknown_type)");
    }
  }

  /// A registered class that no longer reaches a class that pointers declare: data holding it
  /// in such a pointer is refused (invalid_value).
  void compare_bases(const definition& od, const definition& nd, const std::string& path) {
    for (const std::string& base : od.bases) {
      if (std::find(nd.bases.begin(), nd.bases.end(), base) != nd.bases.end() || !new_.types.count(base)) continue;
      add(verdict::breaking, path, "registered-bases",
          nd.name + " no longer reaches " + base + ": data holding it in a pointer to " + base +
              " is refused (invalid_value)");
    }
  }

  /// Whether a struct of s meets the class `base` more than once through its base fields (a
  /// diamond), where making the base virtual changes the bytes.
  static bool diamond(const schema& s, const std::string& base) {
    // The paths from each struct to `base` through base fields, counted up to two (a diamond is
    // two) and each struct's once: a chain of structs with two base fields each has 2^k paths,
    // which the count by walking took 2^k steps to find.
    std::map<std::string, std::size_t> paths;
    std::set<std::string> open;  // being counted: a hostile schema whose bases hold themselves
    const auto count = [&](const auto& self, const definition& d, std::size_t depth) -> std::size_t {
      if (const auto it = paths.find(d.name); it != paths.end()) return it->second;
      if (depth > s.types.size() || !open.insert(d.name).second) return 0;
      std::size_t n = 0;
      for (const field& f : d.fields) {
        if (!f.base || f.type.kind != kind::named) continue;
        if (f.type.name == base) ++n;
        n = std::min<std::size_t>(2, n + self(self, s.at(f.type.name), depth + 1));
      }
      open.erase(d.name);
      paths.emplace(d.name, n);
      return n;
    };
    for (const auto& [name, d] : s.types)
      if (d.kind == definition_kind::structure && count(count, d, 0) > 1) return true;
    return false;
  }

  // ---- named types -------------------------------------------------------------------------------

  void compare_named_with_other(const type& o, const type& n, const definition* od, const definition* nd,
                                const std::string& path, context ctx) {
    const std::string change = describe(o) + " → " + describe(n);
    // A struct wrapping the old type (or the reverse): an envelope more (or less).
    const auto wraps = [&](const definition* d, const type& other, bool old_is_struct) {
      if (!d || d->kind != definition_kind::structure || d->fields.size() != 1) return false;
      return old_is_struct ? survives(d->fields[0].type, other, ctx) : survives(other, d->fields[0].type, ctx);
    };
    if (wraps(nd, o, false) || wraps(od, n, true))
      return add(verdict::breaking, path, "wrap-struct", change + ": a struct adds an envelope");
    if (n.kind == kind::optional && od && survives(o, n.arg(), ctx))
      return add(verdict::breaking, path, "optional-wrap", change + ": `optional` adds a presence byte");
    if (o.kind == kind::optional && nd && survives(o.arg(), n, ctx))
      return add(verdict::breaking, path, "optional-wrap", change + ": the presence byte goes");
    add(verdict::breaking, path, "change-type", change);
  }

  void compare_named(const definition& od, const definition& nd, const std::string& path, context ctx) {
    if (od.kind != nd.kind) {
      if (od.kind != definition_kind::enumeration && nd.kind != definition_kind::enumeration)
        return add(verdict::breaking, path, "struct-record",
                   od.name + " → " + nd.name + ": a struct is an envelope of varints, a record fixed-width fields");
      return add(verdict::breaking, path, "change-type", od.name + " → " + nd.name);
    }
    pair_key key{od.name, nd.name, ctx};
    // Compared already, or being compared (a type that holds itself): its findings are reported
    // where the walk first met it.
    if (visited_.count(key)) return;
    if (depth_ >= max_nesting)
      throw schema_error("schema: " + (path.empty() ? od.name : path) + ": named types nest more than " +
                         std::to_string(max_nesting) + " deep; the checker stops there");
    const nesting level(depth_);
    if (trial_depth_ > 0) {
      if (const auto known = trial_outcomes_.find(key); known != trial_outcomes_.end()) {
        if (!known->second) add(verdict::breaking, path, "change-type", "");  // tried before: it fails
        return;
      }
      visited_.insert(key);
      trial_entered_.push_back(key);
      const std::size_t before = findings_.size();
      compare_named_body(od, nd, path, ctx);
      const bool ok = std::none_of(findings_.begin() + static_cast<std::ptrdiff_t>(before), findings_.end(),
                                   [](const finding& f) { return f.verdict != verdict::compatible; });
      trial_outcomes_.emplace(std::move(key), ok);
      return;
    }
    visited_.insert(std::move(key));
    compare_named_body(od, nd, path, ctx);
  }

  void compare_named_body(const definition& od, const definition& nd, const std::string& path, context ctx) {
    if (od.name != nd.name) add(verdict::compatible, path, "rename", "type " + od.name + " → " + nd.name);
    if (od.kind == definition_kind::structure) return compare_struct(od, nd, path);
    compare_fields(od.fields, nd.fields, path, true, ctx == context::record_field || ctx == context::nested_record);
  }

  void compare_struct(const definition& od, const definition& nd, const std::string& path) {
    if (!od.version && nd.version) {
      add(verdict::compatible, path, "add-version",
          "class version " + std::to_string(*nd.version) +
              " added: old programs ignore it, new hooks see 0 in old data");
    } else if (od.version && !nd.version) {
      add(verdict::compatible, path, "add-version",
          "class version removed: old versioned hooks see version 0 in new data");
    } else if (od.version && nd.version && *od.version < *nd.version) {
      // Old programs read the newer version as theirs unless the old class refuses newer data.
      if (od.refuse_newer)
        add(verdict::compatible, path, "bump-version",
            "class version " + std::to_string(*od.version) + " → " + std::to_string(*nd.version) +
                ": old programs refuse the new data cleanly (bifrons_refuse_newer: newer_version)");
      else
        add(verdict::silent, path, "bump-version",
            "class version " + std::to_string(*od.version) + " → " + std::to_string(*nd.version) +
                ": old programs read version " + std::to_string(*nd.version) + " data as their own; if the bump " +
                "changed what a field means, they read it wrong. Allow the bump if it only adds fields, or " +
                "declare bifrons_refuse_newer in the old class before such a change");
    } else if (od.version && nd.version && *od.version != *nd.version) {
      add(verdict::compatible, path, "bump-version",
          "class version " + std::to_string(*od.version) + " → " + std::to_string(*nd.version) +
              ": lowered; new hooks see the higher number in old data");
    }
    if (od.identity != nd.identity) {
      const bool pointers = holds_pointers(old_) || holds_pointers(new_);
      add(pointers ? verdict::breaking : verdict::compatible, path, "identity",
          std::string(nd.identity ? "enable_identity added" : "enable_identity removed") +
              (pointers ? ": by-value objects take object ids, so every later id shifts"
                        : ": no pointer in these messages, so no id shifts"));
    }
    if (od.abstract != nd.abstract)
      add(nd.abstract ? verdict::breaking : verdict::compatible, path, "make-abstract",
          nd.abstract ? "now abstract: objects of it in old data (tag 1) are refused (invalid_value)"
                      : "no longer abstract: pointers may now hold objects of it (tag 1)");
    if (od.hook != nd.hook)
      add(verdict::compatible, path, "hook-aggregate",
          nd.hook ? "now written by a hook: the same bytes while it writes the same fields"
                  : "now an aggregate: the same bytes while its members are the hook's fields");
    compare_fields(od.fields, nd.fields, path, false, false);
  }

  /// The fields of two structs or two records, by position; nested: a record inside a record.
  /// Fields are paired in order; a field that only one side has in the middle is reported as
  /// removed or inserted when the fields after it pair up once it is left out.
  void compare_fields(const std::vector<field>& o, const std::vector<field>& n, const std::string& path, bool record,
                      bool nested) {
    const context ctx = record ? context::record_field : context::alone;
    const auto at = [&](const field& f) { return path + "." + f.name; };
    const auto pairs_up = [&](std::size_t a, std::size_t b) {
      for (; a < o.size() && b < n.size(); ++a, ++b)
        if (!survives(o[a].type, n[b].type, field_context(o[a], ctx))) return false;
      return true;
    };
    if (reordered(o, n)) {
      std::string order;
      for (const field& f : n) order += (order.empty() ? "" : ", ") + f.name;
      // Fields of the same types swapped read each other's values without an error.
      add(pairs_up(0, 0) ? verdict::silent : verdict::breaking, path,
          record ? "record-middle-fields" : "reorder-fields",
          "fields reordered (now " + order + "): positions, not names, identify fields");
      return;
    }
    std::size_t i = 0, k = 0;
    while (i < o.size() && k < n.size()) {
      if (!survives(o[i].type, n[k].type, field_context(o[i], ctx))) {
        if (o.size() - i > n.size() - k && pairs_up(i + 1, k)) {
          add(verdict::breaking, at(o[i]), record ? "record-middle-fields" : "remove-field",
              "field " + o[i].name +
                  " removed from the middle: every later field shifts; retire it with deprecated<T>");
          ++i;
          continue;
        }
        if (n.size() - k > o.size() - i && pairs_up(i, k + 1)) {
          add(verdict::breaking, at(n[k]), record ? "record-middle-fields" : "insert-field",
              "field " + n[k].name + " inserted in the middle: every later field shifts; append it instead");
          ++k;
          continue;
        }
      }
      compare_field(o[i], n[k], at(n[k]), ctx);  // the same field, or a change of its type
      ++i;
      ++k;
    }
    for (; k < n.size(); ++k) {
      if (nested)
        add(verdict::breaking, at(n[k]), "record-nested-append",
            "field appended to a record nested in a record: its size is fixed there, so every later field shifts");
      else
        add(verdict::compatible, at(n[k]), record ? "record-append-field" : "append-field",
            "field " + n[k].name +
                " appended: old programs skip it, new programs reading old data give it its default");
    }
    for (; i < o.size(); ++i) {
      if (nested)
        add(verdict::breaking, at(o[i]), "record-nested-append",
            "field removed from a record nested in a record: every later field shifts");
      else
        add(verdict::compatible, at(o[i]), record ? "record-remove-last-field" : "remove-last-field",
            "last field " + o[i].name +
                " removed: old programs give it its default; do not reuse its position for another type while old "
                "data may be read (retire it with deprecated<T> instead)");
    }
  }

  void compare_field(const field& o, const field& n, const std::string& p, context ctx) {
    // Earlier exporters named a hook's base fields by position (field0); they are named after
    // the base now, which is not a change of the program's.
    const bool base_named_after_its_type = o.base && n.base && is_position_name(o.name) && n.name == n.type.name;
    if (o.name != n.name && !base_named_after_its_type)
      add(verdict::compatible, p, "rename", "field " + o.name + " → " + n.name + " (names are not on the wire)");
    if (o.is_virtual != n.is_virtual) {
      // Written once per complete object: only a class that meets the base twice changes bytes.
      const bool twice = diamond(old_, o.type.name) || diamond(new_, n.type.name);
      add(twice ? verdict::breaking : verdict::compatible, p, "virtual-base",
          std::string(n.is_virtual ? "base made virtual" : "base no longer virtual") +
              (twice
                   ? ": a class that meets it twice (a diamond) writes it once where it wrote it twice, or the reverse"
                   : ": no class meets it twice, so the bytes stay"));
    }
    const std::size_t before = findings_.size();
    compare(o.type, n.type, p, field_context(o, ctx));
    // A default is compared where the type is the same (a changed type changes its default's bytes),
    // and not where a struct's fields were appended to and the old fields keep their bytes: that
    // change is reported on the struct itself, once, not on every field of its type (a base).
    if (findings_.size() == before && spell(o.type) == spell(n.type) && o.default_bytes != n.default_bytes &&
        !(o.type.kind == kind::named && only_appended(o.default_bytes, n.default_bytes)))
      add(verdict::compatible, p, "change-default",
          "default " + to_hex(o.default_bytes) + " → " + to_hex(n.default_bytes) +
              ": new programs fill the field with the new default where old data lacks it");
  }

  context field_context(const field& f, context ctx) const {
    if (ctx != context::record_field) return ctx;
    // A record field that is itself a record: nested, it cannot grow.
    const definition* d = old_.named(f.type);
    return d && d->kind == definition_kind::record ? context::nested_record : ctx;
  }

  /// The same names in another order (at least two fields moved).
  static bool reordered(const std::vector<field>& o, const std::vector<field>& n) {
    if (o.size() != n.size() || o.size() < 2) return false;
    std::multiset<std::string> old_names, new_names;
    for (const field& f : o) old_names.insert(f.name);
    for (const field& f : n) new_names.insert(f.name);
    if (old_names != new_names) return false;
    std::size_t moved = 0;
    for (std::size_t i = 0; i < o.size(); ++i) moved += o[i].name != n[i].name;
    return moved >= 2;
  }

  /// Named types nested deeper than this (a chain of distinct structs or records) end the check
  /// with an error, so that a hostile schema cannot exhaust the stack: far beyond real types,
  /// and beyond the nesting data can have (read_options::max_depth, 64 by default).
  static constexpr std::size_t max_nesting = 256;
  /// The recursion of compare() (named types and the expressions inside them), so that it fits
  /// the stack of a sanitizer build too (clang's AddressSanitizer ran out of 8 MiB before 2,048).
  static constexpr std::size_t max_compare_nesting = 512;

  const schema& old_;
  const schema& new_;
  std::vector<finding> findings_;
  std::set<pair_key> visited_;             // pairs compared, or being compared
  std::map<pair_key, bool> trial_outcomes_;  // pairs tried: whether they survive
  std::vector<pair_key> trial_entered_;    // pairs the trials under way entered, to forget after
  std::size_t trial_depth_ = 0;            // trials under way (survives in survives)
  const check_options& options_;
  std::size_t depth_ = 0;                  // named types being compared (or tried), nested
  std::size_t compare_depth_ = 0;          // calls of compare() under way
  std::uint64_t comparisons_ = 0;          // calls of compare: the work, for tests
};

}  // namespace

std::vector<finding> check(const schema& old_schema, const schema& new_schema, const check_options& options) {
  std::vector<finding> findings;
  if (options.framed && spell(old_schema.root) != spell(new_schema.root))
    findings.push_back({verdict::breaking, spell(new_schema.root), "framed-rename",
                        "the frame's type name " + spell(old_schema.root) + " → " + spell(new_schema.root) +
                            ": framed data of the old name is refused (type_mismatch); keep it with "
                            "bifrons::schema_name"});
  checker c(old_schema, new_schema, options);
  std::vector<finding> rest = c.run();
  if (options.comparisons != nullptr) *options.comparisons = c.comparisons();
  findings.insert(findings.end(), rest.begin(), rest.end());
  return findings;
}

}  // namespace bifrons::tools
