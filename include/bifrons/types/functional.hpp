// SPDX-License-Identifier: MIT
#pragma once
// std::reference_wrapper<T>: a non-owning pointer that is never null (see bifrons/pointers.hpp).
// It is written as a reference to an object the message wrote before it, and rebound to the
// corresponding new object when read. A reference_wrapper has no default constructor: read it
// into an existing object (from_bytes(bytes, object)), or hold it in a class that sets it.

#include <functional>

#include "../detail/codec.hpp"
#include "../detail/pointer_codec.hpp"
#include "../pointers.hpp"

namespace bifrons {

template <class T>
struct codec<std::reference_wrapper<T>> {
  static constexpr bool ok = detail::rtti_if_polymorphic<T>;
  static_assert(ok, BIFRONS_RTTI_REFUSAL);
  using U = std::remove_cv_t<T>;

  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::reference_wrapper<T>& r) {
    if constexpr (ok) return detail::observer_size<U>(&r.get());
    return 0;
  }
  static std::byte* write(std::byte* out, const std::reference_wrapper<T>& r) {
    if constexpr (ok) return detail::replayed_write<U>(out, [&] { return &r.get(); });
    return out;
  }
  static constexpr detail::object_table::pointer_ops reference_ops{
      [](const void* slot) noexcept -> void* {
        return const_cast<U*>(&static_cast<const std::reference_wrapper<T>*>(slot)->get());
      },
      [](void* slot, void* to) noexcept {
        // Set to null only when the read fails (the wrapper is then in a value being discarded):
        // it keeps its object then, as a reference cannot be null.
        if (to != nullptr) *static_cast<std::reference_wrapper<T>*>(slot) = *static_cast<T*>(to);
      }};
  static void read(detail::source& in, std::reference_wrapper<T>& r) {
    if constexpr (ok) {
      // The table keeps the wrapper's address, to rewrite it where its object moves.
      T* p = &r.get();
      detail::observer_read(in, p, false, &r, &reference_ops);
      r = *p;
    }
  }
};
}  // namespace bifrons
