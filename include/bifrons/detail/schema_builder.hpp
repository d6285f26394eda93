// SPDX-License-Identifier: MIT
#pragma once
// The schema export of schema.hpp: the type expression of each C++ type (docs/schema.md), built
// at run time when schema<T>() is called. Nothing here takes part in reading or writing.
//
// describer<T> gives a type's expression; user classes become named definitions (struct, record,
// enum) kept by the schema_builder, which stops at a type it has met before (recursive types).
// A class's fields are what its hook hands to a schema_archive when called on T{} (through
// save_fields, the same dispatch the writers use), or an aggregate's members with their names.

#include <array>
#include <bitset>
#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <forward_list>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <ratio>
#include <set>
#include <span>
#include <stack>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "../core.hpp"
#include "../schema_name.hpp"
#include "json.hpp"
#include "registry.hpp"
#include "type_names.hpp"

namespace bifrons {
template <class T>
class block_view;  // types/views.hpp
}  // namespace bifrons

namespace bifrons::detail {

/// The names docs/schema.md reserves for primitive types.
constexpr bool primitive_name(std::string_view name) noexcept {
  constexpr std::string_view names[] = {"bool", "char", "byte", "i8",  "i16", "i32", "i64",
                                        "u8",   "u16",  "u32",  "u64", "f32", "f64", "monostate"};
  for (std::string_view n : names)
    if (n == name) return true;
  return false;
}

/// A struct's, record's or enum's name in the schema: schema_name<T>, else the C++ name.
template <class T>
constexpr std::string_view schema_name_of() noexcept {
  constexpr std::string_view name = schema_name<T>.empty() ? derived_type_name<T>.view() : schema_name<T>;
  static_assert(!primitive_name(name),
                "bifrons: this type's schema name is one of the primitive names of docs/schema.md (bool, char, "
                "byte, i8 ... u64, f32, f64, monostate): declare another, "
                "`template <> inline constexpr std::string_view bifrons::schema_name<T> = \"...\";`");
  return name;
}

inline std::string to_hex(std::span<const std::byte> bytes) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (std::byte b : bytes) {
    out += digits[static_cast<unsigned>(b) >> 4];
    out += digits[static_cast<unsigned>(b) & 0xF];
  }
  return out;
}

template <class V>
std::size_t serialized_size_or_zero(const V& v) {
  if constexpr (needs_write_session<V>) {
    session_scope scope(may_hold_identity<V>());
    const std::size_t size = codec<V>::size(v);
    scope.end_size_pass();
    return scope.error() == errc::ok ? size : 0;
  } else {
    return codec<V>::size(v);
  }
}

/// The bytes a writer writes for v, as lowercase hex; empty if v cannot be written alone (a
/// default that refers to an object outside the message: a reference_wrapper, a raw pointer).
template <class V>
std::string encoded_hex(const V& v) {
  std::vector<std::byte> out(serialized_size_or_zero(v));
  const auto written = bifrons::try_to_bytes(v, std::span(out));
  return written ? to_hex(std::span(out).first(*written)) : std::string();
}

template <class T>
inline constexpr char schema_key = 0;

template <class T>
struct describer;

/// Describes types: the whole schema (schema_builder), or only the names of types (NamesOnly:
/// what a frame carries; it never looks inside a class, so a class without a default constructor
/// has a name too).
template <bool NamesOnly>
class basic_schema_builder {
 public:
  static constexpr bool names_only = NamesOnly;

  template <class T>
  json::value describe() {
    return describer<std::remove_cv_t<T>>::describe(*this);
  }

  /// A registered class that pointers may hold, described although the root may not reach it.
  template <class T>
  void describe_registered() {
    (void)describe<T>();
    if (the_registry().find(type_of<T>()) == nullptr)
      fail("bifrons::schema: " + std::string(schema_name_of<T>()) +
           " is listed as a registered class, but this program has not registered it (BIFRONS_REGISTER)");
  }

