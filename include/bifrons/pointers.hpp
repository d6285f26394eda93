// SPDX-License-Identifier: MIT
#pragma once
// Raw pointers (docs/format.md, "Pointers").
//
// A raw pointer `T*` does not own its object (the C++ Core Guidelines' rule), so bifrons writes
// it as a reference to an object that the same message wrote before it: through a unique_ptr, a
// shared_ptr, an owning pointer, or by value when T has enable_identity (identity.hpp). After
// reading, it points to the corresponding new object. A pointer to an object that the message
// has not written before it cannot be written faithfully: writing fails with
// errc::unwritten_pointee instead of copying the object.
//
// A raw pointer that owns its object says so in the hook, with one word:
//
//   template <class Archive> void serialize(Archive& ar) { ar(value, bifrons::owning(left)); }
//
// It is written like a unique_ptr: null, or its object. Reading allocates the object with
// `new T()` (or reads into the one the pointer holds already) and the caller owns it, as in
// Boost.Serialization. If the read fails, every object it allocated for an owning pointer is
// deleted and the pointer set back to null.

#include <type_traits>

#include "detail/pointer_codec.hpp"
#include "fields.hpp"
#include "polymorphic.hpp"

namespace bifrons {

namespace detail {
template <class T>
inline constexpr bool pointee_supported = !std::is_void_v<T> && !std::is_function_v<T> &&
                                          !std::is_same_v<std::remove_cv_t<T>, char> && rtti_if_polymorphic<T>;

template <class T>
constexpr void check_pointee() {
  static_assert(rtti_if_polymorphic<T>, BIFRONS_RTTI_REFUSAL);
  static_assert(!std::is_void_v<T> && !std::is_function_v<T>,
                "bifrons: a pointer to void or to a function cannot be serialized: point to an object type");
  static_assert(!std::is_same_v<std::remove_cv_t<T>, char>,
                "bifrons: char* is not a string here, but a pointer to one char: use std::string or std::string_view");
}
}  // namespace detail

// A refused pointee is refused once, in the class (the functions then do nothing, so that the
// refusal is the only error).
template <class T>
struct codec<owning_ref<T>> {
  static_assert((detail::check_pointee<T>(), true));
  static_assert(!std::is_polymorphic_v<T> || std::has_virtual_destructor_v<T>,
                "bifrons: an owning T* of a polymorphic T without a virtual destructor: reading may create an "
                "object of a derived class, which would be deleted as a T. Declare `virtual ~T()`.");
  static constexpr bool ok = detail::pointee_supported<T>;
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const owning_ref<T>& r) {
    if constexpr (ok) return detail::unique_size<std::remove_cv_t<T>, true>(r.pointer);
    return 0;
  }
  static std::byte* write(std::byte* out, const owning_ref<T>& r) {
    if constexpr (ok) return detail::unique_write<std::remove_cv_t<T>>(out, r.pointer);
    return out;
  }
  static void read(detail::source& in, owning_ref<T>& r) {
    static_assert(!std::is_const_v<T>, "bifrons: an owning pointer to const cannot be read into: use T*");
    if constexpr (ok && !std::is_const_v<T>) detail::owning_read(in, r.pointer);
  }
};

/// A non-owning raw pointer: null or a reference to an object written before it.
template <class T>
struct codec<T*> {
  static_assert((detail::check_pointee<T>(), true));
  static constexpr bool ok = detail::pointee_supported<T>;
  static constexpr std::size_t min_size = 1;
  static std::size_t size(T* const& p) {
    if constexpr (ok) return detail::observer_size<std::remove_cv_t<T>>(p);
    return 0;
  }
  static std::byte* write(std::byte* out, T* const& p) {
    if constexpr (ok) return detail::replayed_write<std::remove_cv_t<T>>(out, [&] { return p; });
    return out;
  }
  static void read(detail::source& in, T*& p) {
    if constexpr (ok) detail::observer_read(in, p, true);
  }
};

}  // namespace bifrons
