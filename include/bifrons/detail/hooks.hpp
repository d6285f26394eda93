// SPDX-License-Identifier: MIT
#pragma once
// Finding how a user class is serialized: one of the hooks users know from cereal, or, for an
// aggregate with no hook, its members found by reflection (reflection.hpp).

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <type_traits>
#include <utility>

#include "codec.hpp"
#include "reflection.hpp"

namespace bifrons::detail {

// ---- class versions -----------------------------------------------------------------------

template <class T>
concept has_class_version = requires {
  { T::bifrons_version } -> std::convertible_to<std::uint32_t>;
};

template <class T>
constexpr std::uint32_t class_version() noexcept {
  if constexpr (has_class_version<T>)
    return static_cast<std::uint32_t>(T::bifrons_version);
  else
    return 0;
}

// ---- hook detection -----------------------------------------------------------------------

namespace adl {
// Poison pills: unqualified calls below find only the user's functions, through ADL.
void serialize() = delete;
void save() = delete;
void load() = delete;

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

template <class Ar, class T>
void call_free_serialize(Ar& ar, T& t) {
  serialize(ar, t);
}
template <class Ar, class T>
void call_free_serialize(Ar& ar, T& t, std::uint32_t v) {
  serialize(ar, t, v);
}
template <class Ar, class T>
void call_free_save(Ar& ar, const T& t) {
  save(ar, t);
}
template <class Ar, class T>
void call_free_save(Ar& ar, const T& t, std::uint32_t v) {
  save(ar, t, v);
}
template <class Ar, class T>
void call_free_load(Ar& ar, T& t) {
  load(ar, t);
}
template <class Ar, class T>
void call_free_load(Ar& ar, T& t, std::uint32_t v) {
  load(ar, t, v);
}
}  // namespace adl

template <class T>
concept callable_member_serialize = requires(T& t, input_archive& ar) { t.serialize(ar); };
template <class T>
concept callable_member_serialize_versioned =
    requires(T& t, input_archive& ar, std::uint32_t v) { t.serialize(ar, v); };
template <class T>
concept callable_member_save = requires(const T& t, output_archive& ar) { t.save(ar); };
template <class T>
concept callable_member_save_versioned = requires(const T& t, output_archive& ar, std::uint32_t v) { t.save(ar, v); };
template <class T>
concept callable_member_load = requires(T& t, input_archive& ar) { t.load(ar); };
template <class T>
concept callable_member_load_versioned = requires(T& t, input_archive& ar, std::uint32_t v) { t.load(ar, v); };

// A member hook found in a base class would serialize a derived object as if it were the base:
// the derived fields would be lost without a word (a classic cereal surprise). So member hooks
// count only when T itself declares them; a hook that is only inherited is a compile error.
template <class M>
struct member_owner;
template <class C, class F>
struct member_owner<F C::*> {
  using type = C;
};

template <class T>
concept inherits_serialize = requires {
  &T::template serialize<input_archive>;
} && !std::is_same_v<typename member_owner<decltype(&T::template serialize<input_archive>)>::type, T>;
template <class T>
concept inherits_save = requires { &T::template save<output_archive>; } &&
                        !std::is_same_v<typename member_owner<decltype(&T::template save<output_archive>)>::type, T>;
template <class T>
concept inherits_load = requires { &T::template load<input_archive>; } &&
                        !std::is_same_v<typename member_owner<decltype(&T::template load<input_archive>)>::type, T>;

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
inline constexpr bool has_only_inherited_hooks = (inherits_serialize<T> || inherits_save<T> || inherits_load<T>) &&
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

template <class T>
inline constexpr int hook_count = int(member_serialize<T>) + int(member_serialize_versioned<T>) +
                                  int(adl::free_serialize<T>) + int(adl::free_serialize_versioned<T>) +
                                  int(has_member_save<T> || has_member_load<T>) +
                                  int(has_free_save<T> || has_free_load<T>);

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
concept std_optional_like = requires(const T& t) {
  t.has_value();
  t.value();
};
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

/// The types above, when no hook claims them: their codec's header is missing.
template <class T>
inline constexpr bool needs_types_header =
    hook_count<T> == 0 &&
    (reflectable_aggregate<T>
         ? std_tuple_like<T> && std::ranges::range<T>  // std::array
         : std_string_like<T> || std_string_view_like<T> || std_map_like<T> || std_unordered_map_like<T> ||
               std_set_like<T> || std_unordered_set_like<T> || std_forward_list_like<T> || std_list_like<T> ||
               std_deque_like<T> || std_vector_like<T> || std_adapter_like<T> || std_optional_like<T> ||
               std_variant_like<T> || std_smart_pointer_like<T> || std_tuple_like<T> || std_bitset_like<T> ||
               std_complex_like<T> || std_chrono_like<T> || std_span_like<T>);

/// T is serialized through its members (no hook), which reflection can count and visit. Types
/// refused above are not, so that their refusal is the only error.
template <class T>
concept reflected = hook_count<T> == 0 && reflectable_aggregate<T> && !needs_types_header<T>;

// ---- invoking the hook ---------------------------------------------------------------------

template <class T>
constexpr void check_hooks() {
  static_assert(!(hook_count<T> == 0 && has_only_inherited_hooks<T>),
                "bifrons: this type only inherits a serialization hook from a base class, which would "
                "lose the derived class's fields. Declare its own hook: "
                "`template <class Archive> void serialize(Archive& ar) { ar(bifrons::base<Base>(*this), member1); }`.");
  static_assert(!(hook_count<T> == 0 && !reflectable_aggregate<T> && !has_only_inherited_hooks<T>) ||
                    needs_types_header<T>,  // refused with the header's name (struct_codec.hpp)
                "bifrons: this type is not an aggregate and has no serialization hook. Add one of: "
                "a member `template <class Archive> void serialize(Archive& ar) { ar(member1, member2); }`; "
                "a free `template <class Archive> void serialize(Archive& ar, T& value)` in T's namespace; "
                "or members `template <class Archive> void save(Archive& ar) const` and "
                "`template <class Archive> void load(Archive& ar)`.");
  static_assert(hook_count<T> <= 1,
                "bifrons: this type has more than one serialization hook (member serialize, free serialize, "
                "save/load). Keep exactly one.");
  static_assert(has_member_save<T> == has_member_load<T>,
                "bifrons: this type has only one of member save() and load(). Write both: "
                "`template <class Archive> void save(Archive& ar) const` and "
                "`template <class Archive> void load(Archive& ar)`.");
  static_assert(has_free_save<T> == has_free_load<T>,
                "bifrons: this type has only one of free save() and load(). Write both: "
                "`save(Archive& ar, const T& value)` and `load(Archive& ar, T& value)`.");
  if constexpr (reflected<T>)
    static_assert(member_count<T> <= max_aggregate_members,
                  "bifrons: aggregates with more than 64 members need a serialize hook");
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
    m.serialize(ar);
  else if constexpr (member_serialize_versioned<T>)
    m.serialize(ar, version);
  else if constexpr (adl::free_serialize<T>)
    adl::call_free_serialize(ar, m);
  else if constexpr (adl::free_serialize_versioned<T>)
    adl::call_free_serialize(ar, m, version);
  else if constexpr (member_save<T>)
    v.save(ar);
  else if constexpr (member_save_versioned<T>)
    v.save(ar, version);
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
    v.serialize(ar);
  else if constexpr (member_serialize_versioned<T>)
    v.serialize(ar, version);
  else if constexpr (adl::free_serialize<T>)
    adl::call_free_serialize(ar, v);
  else if constexpr (adl::free_serialize_versioned<T>)
    adl::call_free_serialize(ar, v, version);
  else if constexpr (member_load<T>)
    v.load(ar);
  else if constexpr (member_load_versioned<T>)
    v.load(ar, version);
  else if constexpr (adl::free_load<T>)
    adl::call_free_load(ar, v);
  else if constexpr (adl::free_load_versioned<T>)
    adl::call_free_load(ar, v, version);
  else if constexpr (reflected<T>)
    visit_members<member_count<T>>(v, [&](auto&... members) BIFRONS_INLINE_LAMBDA { ar(members...); });
  (void)ar, (void)v, (void)version;
}

}  // namespace bifrons::detail
