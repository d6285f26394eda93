#pragma once
// Finding how a user class is serialized: one of the hooks users know from cereal, or, for an
// aggregate with no hook, its members found by reflection.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "codec.hpp"
#include "visit_members.hpp"

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
void call_free_serialize(Ar& ar, T& t) { serialize(ar, t); }
template <class Ar, class T>
void call_free_serialize(Ar& ar, T& t, std::uint32_t v) { serialize(ar, t, v); }
template <class Ar, class T>
void call_free_save(Ar& ar, const T& t) { save(ar, t); }
template <class Ar, class T>
void call_free_save(Ar& ar, const T& t, std::uint32_t v) { save(ar, t, v); }
template <class Ar, class T>
void call_free_load(Ar& ar, T& t) { load(ar, t); }
template <class Ar, class T>
void call_free_load(Ar& ar, T& t, std::uint32_t v) { load(ar, t, v); }
}  // namespace adl

template <class T>
concept callable_member_serialize = requires(T& t, input_archive& ar) { t.serialize(ar); };
template <class T>
concept callable_member_serialize_versioned = requires(T& t, input_archive& ar, std::uint32_t v) {
  t.serialize(ar, v);
};
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
concept inherits_serialize = requires { &T::template serialize<input_archive>; } &&
                             !std::is_same_v<typename member_owner<decltype(&T::template serialize<input_archive>)>::type, T>;
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
inline constexpr bool has_only_inherited_hooks =
    (inherits_serialize<T> || inherits_save<T> || inherits_load<T>) && !member_serialize<T> &&
    !member_serialize_versioned<T> && !member_save<T> && !member_save_versioned<T>;

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

// ---- aggregate reflection ------------------------------------------------------------------

// Converts to any member type, so that T{any_member{}...} tells how many members T has.
// Class types convert through an rvalue reference, which selects the move constructor: a
// conversion to an lvalue would pick the copy constructor, and instantiating that is a hard
// error for members such as vector<unique_ptr<T>> whose copy constructor is not constrained.
struct any_member {
  template <class U>
    requires(!std::is_class_v<U>)
  operator U&() const noexcept;
  template <class U>
    requires std::is_class_v<U>
  operator U&&() const noexcept;
};

// Inside braces, no conversions to move-only classes: `{x}` for a member vector<unique_ptr<T>>
// would otherwise pick its initializer_list constructor, and instantiating that is a hard error
// in clang. Braces are needed for C arrays (of scalars or of copyable classes); other members
// count through the plain spelling.
struct any_braced {
  template <class U>
    requires(!std::is_class_v<U>)
  operator U&() const noexcept;
  template <class U>
    requires std::is_class_v<U> && std::is_copy_constructible_v<U>
  operator U&&() const noexcept;
};

// Counting members by aggregate initialization needs two spellings of an initializer:
//  - braced `{any}` initializes exactly one member, even a C array of scalars (a plain `any`
//    would be brace-elided into the array's elements and counted once per element);
//  - plain `any` works for classes with several converting constructors (complex, bitset,
//    string_view, empty classes), where `{any}` is ambiguous or has too many initializers.
// A pack expansion has one shape, so the initializer list is built from up to sixteen runs
// that alternate braced and plain, and each member is tried braced first, then plain.
struct init_shape {
  static constexpr std::size_t runs = 16;
  std::size_t length[runs]{};
  std::size_t current = 0;  // the run being extended; even runs are braced, odd runs plain
  bool exhausted = false;

  constexpr std::size_t total() const noexcept {
    std::size_t t = 0;
    for (std::size_t n : length) t += n;
    return t;
  }
  constexpr init_shape extended(bool braced) const noexcept {
    init_shape next = *this;
    const std::size_t run = (current % 2 == 0) == braced ? current : current + 1;
    if (run >= runs) {
      next.exhausted = true;
    } else {
      ++next.length[run];
      next.current = run;
    }
    return next;
  }
};

