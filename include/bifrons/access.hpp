// SPDX-License-Identifier: MIT
#pragma once
// bifrons::access: the one friend declaration a class needs to keep its serialization private,
// as cereal's `friend class cereal::access;` and zpp::bits' `friend zpp::bits::access;`:
//
//   class Account {
//     friend bifrons::access;
//     Account() = default;                                 // private: only bifrons creates empty ones
//     static constexpr std::uint32_t bifrons_version = 2;  // private too
//     template <class Archive> void serialize(Archive& ar) { ar(id_, name_); }
//     ...
//   };
//
// Every member hook (serialize, save, load, load_and_construct, save_minimal, load_minimal), the
// default constructor and the class constants (bifrons_version, bifrons_refuse_newer) may then be
// private. The members below are the library's: they are public so that its internals can reach
// them, not for use in programs.

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "class_version.hpp"

namespace bifrons {

class access {
 public:
  // ---- what a class declares (Ar: the archive type a hook would be called with) ----
  template <class T, class Ar>
  static constexpr bool member_serialize = requires(T& t, Ar& ar) { t.serialize(ar); };
  template <class T, class Ar>
  static constexpr bool member_serialize_versioned = requires(T& t, Ar& ar, std::uint32_t v) { t.serialize(ar, v); };
  template <class T, class Ar>
  static constexpr bool member_save = requires(const T& t, Ar& ar) { t.save(ar); };
  template <class T, class Ar>
  static constexpr bool member_save_versioned = requires(const T& t, Ar& ar, std::uint32_t v) { t.save(ar, v); };
  template <class T, class Ar>
  static constexpr bool member_load = requires(T& t, Ar& ar) { t.load(ar); };
  template <class T, class Ar>
  static constexpr bool member_load_versioned = requires(T& t, Ar& ar, std::uint32_t v) { t.load(ar, v); };
  template <class T, class Ar>
  static constexpr bool member_load_and_construct = requires(Ar& ar) {
    { T::load_and_construct(ar) } -> std::same_as<T>;
  };
  template <class T, class Ar>
  static constexpr bool member_load_and_construct_versioned = requires(Ar& ar, std::uint32_t v) {
    { T::load_and_construct(ar, v) } -> std::same_as<T>;
  };
  template <class T, class Ar>
  static constexpr bool member_save_minimal = requires(const T& t, const Ar& ar) { t.save_minimal(ar); };

  /// The member template `serialize` (`save`, `load`) that T can call is declared by a base
  /// class: a hook T only inherits does not count (it would drop the derived class's fields).
  /// (Only for hooks that can be called from here: compilers accept the address of a private
  /// member in a requires-expression, but not its type.)
  template <class T, class Ar>
  static consteval bool inherits_serialize() {
    if constexpr (member_serialize<T, Ar> || member_serialize_versioned<T, Ar>) {
      if constexpr (requires { &T::template serialize<Ar>; })
        return !std::is_same_v<class_of<decltype(&T::template serialize<Ar>)>, T>;
    }
    return false;
  }
  template <class T, class Ar>
  static consteval bool inherits_save() {
    if constexpr (member_save<T, Ar> || member_save_versioned<T, Ar>) {
      if constexpr (requires { &T::template save<Ar>; })
        return !std::is_same_v<class_of<decltype(&T::template save<Ar>)>, T>;
    }
    return false;
  }
  template <class T, class Ar>
  static consteval bool inherits_load() {
    if constexpr (member_load<T, Ar> || member_load_versioned<T, Ar>) {
      if constexpr (requires { &T::template load<Ar>; })
        return !std::is_same_v<class_of<decltype(&T::template load<Ar>)>, T>;
    }
    return false;
  }