  /// Starts the definition of the named type whose key is `key`: false if it is defined already
  /// or being defined (further up a recursive type). Two types of one name are an error.
  bool begin(std::string_view name, const void* key) {
    const auto it = types_.find(name);
    if (it == types_.end()) {
      types_.emplace(std::string(name), entry{key, json::value()});
      return true;
    }
    if (it->second.key != key)
      fail("bifrons::schema: two different types have the schema name \"" + std::string(name) +
           "\"; declare a bifrons::schema_name for one of them");
    return false;
  }
  void define(std::string_view name, json::value definition) {
    const auto it = types_.find(name);
    it->second.definition = std::move(definition);
    it->second.later = false;
  }
  /// A definition to replace once an object of the type is at hand (an abstract class).
  void define_later(std::string_view name, json::value placeholder) {
    define(name, std::move(placeholder));
    types_.find(name)->second.later = true;
  }
  [[nodiscard]] bool defined_later(std::string_view name) const { return types_.find(name)->second.later; }

  /// A polymorphic class among the named types: pointers to it may hold registered classes.
  void polymorphic_class(std::string_view name, const std::type_info& type) { types_.find(name)->second.type = &type; }

  /// The schema document of docs/schema.md, section 1. The registered names and relations of
  /// the polymorphic classes come from the registry (docs/schema.md, section 6): what this
  /// program has registered when the schema is made.
  [[nodiscard]] json::value document(json::value root) const {
    json::value doc = json::value::object();
    doc.set("bifrons_schema", json::value::integer(1));
    doc.set("format", json::value::integer(1));
    doc.set("root", std::move(root));
    json::value registered = json::value::object();
    json::value& types = doc.set("types", json::value::object());
    const registry& r = the_registry();
    for (const auto& [name, e] : types_) {
      json::value& definition = types.set(name, e.definition);
      const registered_type* found = e.type ? r.find(*e.type) : nullptr;
      if (found == nullptr) continue;
      registered.set(found->name, name);
      json::value bases = json::value::array();
      for (const auto& [base_name, base] : types_)
        if (base.type != nullptr && base.type != e.type && r.path(*e.type, *base.type) != nullptr)
          bases.push(base_name);
      if (!bases.items().empty()) definition.set("bases", std::move(bases));
    }
    if (!registered.members().empty()) doc.set("polymorphic", std::move(registered));
    return doc;
  }

  /// Refuses a schema: std::logic_error (a program's types, not data, are at fault).
  [[noreturn]] static void fail(const std::string& message) {
#if BIFRONS_HAS_EXCEPTIONS
    throw std::logic_error(message);
#else
    std::fputs(message.c_str(), stderr);
    std::abort();
#endif
  }

 private:
  struct entry {
    const void* key;
    json::value definition;
    const std::type_info* type = nullptr;  // of a polymorphic class
    bool later = false;                     // a placeholder (define_later)
  };
  std::map<std::string, entry, std::less<>> types_;
};
using schema_builder = basic_schema_builder<false>;
using name_builder = basic_schema_builder<true>;

// ---- expressions ---------------------------------------------------------------------------------

inline json::value kind_object(std::string_view kind) {
  json::value v = json::value::object();
  v.set("kind", kind);
  return v;
}

template <class T>
json::value integer_name() {
  using W = wire_integer_t<T>;
  const std::string width = std::to_string(8 * wire_width<T>);
  return json::value((std::is_signed_v<W> ? "i" : "u") + width);
}

/// The unit of a string kind, or "" for code units that make a sequence.
template <class C>
constexpr std::string_view string_unit() noexcept {
  if constexpr (one_byte_char<C>)
    return "char";
  else if constexpr (std::is_same_v<C, char16_t>)
    return "u16";
  else if constexpr (std::is_same_v<C, char32_t> || std::is_same_v<C, wchar_t>)
    return "u32";
  else
    return "";
}

template <class C>
json::value string_or_sequence(auto& b, bool view) {
  json::value v;
  if constexpr (!string_unit<C>().empty()) {
    v = kind_object("string");
    v.set("unit", string_unit<C>());
  } else {
    v = kind_object("sequence");
    v.set("element", b.template describe<C>());
  }
  if (view) v.set("view", true);
  return v;
}

template <class T>
json::value sequence_of(auto& b, bool view = false) {
  json::value v = kind_object("sequence");
  v.set("element", b.template describe<T>());
  if (view) v.set("view", true);
  return v;
}

template <class T, std::size_t N>
json::value array_of(auto& b) {
  json::value v = kind_object("array");
  v.set("element", b.template describe<T>());
  v.set("size", json::value::integer(N));
  return v;
}

template <class... Ts>
json::value list_of(auto& b) {
  json::value list = json::value::array();
  (list.push(b.template describe<Ts>()), ...);
  return list;
}