// One overload for every shape of up to init_shape::runs runs (written out: a pack expansion
// cannot choose between `{x}` and `x` per element).
template <class T, std::size_t... A0, std::size_t... P0, std::size_t... A1, std::size_t... P1, std::size_t... A2, std::size_t... P2, std::size_t... A3, std::size_t... P3, std::size_t... A4, std::size_t... P4, std::size_t... A5, std::size_t... P5, std::size_t... A6, std::size_t... P6, std::size_t... A7, std::size_t... P7>
constexpr bool initializable(std::index_sequence<A0...>, std::index_sequence<P0...>, std::index_sequence<A1...>, std::index_sequence<P1...>, std::index_sequence<A2...>, std::index_sequence<P2...>, std::index_sequence<A3...>, std::index_sequence<P3...>, std::index_sequence<A4...>, std::index_sequence<P4...>, std::index_sequence<A5...>, std::index_sequence<P5...>, std::index_sequence<A6...>, std::index_sequence<P6...>, std::index_sequence<A7...>, std::index_sequence<P7...>) {
  return requires { T{{(void(A0), any_braced{})}..., (void(P0), any_member{})..., {(void(A1), any_braced{})}..., (void(P1), any_member{})..., {(void(A2), any_braced{})}..., (void(P2), any_member{})..., {(void(A3), any_braced{})}..., (void(P3), any_member{})..., {(void(A4), any_braced{})}..., (void(P4), any_member{})..., {(void(A5), any_braced{})}..., (void(P5), any_member{})..., {(void(A6), any_braced{})}..., (void(P6), any_member{})..., {(void(A7), any_braced{})}..., (void(P7), any_member{})...}; };
}

template <class T, init_shape S>
constexpr bool initializable_with_shape() {
  if constexpr (S.exhausted) {
    return false;
  } else {
    using std::make_index_sequence;
    return initializable<T>(make_index_sequence<S.length[0]>{}, make_index_sequence<S.length[1]>{}, make_index_sequence<S.length[2]>{}, make_index_sequence<S.length[3]>{}, make_index_sequence<S.length[4]>{}, make_index_sequence<S.length[5]>{}, make_index_sequence<S.length[6]>{}, make_index_sequence<S.length[7]>{}, make_index_sequence<S.length[8]>{}, make_index_sequence<S.length[9]>{}, make_index_sequence<S.length[10]>{}, make_index_sequence<S.length[11]>{}, make_index_sequence<S.length[12]>{}, make_index_sequence<S.length[13]>{}, make_index_sequence<S.length[14]>{}, make_index_sequence<S.length[15]>{});
  }
}

template <class T, init_shape S = init_shape{}>
constexpr std::size_t count_members() {
  constexpr init_shape braced = S.extended(true);
  constexpr init_shape plain = S.extended(false);
  if constexpr (S.total() > max_aggregate_members)
    return S.total();
  else if constexpr (initializable_with_shape<T, braced>())
    return count_members<T, braced>();
  else if constexpr (initializable_with_shape<T, plain>())
    return count_members<T, plain>();
  else
    return S.total();
}

template <class T>
concept reflectable_aggregate = std::is_aggregate_v<T> && !std::is_array_v<T>;

template <class T>
inline constexpr std::size_t member_count = count_members<T>();

// ---- invoking the hook ---------------------------------------------------------------------

template <class T>
constexpr void check_hooks() {
  static_assert(!(hook_count<T> == 0 && has_only_inherited_hooks<T>),
                "bifrons: this type only inherits a serialization hook from a base class, which would "
                "lose the derived class's fields. Declare its own hook: "
                "`template <class Archive> void serialize(Archive& ar) { ar(bifrons::base<Base>(*this), member1); }`.");
  static_assert(!(hook_count<T> == 0 && !reflectable_aggregate<T> && !has_only_inherited_hooks<T>),
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
  if constexpr (hook_count<T> == 0)
    static_assert(member_count<T> <= max_aggregate_members,
                  "bifrons: aggregates with more than 64 members need a serialize hook");
}

template <class... Ts>
struct type_list {};

/// The member types of an aggregate without a hook, as a type_list.
template <class T>
using member_types = decltype(visit_members<member_count<T>>(std::declval<T&>(), [](auto&... members) {
  return type_list<std::remove_cvref_t<decltype(members)>...>{};
}));

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
  if constexpr (hook_count<T> == 0 && reflectable_aggregate<T>)
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
  else
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
  else
    visit_members<member_count<T>>(v, [&](auto&... members) BIFRONS_INLINE_LAMBDA { ar(members...); });
  (void)version;
}

}  // namespace bifrons::detail
