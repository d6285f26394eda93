// SPDX-License-Identifier: MIT
#pragma once
// Finding how a user class is serialized: one of the hooks users know from cereal, or, for an
// aggregate with no hook, its members found by reflection (reflection.hpp).

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

#include "../access.hpp"
#include "codec.hpp"
#include "range_traits.hpp"
#include "reflection.hpp"

namespace bifrons::detail {

// ---- class versions -----------------------------------------------------------------------

template <class T>
concept has_class_version = access::has_version<T>;

template <class T>
constexpr std::uint32_t class_version() noexcept {
  return access::version<T>;
}

/// The class declares `static constexpr bool bifrons_refuse_newer = true;`: data of a newer class
/// version than its own is refused (errc::newer_version) instead of handed to its hook.
template <class T>
inline constexpr bool refuses_newer_versions = access::refuses_newer<T>;

// ---- hook detection -----------------------------------------------------------------------
//
// Member hooks and constants are reached through bifrons::access (access.hpp), so that a class
// that befriends it may keep them private. Free hooks are found by ADL: in T's namespace, or in
// namespace bifrons (through the archive's base class, archive_base), the place for hooks of a
// type one cannot edit.

namespace adl {
// Poison pills: unqualified calls below find only the user's functions, through ADL.
void serialize() = delete;
void save() = delete;
void load() = delete;
void load_and_construct() = delete;
void save_minimal() = delete;
void load_minimal() = delete;

template <class T>
concept free_serialize = requires(T& t, input_archive& ar) { serialize(ar, t); };
template <class T>
concept free_serialize_versioned = requires(T& t, input_archive& ar, std::uint32_t v) { serialize(ar, t, v); };
template <class T>
concept free_save = requires(const T& t, output_archive& ar) { save(ar, t); };
template <class T>
concept free_save_versioned = requires(const T& t, output_archive& ar, std::uint32_t v) { save(ar, t, v); };
template <class T>
concept free_load = requires(T& t, input_archive& ar) { load(ar, t); };
template <class T>
concept free_load_versioned = requires(T& t, input_archive& ar, std::uint32_t v) { load(ar, t, v); };
template <class T>
concept free_load_and_construct = requires(input_archive& ar) {
  { load_and_construct(ar, std::type_identity<T>{}) } -> std::same_as<T>;
};
template <class T>
concept free_load_and_construct_versioned = requires(input_archive& ar, std::uint32_t v) {
  { load_and_construct(ar, std::type_identity<T>{}, v) } -> std::same_as<T>;
};
template <class T>
concept free_save_minimal = requires(const T& t, const output_archive& ar) { save_minimal(ar, t); };

template <class Ar, class T, class... V>
void call_free_serialize(Ar& ar, T& t, V... version) {
  serialize(ar, t, version...);
}
template <class Ar, class T, class... V>
void call_free_save(Ar& ar, const T& t, V... version) {
  save(ar, t, version...);
}
template <class Ar, class T, class... V>
void call_free_load(Ar& ar, T& t, V... version) {
  load(ar, t, version...);
}
template <class T, class Ar, class... V>
T call_free_load_and_construct(Ar& ar, V... version) {
  return load_and_construct(ar, std::type_identity<T>{}, version...);
}
template <class Ar, class T>
auto call_free_save_minimal(const Ar& ar, const T& t) {
  return save_minimal(ar, t);
}
template <class Ar, class T, class V>
void call_free_load_minimal(const Ar& ar, T& t, const V& value) {
  load_minimal(ar, t, value);
}
template <class T, class V>
concept free_load_minimal = requires(T& t, const input_archive& ar, const V& value) { load_minimal(ar, t, value); };
}  // namespace adl

template <class T>
concept callable_member_serialize = access::member_serialize<T, input_archive>;
template <class T>
concept callable_member_serialize_versioned = access::member_serialize_versioned<T, input_archive>;
template <class T>
concept callable_member_save = access::member_save<T, output_archive>;
template <class T>
concept callable_member_save_versioned = access::member_save_versioned<T, output_archive>;
template <class T>
concept callable_member_load = access::member_load<T, input_archive>;
template <class T>
concept callable_member_load_versioned = access::member_load_versioned<T, input_archive>;

// A member hook found in a base class would serialize a derived object as if it were the base:
// the derived fields would be lost without a word (a classic cereal surprise). So member hooks
// count only when T itself declares them; a hook that is only inherited is a compile error.
template <class T>
concept inherits_serialize = access::inherits_serialize<T, input_archive>();
template <class T>
concept inherits_save = access::inherits_save<T, output_archive>();
template <class T>
concept inherits_load = access::inherits_load<T, input_archive>();

template <class T>
concept member_serialize = callable_member_serialize<T> && !inherits_serialize<T>;
template <class T>
concept member_serialize_versioned = callable_member_serialize_versioned<T> && !inherits_serialize<T>;
template <class T>
concept member_save = callable_member_save<T> && !inherits_save<T>;
template <class T>
concept member_save_versioned = callable_member_save_versioned<T> && !inherits_save<T>;
template <class T>
concept member_load = callable_member_load<T> && !inherits_load<T>;
template <class T>
concept member_load_versioned = callable_member_load_versioned<T> && !inherits_load<T>;

template <class T>
inline constexpr bool has_only_inherited_hooks = (inherits_serialize<T> || inherits_save<T> || inherits_load<T> ||
                                                  access::inherits_save_minimal<T, output_archive>()) &&
                                                 !member_serialize<T> && !member_serialize_versioned<T> &&
                                                 !member_save<T> && !member_save_versioned<T>;

template <class T>
inline constexpr bool has_member_save = member_save<T> || member_save_versioned<T>;
template <class T>
inline constexpr bool has_member_load = member_load<T> || member_load_versioned<T>;
template <class T>
inline constexpr bool has_free_save = adl::free_save<T> || adl::free_save_versioned<T>;
template <class T>
inline constexpr bool has_free_load = adl::free_load<T> || adl::free_load_versioned<T>;

// ---- load_and_construct: creating an object from its fields -------------------------------------
//
// `template <class Archive> static T load_and_construct(Archive& ar)` (or with a version
// argument), or a free `T load_and_construct(Archive& ar, std::type_identity<T>)`, reads the
// fields into locals and returns the object: the way bifrons creates a T wherever it needs a new
// one (top level, container elements, optional, variant, pointers). It is not a hook of its own:
// the class still needs one for writing (serialize, or save).

template <class T>
concept member_load_and_construct = access::member_load_and_construct<T, input_archive> ||
                                    access::member_load_and_construct_versioned<T, input_archive>;
template <class T>
concept has_load_and_construct = member_load_and_construct<T> || adl::free_load_and_construct<T> ||
                                 adl::free_load_and_construct_versioned<T>;
template <class T>
inline constexpr int load_and_construct_count =
    int(member_load_and_construct<T>) +
    int(adl::free_load_and_construct<T> || adl::free_load_and_construct_versioned<T>);

/// Creates a T from the fields ar holds, through T's load_and_construct; version is the data's.
template <class T>
T call_load_and_construct(input_archive& ar, [[maybe_unused]] std::uint32_t version) {
  if constexpr (access::member_load_and_construct_versioned<T, input_archive>)
    return access::load_and_construct<T>(ar, version);
  else if constexpr (access::member_load_and_construct<T, input_archive>)
    return access::load_and_construct<T>(ar);
  else if constexpr (adl::free_load_and_construct_versioned<T>)
    return adl::call_free_load_and_construct<T>(ar, version);
  else
    return adl::call_free_load_and_construct<T>(ar);
}

// ---- minimal types: a class written as one value, without an envelope ----------------------------
//
// `template <class Archive> V save_minimal(const Archive&) const` and
// `template <class Archive> void load_minimal(const Archive& ar, const V& value)` (cereal's
// names), or the free `save_minimal(ar, t)` and `load_minimal(ar, t, value)`: T is written as
// its value V, with V's bytes and nothing else (docs/format.md, section 29).

// Inherited minimal hooks do not count either (T would be written as its base's value).
template <class T>
concept inherits_save_minimal = access::inherits_save_minimal<T, output_archive>();
template <class T>
concept inherits_load_minimal = access::inherits_load_minimal<T, input_archive>();
template <class T>
concept member_save_minimal = access::member_save_minimal<T, output_archive> && !inherits_save_minimal<T>;
template <class T>
concept has_save_minimal = member_save_minimal<T> || adl::free_save_minimal<T>;

template <class T>
struct minimal_value_of {
  using type = void;
};
template <member_save_minimal T>
struct minimal_value_of<T> {
  using type = std::remove_cvref_t<decltype(access::save_minimal(std::declval<const T&>(),
                                                                 std::declval<const output_archive&>()))>;
};
template <class T>
  requires(!member_save_minimal<T> && adl::free_save_minimal<T>)
struct minimal_value_of<T> {
  using type = std::remove_cvref_t<decltype(adl::call_free_save_minimal(std::declval<const output_archive&>(),
                                                                        std::declval<const T&>()))>;
};
/// The value a minimal type is written as (void for other types).
template <class T>
using minimal_value = typename minimal_value_of<T>::type;

template <class T>
concept member_load_minimal = has_save_minimal<T> && !inherits_load_minimal<T> &&
                              access::member_load_minimal<T, input_archive, minimal_value<T>>;
template <class T>
concept has_load_minimal = member_load_minimal<T> ||
                           (has_save_minimal<T> && adl::free_load_minimal<T, minimal_value<T>>);

template <class Ar, class T>
auto call_save_minimal(const Ar& ar, const T& t) {
  if constexpr (member_save_minimal<T>)
    return access::save_minimal(t, ar);
  else
    return adl::call_free_save_minimal(ar, t);
}
template <class T, class V>
void call_load_minimal(const input_archive& ar, T& t, const V& value) {
  if constexpr (member_load_minimal<T>)
    access::load_minimal(t, ar, value);
  else
    adl::call_free_load_minimal(ar, t, value);
}

template <class T>
inline constexpr int hook_count = int(member_serialize<T>) + int(member_serialize_versioned<T>) +
                                  int(adl::free_serialize<T>) + int(adl::free_serialize_versioned<T>) +
                                  int(has_member_save<T> || has_member_load<T>) +
                                  int(has_free_save<T> || has_free_load<T>) + int(has_save_minimal<T>);

/// A is W<U...> for some U...
template <class A, template <class...> class W>
inline constexpr bool is_instance = false;
template <template <class...> class W, class... U>
inline constexpr bool is_instance<W<U...>, W> = true;

// ---- standard types whose bifrons/types/ header is missing -------------------------------------
//
// A standard type reaches the struct rules only when its codec's header was not included. Named
// by members that only that family has, so that the refusal can name the header. Types with a
// hook, and aggregates (but std::array), never match.

template <class T>
concept std_string_like = requires(const T& t) {
  t.c_str();
  typename T::traits_type;
};
template <class T>
concept std_string_view_like = requires(T& t) {
  typename T::traits_type;
  t.remove_prefix(0);
} && !std_string_like<T>;
template <class T>
concept std_map_like = requires {
  typename T::mapped_type;
  typename T::key_compare;
};
template <class T>
concept std_unordered_map_like = requires {
  typename T::mapped_type;
  typename T::hasher;
};
template <class T>
concept std_set_like = requires { typename T::key_compare; } && !std_map_like<T>;
template <class T>
concept std_unordered_set_like = requires { typename T::hasher; } && !std_unordered_map_like<T>;
template <class T>
concept std_forward_list_like = requires(T& t) { t.before_begin(); };
template <class T>
concept std_list_like = requires(T& t) { t.splice(t.begin(), t); };
template <class T>
concept std_deque_like = requires(T& t) {
  t.push_front(t.front());
  t[0];
};
template <class T>
concept std_vector_like = requires(T& t) {
  t.capacity();
  t.push_back(t.front());
} && !std_string_like<T>;
template <class T>
concept std_adapter_like = requires { typename T::container_type; };
template <class T>
concept std_optional_like = is_instance<T, std::optional>;  // exactly: std::expected has has_value() and value() too
template <class T>
concept std_variant_like = requires(const T& t) { t.valueless_by_exception(); };
template <class T>
concept std_smart_pointer_like = requires(const T& t) {
  typename T::element_type;
  t.get();
};
template <class T>
concept std_tuple_like = requires { std::tuple_size<T>::value; };
template <class T>
concept std_bitset_like = requires(const T& t) {
  t.to_ullong();
  t.count();
};
template <class T>
concept std_complex_like = requires(const T& t) {
  typename T::value_type;
  t.real();
  t.imag();
};
template <class T>
concept std_chrono_like = requires {
  typename T::rep;
  typename T::period;
};
template <class T>
concept std_span_like = requires {
  T::extent;
  typename T::element_type;
};

template <class T>
concept std_atomic_like = requires(const T& t) {
  t.is_lock_free();
  t.load();
};
template <class T>
concept std_valarray_like = requires(const T& t) {
  t.sum();
  t.cshift(0);
};
template <class T>
concept std_path_like = requires {
  typename T::string_type;
  T::preferred_separator;
};

/// The types above, when no hook claims them: their codec's header is missing.
template <class T>
inline constexpr bool needs_types_header =
    hook_count<T> == 0 &&
    (reflectable_aggregate<T> ? std_tuple_like<T> && range<T>  // std::array
                              : std_string_like<T> || std_string_view_like<T> || std_map_like<T> ||
                                    std_unordered_map_like<T> || std_set_like<T> || std_unordered_set_like<T> ||
                                    std_forward_list_like<T> || std_list_like<T> || std_deque_like<T> ||
                                    std_vector_like<T> || std_adapter_like<T> || std_optional_like<T> ||
                                    std_variant_like<T> || std_smart_pointer_like<T> || std_tuple_like<T> ||
                                    std_bitset_like<T> || std_complex_like<T> || std_chrono_like<T> ||
                                    std_span_like<T> || std_atomic_like<T> || std_valarray_like<T> || std_path_like<T>);

/// T is serialized through its members (no hook), which reflection can count and visit. Types
/// refused below are not, so that their refusal is the only error.
template <class T>
concept reflected = hook_count<T> == 0 && reflectable_aggregate<T> && !needs_types_header<T> &&
                    !aggregate_with_base<T> && member_count<T> <= max_aggregate_members &&
                    !aggregate_with_uncounted_member<T>;

/// T has a way to read into an existing object: a hook that loads, or its members.
template <class T>
concept loads_in_place = member_serialize<T> || member_serialize_versioned<T> || adl::free_serialize<T> ||
                         adl::free_serialize_versioned<T> || has_member_load<T> || has_free_load<T> || reflected<T>;

/// Runs f, a call into user code that reads (a hook, load_and_construct, load_minimal). If it
/// throws, the read fails with user_error at `start`, the first byte of the value whose code
/// threw (unless it had failed before), and the exception goes on to the entry point.
template <class F>
BIFRONS_INLINE decltype(auto) call_user_hook(source& in, const std::byte* start, F&& f) {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return f();
  } catch (...) {
    if (!in.failed()) in.fail_at(errc::user_error, start);
    throw;
  }
#else
  (void)in, (void)start;
  return f();
#endif
}

