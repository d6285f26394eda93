// SPDX-License-Identifier: MIT
#pragma once
// Which values may hold pointers, computed from their types alone: may_hold_pointers (the
// reader's guards for temporaries and rereads, the object table's owner), may_hold_identity
// (whether unique owners are tracked) and needs_write_session (the writer's entry points). It
// needs the hooks, reflection and records, not the pointer machinery (pointer_codec.hpp, the
// object table, the write session and the registry), so that code which only asks the question
// does not parse the machinery.

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../identity.hpp"
#include "hooks.hpp"
#include "range_traits.hpp"
#include "record_codec.hpp"
#include "reflection.hpp"

namespace bifrons {
template <class T>
struct owning_ref;  // fields.hpp: owning()
}  // namespace bifrons

namespace bifrons::detail {

/// owning(p) of a raw pointer (its codec is in pointers.hpp).
template <class T>
inline constexpr bool owning_ref_like = false;
template <class T>
inline constexpr bool owning_ref_like<owning_ref<T>> = true;

/// What a scan of a type's parts looks for: any pointer (the reader's guards for temporaries
/// and rereads), or what needs object ids (references are possible only with shared_ptr,
/// weak_ptr, raw pointers or by-value objects with identity; a value of unique_ptrs alone never
/// refers back, so neither side tracks its objects).
enum class pointer_scan : std::uint8_t { any_pointer, identity };

template <class T, class List>
inline constexpr bool listed = false;
template <class T, class... L>
inline constexpr bool listed<T, type_list<L...>> = (std::is_same_v<T, L> || ...);

template <class List, class T>
struct append_type;
template <class... L, class T>
struct append_type<type_list<L...>, T> {
  using type = type_list<L..., T>;
};

template <pointer_scan Scan, class T, class Seen>
constexpr bool scan_holds();

template <pointer_scan Scan, class Seen, class... F>
constexpr bool any_holds(type_list<F...>) {
  return (scan_holds<Scan, F, Seen>() || ...);
}
template <class Tuple, std::size_t... I>
type_list<std::tuple_element_t<I, Tuple>...> tuple_types(std::index_sequence<I...>);
// The alternatives of a std::variant, deduced from its template arguments: std::variant_alternative
// would need <variant>, which only programs that serialize a variant include (types/variant.hpp).
template <template <class...> class Variant, class... Alternatives>
type_list<Alternatives...> variant_types(const Variant<Alternatives...>*);

template <class T>
concept std_unique_ptr_like = std_smart_pointer_like<T> && requires { typename T::deleter_type; };

/// False only where T certainly holds nothing the scan looks for: scalars, strings, paths,
/// records, and standard containers and aggregates of such. A class with a hook (or a
/// load_and_construct) may write anything and runs user code, so it counts as holding pointers. Recursive types end the
/// scan where they recur (Seen).
template <pointer_scan Scan, class T, class Seen>
constexpr bool scan_holds() {
  using U = std::remove_cv_t<T>;
  using Next = typename append_type<Seen, U>::type;
  if constexpr (listed<U, Seen>) {
    return false;  // being scanned further up: its other parts decide
  } else if constexpr (std::is_pointer_v<U>) {
    return true;
  } else if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U> || std_path_like<U>) {
    return false;
  } else if constexpr (std_atomic_like<U>) {
    return scan_holds<Scan, typename U::value_type, Next>();
  } else if constexpr (std::is_array_v<U>) {
    return scan_holds<Scan, std::remove_extent_t<U>, Seen>();
  } else if constexpr (!std::is_class_v<U> || hook_count<U> != 0 || has_only_inherited_hooks<U> || enable_identity<U> ||
                       has_load_and_construct<U>) {
    return true;
  } else if constexpr (record<U>) {
    return false;
  } else if constexpr (reflected<U>) {
    return any_holds<Scan, Next>(member_types<U>{});
  } else if constexpr (std_unique_ptr_like<U> && Scan == pointer_scan::identity) {
    return scan_holds<Scan, typename U::element_type, Next>();
  } else if constexpr (std_smart_pointer_like<U>) {
    return true;
  } else if constexpr (std_string_like<U> || std_string_view_like<U> || std_bitset_like<U> || std_complex_like<U> ||
                       std_chrono_like<U>) {
    return false;
  } else if constexpr (std_optional_like<U>) {
    return scan_holds<Scan, typename U::value_type, Next>();
  } else if constexpr (std_variant_like<U>) {
    return any_holds<Scan, Next>(decltype(variant_types(static_cast<const U*>(nullptr))){});
  } else if constexpr (std_adapter_like<U>) {
    return scan_holds<Scan, typename U::container_type, Next>();
  } else if constexpr (range<U>) {
    return scan_holds<Scan, range_value_t<U>, Next>();
  } else if constexpr (std_tuple_like<U>) {
    return any_holds<Scan, Next>(decltype(tuple_types<U>(std::make_index_sequence<std::tuple_size_v<U>>{})){});
  } else {
    return true;
  }
}

/// T may hold a pointer of any kind, or an object with identity.
template <class T>
constexpr bool may_hold_pointers() {
  return scan_holds<pointer_scan::any_pointer, T, type_list<>>();
}
/// T may hold something that takes part in references: writers and readers then track the
/// objects of unique owners too.
template <class T>
constexpr bool may_hold_identity() {
  return scan_holds<pointer_scan::identity, T, type_list<>>();
}
/// The entry points write these values under a session (write_session.hpp).
template <class T>
inline constexpr bool needs_write_session = may_hold_pointers<T>();

}  // namespace bifrons::detail
