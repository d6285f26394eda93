// SPDX-License-Identifier: MIT
#pragma once
// Member reflection for aggregates without a hook: how many members an aggregate has (by
// aggregate initialization), their types, and visiting them (visit_members.hpp, generated).

#include <cstddef>
#include <type_traits>
#include <utility>

#include "visit_members.hpp"

namespace bifrons::detail {

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
// cannot choose between `{x}` and `x` per element); Extra: initializers after them.
template <class T, class... Extra, std::size_t... A0, std::size_t... P0, std::size_t... A1, std::size_t... P1,
          std::size_t... A2, std::size_t... P2, std::size_t... A3, std::size_t... P3, std::size_t... A4,
          std::size_t... P4, std::size_t... A5, std::size_t... P5, std::size_t... A6, std::size_t... P6,
          std::size_t... A7, std::size_t... P7>
constexpr bool initializable(std::index_sequence<A0...>, std::index_sequence<P0...>, std::index_sequence<A1...>,
                             std::index_sequence<P1...>, std::index_sequence<A2...>, std::index_sequence<P2...>,
                             std::index_sequence<A3...>, std::index_sequence<P3...>, std::index_sequence<A4...>,
                             std::index_sequence<P4...>, std::index_sequence<A5...>, std::index_sequence<P5...>,
                             std::index_sequence<A6...>, std::index_sequence<P6...>, std::index_sequence<A7...>,
                             std::index_sequence<P7...>) {
  return requires {
    T{{(void(A0), any_braced{})}...,
      (void(P0), any_member{})...,
      {(void(A1), any_braced{})}...,
      (void(P1), any_member{})...,
      {(void(A2), any_braced{})}...,
      (void(P2), any_member{})...,
      {(void(A3), any_braced{})}...,
      (void(P3), any_member{})...,
      {(void(A4), any_braced{})}...,
      (void(P4), any_member{})...,
      {(void(A5), any_braced{})}...,
      (void(P5), any_member{})...,
      {(void(A6), any_braced{})}...,
      (void(P6), any_member{})...,
      {(void(A7), any_braced{})}...,
      (void(P7), any_member{})...,
      Extra{}...};
  };
}

template <class T, init_shape S, class... Extra>
constexpr bool initializable_with_shape() {
  if constexpr (S.exhausted) {
    return false;
  } else {
    using std::make_index_sequence;
    return initializable<T, Extra...>(make_index_sequence<S.length[0]>{}, make_index_sequence<S.length[1]>{},
                                      make_index_sequence<S.length[2]>{}, make_index_sequence<S.length[3]>{},
                                      make_index_sequence<S.length[4]>{}, make_index_sequence<S.length[5]>{},
                                      make_index_sequence<S.length[6]>{}, make_index_sequence<S.length[7]>{},
                                      make_index_sequence<S.length[8]>{}, make_index_sequence<S.length[9]>{},
                                      make_index_sequence<S.length[10]>{}, make_index_sequence<S.length[11]>{},
                                      make_index_sequence<S.length[12]>{}, make_index_sequence<S.length[13]>{},
                                      make_index_sequence<S.length[14]>{}, make_index_sequence<S.length[15]>{});
  }
}

/// The shape of the longest initializer reflection can build for T: its members, counted.
template <class T, init_shape S = init_shape{}>
constexpr init_shape counted_shape() {
  constexpr init_shape braced = S.extended(true);
  constexpr init_shape plain = S.extended(false);
  if constexpr (S.total() > max_aggregate_members)
    return S;
  else if constexpr (initializable_with_shape<T, braced>())
    return counted_shape<T, braced>();
  else if constexpr (initializable_with_shape<T, plain>())
    return counted_shape<T, plain>();
  else
    return S;
}

template <class T>
constexpr std::size_t count_members() {
  return counted_shape<T>().total();
}

// Converts to any default-initializable type, as a prvalue: it initializes even a member that
// can be neither copied nor moved (std::mutex), which the converters above cannot.
struct any_default {
  template <class U>
    requires std::is_default_constructible_v<U>
  operator U() const noexcept;
};

template <class T>
concept reflectable_aggregate = std::is_aggregate_v<T> && !std::is_array_v<T>;

template <class T>
inline constexpr std::size_t member_count = count_members<T>();

// Converts only to the base classes of T. Bases come first in an aggregate's initializer list,
// so T{base_probe<T>{}} is valid exactly when T has a base class (or, harmlessly, when its first
// member accepts anything, as std::any does: such a member cannot be serialized either).
template <class T>
struct base_probe {
  base_probe() = default;
  base_probe(const base_probe&) = delete;  // so that std::any (which takes any copyable value) does not match
  template <class U>
    requires(std::is_base_of_v<U, T> && !std::is_same_v<U, T>)
  operator U&&() const noexcept;
};

/// An aggregate whose counting stopped before a member that the converters cannot initialize (a
/// member that is neither copyable nor movable): its members would be miscounted, silently.
template <class T>
concept aggregate_with_uncounted_member = reflectable_aggregate<T> &&
                                          initializable_with_shape<T, counted_shape<T>(), any_default>();

/// An aggregate with a base class: its members cannot be visited (a structured binding needs
/// every member in one class), nor its bases named, so it needs a hook.
template <class T>
concept aggregate_with_base = reflectable_aggregate<T> && requires { T{base_probe<T>{}}; };

template <class... Ts>
struct type_list {};

/// The member types of an aggregate without a hook, as a type_list.
template <class T>
using member_types = decltype(visit_members<member_count<T>>(std::declval<T&>(), [](auto&... members) {
  return type_list<std::remove_cvref_t<decltype(members)>...>{};
}));

}  // namespace bifrons::detail