// ---- refusals --------------------------------------------------------------------------------
//
// Why the primary codec (struct_codec.hpp) refuses a class, decided before anything else about
// it is instantiated, so that the refusal's static_assert is the first and only error.

enum class hook_refusal : std::uint8_t {
  none,
  only_inherited,            // a member hook inherited from a base class only
  no_hook,                   // not an aggregate, no hook
  aggregate_with_base,       // an aggregate with a base class: reflection cannot see the base
  too_many_members,          // an aggregate past max_aggregate_members
  uncounted_member,          // an aggregate with a member reflection cannot initialize (std::mutex)
  two_hooks,                 // serialize and save/load, member and free, ...
  member_save_without_load,  // one of member save() / load()
  free_save_without_load,    // one of free save() / load()
  two_load_and_construct,    // member and free load_and_construct
  load_and_construct_only,   // load_and_construct without a hook to write with
  minimal_without_load,      // save_minimal without load_minimal or a constructor from the value
  minimal_with_version,      // save_minimal and bifrons_version: a minimal type has no envelope
  minimal_with_load_and_construct,  // a minimal type is created from its value
};

template <class T>
concept constructible_from_minimal_value = has_save_minimal<T> && access::constructible_from<T, minimal_value<T>>;

template <class T>
constexpr hook_refusal hook_refusal_of() {
  if constexpr (hook_count<T> == 0 && has_only_inherited_hooks<T>)
    return hook_refusal::only_inherited;
  else if constexpr (hook_count<T> == 0 && reflectable_aggregate<T> && aggregate_with_base<T>)
    return hook_refusal::aggregate_with_base;
  else if constexpr (hook_count<T> == 0 && reflectable_aggregate<T> && !needs_types_header<T> &&
                     member_count<T> > max_aggregate_members)
    return hook_refusal::too_many_members;
  else if constexpr (hook_count<T> == 0 && reflectable_aggregate<T> && !needs_types_header<T> &&
                     aggregate_with_uncounted_member<T>)
    return hook_refusal::uncounted_member;
  else if constexpr (hook_count<T> == 0 && !reflectable_aggregate<T> && !needs_types_header<T>)
    return has_load_and_construct<T> ? hook_refusal::load_and_construct_only : hook_refusal::no_hook;
  else if constexpr (hook_count<T> > 1)
    return hook_refusal::two_hooks;
  else if constexpr (has_member_save<T> != has_member_load<T> && !(has_member_save<T> && has_load_and_construct<T>))
    return hook_refusal::member_save_without_load;
  else if constexpr (has_free_save<T> != has_free_load<T> && !(has_free_save<T> && has_load_and_construct<T>))
    return hook_refusal::free_save_without_load;
  else if constexpr (load_and_construct_count<T> > 1)
    return hook_refusal::two_load_and_construct;
  else if constexpr (has_save_minimal<T> && has_class_version<T>)
    return hook_refusal::minimal_with_version;
  else if constexpr (has_save_minimal<T> && has_load_and_construct<T>)
    return hook_refusal::minimal_with_load_and_construct;
  else if constexpr (has_save_minimal<T> && !has_load_minimal<T> && !constructible_from_minimal_value<T>)
    return hook_refusal::minimal_without_load;
  else
    return hook_refusal::none;
}