  template <class T, class Ar>
  static consteval bool inherits_save_minimal() {
    if constexpr (member_save_minimal<T, Ar>) {
      if constexpr (requires { &T::template save_minimal<Ar>; })
        return !std::is_same_v<class_of<decltype(&T::template save_minimal<Ar>)>, T>;
    }
    return false;
  }
  template <class T, class Ar>
  static consteval bool inherits_load_minimal() {
    if constexpr (requires { &T::template load_minimal<Ar>; })
      return !std::is_same_v<class_of<decltype(&T::template load_minimal<Ar>)>, T>;
    return false;
  }

  // ---- base classes (private and protected ones too, for a class that befriends access) ----
  template <class Base, class Derived>
  static constexpr bool reaches_base = requires(Derived& d) { static_cast<Base&>(d); };
  /// Base is a virtual base of Derived: the cast down from it cannot be static.
  template <class Base, class Derived>
  static constexpr bool virtual_base = !requires(Base* b) { static_cast<Derived*>(b); };
  template <class Base, class Derived>
  static Base& as_base(Derived& d) noexcept {
    return static_cast<Base&>(d);
  }

  template <class T>
  static constexpr bool has_member_version = requires {
    { T::bifrons_version } -> std::convertible_to<std::uint32_t>;
  };
  /// A version inside the class (bifrons_version) or outside it (BIFRONS_CLASS_VERSION).
  template <class T>
  static constexpr bool has_version = has_member_version<T> || version_of<T> != 0;
  template <class T>
  static constexpr std::uint32_t version = [] {
    static_assert(!(has_member_version<T> && version_of<T> != 0),
                  "bifrons: this class declares its version twice, bifrons_version inside it and "
                  "BIFRONS_CLASS_VERSION outside it: keep one");
    if constexpr (has_member_version<T>)
      return static_cast<std::uint32_t>(T::bifrons_version);
    else
      return version_of<T>;
  }();
  template <class T>
  static constexpr bool refuses_newer = [] {
    if constexpr (requires { T::bifrons_refuse_newer; })
      return static_cast<bool>(T::bifrons_refuse_newer);
    else
      return false;
  }();

  template <class T, class V>
  static constexpr bool constructible_from = requires(V&& value) { T(static_cast<V&&>(value)); };
  template <class T, class V>
  static T construct_from(V&& value) {
    return T(static_cast<V&&>(value));
  }

  /// `T{}` or `T()` is allowed to bifrons (public, or private to a class that befriends access).
  /// Both: an aggregate with a base whose default constructor is protected
  /// (std::enable_shared_from_this) has `T()` but not `T{}`, which initializes the base from here.
  template <class T>
  static constexpr bool default_constructible = requires { T{}; } || requires { T(); };

  // ---- calling them ----
  template <class T>
  static T make() {
    if constexpr (requires { T{}; })
      return T{};
    else
      return T();
  }
  template <class T>
  static T* make_new() {
    return new T();
  }
  template <class T, class Ar, class... V>
  static void serialize(T& t, Ar& ar, V... version) {
    t.serialize(ar, version...);
  }
  template <class T, class Ar, class... V>
  static void save(const T& t, Ar& ar, V... version) {
    t.save(ar, version...);
  }
  template <class T, class Ar, class... V>
  static void load(T& t, Ar& ar, V... version) {
    t.load(ar, version...);
  }
  template <class T, class Ar, class... V>
  static T load_and_construct(Ar& ar, V... version) {
    return T::load_and_construct(ar, version...);
  }
  template <class T, class Ar>
  static auto save_minimal(const T& t, const Ar& ar) {
    return t.save_minimal(ar);
  }
  template <class T, class Ar, class V>
  static void load_minimal(T& t, const Ar& ar, const V& value) {
    t.load_minimal(ar, value);
  }
  template <class T, class Ar, class V>
  static constexpr bool member_load_minimal =
      requires(T& t, const Ar& ar, const V& value) { t.load_minimal(ar, value); };

 private:
  template <class M>
  struct member_class;
  template <class C, class F>
  struct member_class<F C::*> {
    using type = C;
  };
  template <class M>
  using class_of = typename member_class<M>::type;
};

}  // namespace bifrons