template <class T>
json::value pointer_to(auto& b, std::string_view role) {
  json::value v = kind_object("pointer");
  v.set("role", role);
  v.set("to", b.template describe<std::remove_cv_t<T>>());
  // May hold an object of a registered class related to T (tag 2).
  if constexpr (std::is_polymorphic_v<T>) v.set("polymorphic", true);
  return v;
}

template <class T>
json::value single(auto& b, std::string_view kind) {
  json::value v = kind_object(kind);
  v.set("of", b.template describe<T>());
  return v;
}

template <class K, class V, bool multi>
json::value set_or_map(auto& b) {
  json::value v = kind_object(std::is_void_v<V> ? "set" : "map");
  v.set("key", b.template describe<K>());
  if constexpr (!std::is_void_v<V>) v.set("value", b.template describe<V>());
  if (multi) v.set("multi", true);
  return v;
}

// ---- named types ---------------------------------------------------------------------------------

template <class E>
json::value describe_enum(auto& b) {
  constexpr std::string_view name = schema_name_of<E>();
  if constexpr (std::remove_reference_t<decltype(b)>::names_only) {
    (void)b.begin(name, &schema_key<E>);  // two types of one name are refused in frames too
    return json::value(name);
  } else if (b.begin(name, &schema_key<E>)) {
    json::value def = kind_object("enum");
    def.set("underlying", b.template describe<std::underlying_type_t<E>>());
    b.define(name, std::move(def));
  }
  return json::value(name);
}

template <class B>
json::value describe_abstract_base(schema_builder& b, const B& object);

/// The fields of a struct, as its hook (or its members) hands them over.
template <class T>
class schema_archive {
 public:
  static constexpr bool is_loading = false;
  static constexpr bool is_saving = true;

  explicit schema_archive(schema_builder& b) : builder_(b) {}

  template <class... Args>
  void operator()(Args&&... args) {
    (add(args, std::string_view{}), ...);
  }

  /// A field whose name is known (an aggregate's member).
  template <class A>
  void add(const A& arg, std::string_view name) {
    json::value field = json::value::object();
    if constexpr (requires {
                    arg.name;
                    arg.field;
                  }) {  // named_field
      name = arg.name;
      describe_field(field, arg.field);
    } else {
      describe_field(field, arg);
    }
    if (name.empty()) {
      // A hook's field without a name is named after its position; a base after its type (as
      // the schema's "types" spells it), once every field is known (take_fields).
      if constexpr (is_base<A>::value) {
        const json::value* type = field.find("type");
        if (type != nullptr && type->is_string()) named_after_type_.push_back(position_);
      }
      field.set("name", "field" + std::to_string(position_));
    } else {
      field.set("name", std::string(name));
    }
    field.set("default", default_hex(arg));
    fields_.push(std::move(field));
    ++position_;
  }

  /// The fields; each unnamed base is named after its type unless another field, before or after
  /// it, has that name (then it keeps its position's name).
  json::value take_fields() {
    std::vector<json::value>& fields = fields_.items();
    for (const std::size_t i : named_after_type_) {
      const std::string type = fields[i].find("type")->text();
      bool taken = false;
      for (const json::value& f : fields) taken = taken || f.find("name")->text() == type;
      if (!taken) fields[i].set("name", json::value(type));
    }
    return std::move(fields_);
  }

 private:
  template <class A>
  void describe_field(json::value& field, const A& arg) {
    field.set("type", field_type(arg));
    if constexpr (is_base<A>::value) {
      field.set("base", true);
      // Written only where the complete object first meets it (format.md, section 5).
      if constexpr (codec<A>::is_virtual) field.set("virtual", true);
    }
  }

  /// A base's bytes are its object's, written alone: for a virtual base, where the complete
  /// object first meets it (the codec of a base_ref would ask a write session that the default of
  /// one field does not have whether it met the base before).
  template <class A>
  static std::string default_hex(const A& arg) {
    if constexpr (requires {
                    arg.name;
                    arg.field;
                  })
      return default_hex(arg.field);
    else if constexpr (is_instance<A, base_ref>)
      return encoded_hex(arg.object);
    else
      return encoded_hex(arg);
  }

  template <class A>
  struct is_base : std::false_type {};
  template <class B, class D>
  struct is_base<base_ref<B, D>> : std::true_type {};