/// The static_asserts of the refusals above (called by the primary codec).
template <class T>
constexpr void check_hooks() {
  constexpr hook_refusal r = hook_refusal_of<T>();
  static_assert(r != hook_refusal::only_inherited,
                "bifrons: this type only inherits a serialization hook from a base class, which would "
                "lose the derived class's fields. Declare its own hook: "
                "`template <class Archive> void serialize(Archive& ar) { ar(bifrons::base<Base>(*this), member1); }`.");
  static_assert(r != hook_refusal::no_hook,
                "bifrons: this type is not an aggregate and has no serialization hook. Add one of: "
                "a member `template <class Archive> void serialize(Archive& ar) { ar(member1, member2); }`; "
                "a free `template <class Archive> void serialize(Archive& ar, T& value)` in T's namespace "
                "(or in namespace bifrons, for a type you cannot edit); "
                "or members `template <class Archive> void save(Archive& ar) const` and "
                "`template <class Archive> void load(Archive& ar)`. A private hook needs `friend bifrons::access;`.");
  static_assert(r != hook_refusal::aggregate_with_base,
                "bifrons: this aggregate has a base class, which reflection cannot see. Give it a hook that "
                "lists the base and the members: `template <class Archive> void serialize(Archive& ar) "
                "{ ar(bifrons::base<Base>(*this), member1, member2); }` (or, for a class that is its base's "
                "value, such as `struct Path : std::string {}`, `ar(bifrons::base<std::string>(*this))`).");
  static_assert(max_aggregate_members == 64, "update the number in the message below");
  static_assert(r != hook_refusal::too_many_members,
                "bifrons: this aggregate has more than 64 members, the most reflection visits. Give it a hook: "
                "`template <class Archive> void serialize(Archive& ar) { ar(member1, member2, ...); }`.");
  static_assert(r != hook_refusal::uncounted_member,
                "bifrons: reflection cannot count this aggregate's members: one of them can be neither copied nor "
                "moved (a std::mutex, a std::atomic of a struct, ...), so the members after it would be lost. Give "
                "it a hook that lists the members to write: "
                "`template <class Archive> void serialize(Archive& ar) { ar(member1, member2); }`.");
  static_assert(r != hook_refusal::two_hooks,
                "bifrons: this type has more than one serialization hook (member serialize, free serialize, "
                "save/load, save_minimal). Keep exactly one.");
  static_assert(r != hook_refusal::member_save_without_load,
                "bifrons: this type has only one of member save() and load(). Write both: "
                "`template <class Archive> void save(Archive& ar) const` and "
                "`template <class Archive> void load(Archive& ar)` (or save() and a static load_and_construct).");
  static_assert(r != hook_refusal::free_save_without_load,
                "bifrons: this type has only one of free save() and load(). Write both: "
                "`save(Archive& ar, const T& value)` and `load(Archive& ar, T& value)` "
                "(or save() and a load_and_construct).");
  static_assert(r != hook_refusal::two_load_and_construct,
                "bifrons: this type has both a member and a free load_and_construct. Keep one.");
  static_assert(r != hook_refusal::load_and_construct_only,
                "bifrons: load_and_construct only reads: this type also needs a hook that writes its fields, "
                "`template <class Archive> void save(Archive& ar) const { ar(member1, member2); }` "
                "(or a serialize hook).");
  static_assert(r != hook_refusal::minimal_with_version,
                "bifrons: a minimal type (save_minimal) has no envelope, so it cannot carry a class version: "
                "remove bifrons_version, or write it with serialize/save/load.");
  static_assert(r != hook_refusal::minimal_with_load_and_construct,
                "bifrons: a minimal type (save_minimal) is created from its value: instead of load_and_construct, "
                "give it a constructor from the value save_minimal returns (it may be private to bifrons::access).");
  static_assert(r != hook_refusal::minimal_without_load,
                "bifrons: a minimal type (save_minimal) needs a way to read its value back: "
                "`template <class Archive> void load_minimal(const Archive& ar, const V& value)`, "
                "or a constructor from V, the type save_minimal returns.");
}

template <class... Ts>
constexpr std::size_t max_fields_size(type_list<Ts...>) noexcept {
  std::size_t total = 0;
  ((total = add_bounds(total, max_size_of<Ts>)), ...);
  return total;
}

/// The most bytes the fields of T take (without the envelope header), or unbounded: known for
/// aggregates without hooks whose members all have a bounded size.
template <class T>
constexpr std::size_t max_fields_size_of() noexcept {
  if constexpr (reflected<T>)
    return max_fields_size(member_types<T>{});
  else
    return unbounded;
}

/// Hands the fields of v to ar (a size or output archive).
template <class Ar, class T>
BIFRONS_INLINE void save_fields(Ar& ar, const T& v) {
  constexpr std::uint32_t version = class_version<T>();
  auto& m = const_cast<T&>(v);  // member serialize() is non-const; on save it only reads.
  if constexpr (member_serialize<T>)
    access::serialize(m, ar);
  else if constexpr (member_serialize_versioned<T>)
    access::serialize(m, ar, version);
  else if constexpr (adl::free_serialize<T>)
    adl::call_free_serialize(ar, m);
  else if constexpr (adl::free_serialize_versioned<T>)
    adl::call_free_serialize(ar, m, version);
  else if constexpr (member_save<T>)
    access::save(v, ar);
  else if constexpr (member_save_versioned<T>)
    access::save(v, ar, version);
  else if constexpr (adl::free_save<T>)
    adl::call_free_save(ar, v);
  else if constexpr (adl::free_save_versioned<T>)
    adl::call_free_save(ar, v, version);
  else if constexpr (reflected<T>)
    visit_members<member_count<T>>(v, [&](const auto&... members) BIFRONS_INLINE_LAMBDA { ar(members...); });
}