  /// The expression of a field as a hook passes it: the field helpers of fields.hpp and
  /// pointers.hpp change its encoding.
  template <class A>
  json::value field_type(const A& arg) {
    if constexpr (requires {
                    arg.name;
                    arg.field;
                  }) {
      return field_type(arg.field);
    } else if constexpr (is_instance<A, base_ref>) {
      using B = std::remove_cv_t<std::remove_reference_t<decltype(arg.object)>>;
      if constexpr (std::is_abstract_v<B>)
        return describe_abstract_base<B>(builder_, arg.object);
      else
        return builder_.describe<B>();
    } else if constexpr (is_instance<A, fixed_ref>) {
      return single<std::remove_cv_t<std::remove_reference_t<decltype(arg.value)>>>(builder_, "fixed");
    } else if constexpr (is_instance<A, owning_ref>) {
      return pointer_to<std::remove_pointer_t<std::remove_reference_t<decltype(arg.pointer)>>>(builder_, "owning");
    } else if constexpr (is_instance<A, varint_ref>) {
      using V = std::remove_cv_t<std::remove_reference_t<decltype(arg.value)>>;
      json::value v = builder_.describe<V>();
      if constexpr (std::ranges::range<V>) {
        // Only a block of integers changes: an array of enums is element by element already.
        if constexpr (varint_integer<std::remove_cv_t<std::ranges::range_value_t<V>>>) v.set("varint", true);
      }
      return v;
    } else {
      return builder_.describe<A>();
    }
  }

  schema_builder& builder_;
  json::value fields_ = json::value::array();
  std::size_t position_ = 0;
  std::vector<std::size_t> named_after_type_;  // positions of unnamed bases
};

template <class R>
json::value record_definition(schema_builder& b) {
  using layout = record_layout<R>;
  json::value def = kind_object("record");
  def.set("size", json::value::integer(layout::size));
  json::value fields = json::value::array();
  const R object{};
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    visit_members<member_count<R>>(object, [&](const auto&... members) {
      (
          [&] {
            using F = std::remove_cvref_t<decltype(members)>;
            json::value field = json::value::object();
            field.set("name", member_name<R, I>.view());
            field.set("type", b.template describe<F>());
            field.set("offset", json::value::integer(layout::ends[I]));
            field.set("width", json::value::integer(record_field<F>::width));
            std::array<std::byte, record_field<F>::width + 1> bytes{};
            record_field<F>::store(bytes.data(), members);
            field.set("default", to_hex(std::span(bytes).first(record_field<F>::width)));
            fields.push(std::move(field));
          }(),
          ...);
    });
  }(std::make_index_sequence<member_count<R>>{});
  def.set("fields", std::move(fields));
  return def;
}

/// A struct's definition from an object of it: its hook (or members) called on the object.
template <class T>
json::value struct_definition_of(schema_builder& b, const T& object) {
  check_hooks<T>();
  json::value def = kind_object("struct");
  schema_archive<T> ar(b);
  if constexpr (reflected<T>) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      visit_members<member_count<T>>(object,
                                     [&](const auto&... members) { (ar.add(members, member_name<T, I>.view()), ...); });
    }(std::make_index_sequence<member_count<T>>{});
  } else {
    save_fields(ar, object);
    def.set("hook", true);
  }
  def.set("fields", ar.take_fields());
  if constexpr (has_class_version<T>) def.set("version", json::value::integer(class_version<T>()));
  if constexpr (refuses_newer_versions<T>) def.set("refuse_newer", true);
  if constexpr (enable_identity<T>) def.set("identity", true);
  if constexpr (std::is_abstract_v<T>) def.set("abstract", true);
  return def;
}

/// A class made only by its load_and_construct, made as a read of an envelope without fields
/// makes it: every field its hook reads is missing, so each keeps the value the hook gives it
/// before reading, which is the field's default (what a reader gives it where older data lacks
/// it). Fails the schema if the hook refuses those values.
template <class T>
void make_from_defaults(std::optional<T>& object) {
  static constexpr std::byte no_fields[] = {std::byte{0}};  // a struct envelope of length 0
  source src(no_fields, sizeof no_fields, default_read_options);
  [[maybe_unused]] std::conditional_t<may_hold_pointers<T>(), object_table_owner, no_object_table> objects(src);
  const auto make = [&] {
    emplace_read<T>(src, [&](auto&&... a) -> T& { return object.emplace(std::forward<decltype(a)>(a)...); });
  };
  const std::string name(derived_type_name<T>.view());
  if (!or_if_throws([&] { return make(), true; }, [] { return false; }) || src.failed())
    schema_builder::fail("bifrons: schema<T>() makes " + name +
                         ", which has no default constructor, with its load_and_construct from no fields, to "
                         "find its fields and their defaults; the hook refused the values it gives its locals "
                         "before reading them (make them valid defaults, or give the class a default constructor)");
}