/// Reads the fields of v from ar; version is the one the data carries (0 if none).
template <class T>
BIFRONS_INLINE void load_fields(input_archive& ar, T& v, std::uint32_t version) {
  if constexpr (member_serialize<T>)
    access::serialize(v, ar);
  else if constexpr (member_serialize_versioned<T>)
    access::serialize(v, ar, version);
  else if constexpr (adl::free_serialize<T>)
    adl::call_free_serialize(ar, v);
  else if constexpr (adl::free_serialize_versioned<T>)
    adl::call_free_serialize(ar, v, version);
  else if constexpr (member_load<T>)
    access::load(v, ar);
  else if constexpr (member_load_versioned<T>)
    access::load(v, ar, version);
  else if constexpr (adl::free_load<T>)
    adl::call_free_load(ar, v);
  else if constexpr (adl::free_load_versioned<T>)
    adl::call_free_load(ar, v, version);
  else if constexpr (reflected<T>)
    visit_members<member_count<T>>(v, [&](auto&... members) BIFRONS_INLINE_LAMBDA {
      static_assert(!(std::is_const_v<std::remove_reference_t<decltype(members)>> || ...),
                    "bifrons: this aggregate has a const member, which cannot be read into. Give it "
                    "`template <class Archive> static T load_and_construct(Archive& ar)`, which reads the fields "
                    "into locals and returns the object, and create it with from_bytes<T> (not into an existing "
                    "object), or make the member non-const.");
      if constexpr (!(std::is_const_v<std::remove_reference_t<decltype(members)>> || ...)) ar(members...);
    });
  (void)ar, (void)v, (void)version;
}

}  // namespace bifrons::detail