template <class T>
json::value struct_definition(schema_builder& b) {
  static_assert(access::default_constructible<T> || created_by_hook<T>,
                "bifrons: schema<T>() calls each class's hook on a default-constructed object, to find its "
                "fields and their defaults; give this class a default constructor (a private one with "
                "`friend bifrons::access;` will do) or a load_and_construct");
  if constexpr (access::default_constructible<T>) {
    const T object = access::make<T>();
    return struct_definition_of(b, object);
  } else if constexpr (created_by_hook<T>) {
    std::optional<T> object;
    make_from_defaults(object);
    return struct_definition_of(b, *object);
  } else {
    return {};
  }
}

/// An abstract class has no object of its own: its fields come from the first base subobject
/// of it that a described class's hook hands over (describe_abstract_base). Until then (and if
/// no described class derives from it) it has none: a reader never reads it alone, since tag 1
/// cannot create it.
inline json::value abstract_placeholder() {
  json::value def = kind_object("struct");
  def.set("fields", json::value::array());
  def.set("hook", true);
  def.set("abstract", true);
  return def;
}

template <class T>
json::value describe_class(auto& b) {
  constexpr std::string_view name = schema_name_of<T>();
  if constexpr (std::remove_reference_t<decltype(b)>::names_only) {
    (void)b.begin(name, &schema_key<T>);  // two types of one name are refused in frames too
    return json::value(name);
  } else if (b.begin(name, &schema_key<T>)) {
    if constexpr (std::is_polymorphic_v<T> && BIFRONS_HAS_RTTI) b.polymorphic_class(name, type_of<T>());
    if constexpr (record<T>)
      b.define(name, record_definition<T>(b));
    else if constexpr (std::is_abstract_v<T>)
      b.define_later(name, abstract_placeholder());
    else
      b.define(name, struct_definition<T>(b));
  }
  return json::value(name);
}

/// The base subobject `object` of an abstract class B, met in a derived class's hook: B's fields.
template <class B>
json::value describe_abstract_base(schema_builder& b, const B& object) {
  json::value name = describe_class<B>(b);
  if (b.defined_later(name.text())) b.define(name.text(), struct_definition_of(b, object));
  return name;
}

// ---- the types ---------------------------------------------------------------------------------

/// Scalars, enums, raw pointers, C arrays and user classes.
template <class T>
struct describer {
  static json::value describe(auto& b) {
    if constexpr (std::is_same_v<T, bool>) {
      return "bool";
    } else if constexpr (one_byte_char<T>) {
      return "char";
    } else if constexpr (std::is_same_v<T, std::byte>) {
      return "byte";
    } else if constexpr (varint_integer<T>) {
      return integer_name<T>();
    } else if constexpr (std::is_same_v<T, float>) {
      return "f32";
    } else if constexpr (std::is_same_v<T, double>) {
      return "f64";
    } else if constexpr (std::is_enum_v<T>) {
      return describe_enum<T>(b);
    } else if constexpr (std::is_pointer_v<T>) {
      return pointer_to<std::remove_pointer_t<T>>(b, "raw");
    } else if constexpr (std_path_like<T>) {
      return b.template describe<std::string>();  // its UTF-8 string: the bytes of a std::string
    } else if constexpr (std_atomic_like<T>) {
      return b.template describe<typename T::value_type>();
    } else if constexpr (std_valarray_like<T>) {
      return b.template describe<std::vector<typename T::value_type>>();
    } else if constexpr (std::is_class_v<T> && has_save_minimal<T>) {
      return b.template describe<minimal_value<T>>();  // written as its value alone (format.md, section 29)
    } else if constexpr (std::is_class_v<T>) {
      return describe_class<T>(b);
    } else {
      static_assert(always_false<T>, "bifrons: this type has no schema: it cannot be serialized");
      return {};
    }
  }
};

template <class T, std::size_t N>
struct describer<T[N]> {
  static json::value describe(auto& b) { return array_of<std::remove_cv_t<T>, N>(b); }
};
template <class T, std::size_t N>
struct describer<std::array<T, N>> {
  static json::value describe(auto& b) { return array_of<T, N>(b); }
};
template <std::size_t N>
struct describer<std::bitset<N>> {
  static json::value describe(auto&) {
    json::value v = kind_object("bitset");
    v.set("size", json::value::integer(N));
    return v;
  }
};

template <class C, class Traits, class Alloc>
struct describer<std::basic_string<C, Traits, Alloc>> {
  static json::value describe(auto& b) { return string_or_sequence<C>(b, false); }
};
template <class C, class Traits>
struct describer<std::basic_string_view<C, Traits>> {
  static json::value describe(auto& b) { return string_or_sequence<C>(b, true); }
};
template <class T, class Alloc>
struct describer<std::vector<T, Alloc>> {
  static json::value describe(auto& b) { return sequence_of<T>(b); }
};
template <class Alloc>
struct describer<std::vector<bool, Alloc>> {
  static json::value describe(auto&) { return kind_object("bitvector"); }
};
template <class T, class Alloc>
struct describer<std::deque<T, Alloc>> {
  static json::value describe(auto& b) { return sequence_of<T>(b); }
};
template <class T, class Alloc>
struct describer<std::list<T, Alloc>> {
  static json::value describe(auto& b) { return sequence_of<T>(b); }
};
template <class T, class Alloc>
struct describer<std::forward_list<T, Alloc>> {
  static json::value describe(auto& b) { return sequence_of<T>(b); }
};
template <class T, std::size_t Extent>
struct describer<std::span<T, Extent>> {
  static json::value describe(auto& b) { return sequence_of<std::remove_cv_t<T>>(b, true); }
};
template <class T>
struct describer<block_view<T>> {
  static json::value describe(auto& b) { return sequence_of<T>(b, true); }
};
template <class T, class C>
struct describer<std::queue<T, C>> {
  static json::value describe(auto& b) { return b.template describe<C>(); }
};
template <class T, class C>
struct describer<std::stack<T, C>> {
  static json::value describe(auto& b) { return b.template describe<C>(); }
};
template <class T, class C, class Compare>
struct describer<std::priority_queue<T, C, Compare>> {
  static json::value describe(auto& b) { return b.template describe<C>(); }
};

template <class K, class Compare, class Alloc>
struct describer<std::set<K, Compare, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, void, false>(b); }
};
template <class K, class Compare, class Alloc>
struct describer<std::multiset<K, Compare, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, void, true>(b); }
};
template <class K, class Hash, class Eq, class Alloc>
struct describer<std::unordered_set<K, Hash, Eq, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, void, false>(b); }
};
template <class K, class Hash, class Eq, class Alloc>
struct describer<std::unordered_multiset<K, Hash, Eq, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, void, true>(b); }
};
template <class K, class V, class Compare, class Alloc>
struct describer<std::map<K, V, Compare, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, V, false>(b); }
};
template <class K, class V, class Compare, class Alloc>
struct describer<std::multimap<K, V, Compare, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, V, true>(b); }
};
template <class K, class V, class Hash, class Eq, class Alloc>
struct describer<std::unordered_map<K, V, Hash, Eq, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, V, false>(b); }
};
template <class K, class V, class Hash, class Eq, class Alloc>
struct describer<std::unordered_multimap<K, V, Hash, Eq, Alloc>> {
  static json::value describe(auto& b) { return set_or_map<K, V, true>(b); }
};

template <class A, class B>
struct describer<std::pair<A, B>> {
  static json::value describe(auto& b) {
    json::value v = kind_object("tuple");
    v.set("elements", list_of<A, B>(b));
    return v;
  }
};
template <class... Ts>
struct describer<std::tuple<Ts...>> {
  static json::value describe(auto& b) {
    json::value v = kind_object("tuple");
    v.set("elements", list_of<Ts...>(b));
    return v;
  }
};
template <class T>
struct describer<std::optional<T>> {
  static json::value describe(auto& b) { return single<T>(b, "optional"); }
};
template <class... Ts>
struct describer<std::variant<Ts...>> {
  static json::value describe(auto& b) {
    json::value v = kind_object("variant");
    v.set("alternatives", list_of<Ts...>(b));
    return v;
  }
};
template <>
struct describer<std::monostate> {
  static json::value describe(auto&) { return "monostate"; }
};
template <class T>
struct describer<std::complex<T>> {
  static json::value describe(auto& b) { return single<T>(b, "complex"); }
};

template <class Rep, class Period>
struct describer<std::chrono::duration<Rep, Period>> {
  static json::value describe(auto& b) {
    json::value v = kind_object("duration");
    v.set("rep", b.template describe<Rep>());
    v.set("period", std::to_string(Period::num) + "/" + std::to_string(Period::den));
    return v;
  }
};
template <class Clock, class Duration>
struct describer<std::chrono::time_point<Clock, Duration>> {
  static json::value describe(auto& b) {
    json::value v = kind_object("time_point");
    if constexpr (std::is_same_v<Clock, std::chrono::system_clock>)
      v.set("clock", "system");
    else if constexpr (std::is_same_v<Clock, std::chrono::steady_clock>)
      v.set("clock", "steady");
    else
      v.set("clock", derived_type_name<Clock>.view());
    v.set("duration", b.template describe<Duration>());
    return v;
  }
};

template <class T, class Deleter>
struct describer<std::unique_ptr<T, Deleter>> {
  static json::value describe(auto& b) { return pointer_to<T>(b, "unique"); }
};
template <class T>
struct describer<std::shared_ptr<T>> {
  static json::value describe(auto& b) { return pointer_to<T>(b, "shared"); }
};
template <class T>
struct describer<std::weak_ptr<T>> {
  static json::value describe(auto& b) { return pointer_to<T>(b, "weak"); }
};
template <class T>
struct describer<std::reference_wrapper<T>> {
  static json::value describe(auto& b) { return pointer_to<T>(b, "reference"); }
};

template <class T>
struct describer<deprecated<T>> {
  static json::value describe(auto& b) {
    json::value v = single<T>(b, "deprecated");
    v.set("writes", encoded_hex(deprecated<T>{}));
    return v;
  }
};

// ---- type spelling (docs/schema.md, "Type spelling") -------------------------------------------

inline std::string spelling(const json::value& expr) {
  if (expr.is_string()) return expr.text();
  const auto member = [&](std::string_view key) -> const json::value& {
    static const json::value none;
    const json::value* v = expr.find(key);
    return v ? *v : none;
  };
  const auto flag = [&](std::string_view key) {
    const json::value* v = expr.find(key);
    return v != nullptr && v->is_bool() && v->boolean();
  };
  const auto list = [&](const json::value& items) {
    std::string out;
    for (const json::value& item : items.items()) out += (out.empty() ? "" : ", ") + spelling(item);
    return out;
  };
  const std::string kind = member("kind").text();
  if (kind == "string") return (flag("view") ? "string_view<" : "string<") + member("unit").text() + ">";
  if (kind == "sequence") {
    if (flag("view")) return "span<" + spelling(member("element")) + ">";
    return "sequence<" + spelling(member("element")) + (flag("varint") ? ", varint>" : ">");
  }
  if (kind == "bitvector") return "bitvector";
  if (kind == "array")
    return "array<" + spelling(member("element")) + ", " + member("size").text() + (flag("varint") ? ", varint>" : ">");
  if (kind == "bitset") return "bitset<" + member("size").text() + ">";
  if (kind == "set") return (flag("multi") ? "multiset<" : "set<") + spelling(member("key")) + ">";
  if (kind == "map")
    return (flag("multi") ? "multimap<" : "map<") + spelling(member("key")) + ", " + spelling(member("value")) + ">";
  if (kind == "tuple") return "tuple<" + list(member("elements")) + ">";
  if (kind == "variant") return "variant<" + list(member("alternatives")) + ">";
  if (kind == "duration") return "duration<" + spelling(member("rep")) + ", " + member("period").text() + ">";
  if (kind == "time_point") return "time_point<" + member("clock").text() + ", " + spelling(member("duration")) + ">";
  if (kind == "pointer") return member("role").text() + "<" + spelling(member("to")) + ">";
  return kind + "<" + spelling(member("of")) + ">";  // complex, optional, fixed, deprecated
}

}  // namespace bifrons::detail
