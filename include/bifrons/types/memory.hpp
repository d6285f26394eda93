// SPDX-License-Identifier: MIT
#pragma once
// std::unique_ptr, std::shared_ptr and std::weak_ptr: the pointer encoding of docs/format.md,
// "Pointers" (roles in detail/pointer_codec.hpp). A pointer to a polymorphic class may hold an
// object of any class registered as derived from it (bifrons/polymorphic.hpp).
//   - unique_ptr<T>: null or its object; reading reuses the object the pointer holds (a
//     unique_ptr<const T> gets a new one).
//   - shared_ptr<T>: an object that several shared_ptrs own is written once and read back as one
//     object, owned by as many shared_ptrs. Reading always allocates (make_shared): an object
//     being reused may have owners outside the message.
//   - weak_ptr<T>: as the shared_ptr it locks to; expired reads back expired. Its object is
//     written where the message first meets it, also at a weak_ptr. After reading, it is alive
//     if a shared_ptr of the message owns it; otherwise the weak_ptr reads back expired.
// A shared_ptr back to an object that is still being written (a cycle of owners, which leaks)
// is refused: make one link of the cycle a weak_ptr. A shared_ptr made with the aliasing
// constructor is written as the object it points to, as a separate object; if the message also
// holds another shared_ptr to the same address with another owner, writing fails with
// errc::ownership_conflict (C++ cannot ask a shared_ptr what it owns, so a single aliasing
// pointer cannot be told apart from an owning one).

#include <memory>

#include "../detail/codec.hpp"
#include "../detail/pointer_codec.hpp"
#include "../pointers.hpp"

namespace bifrons {

template <class T>
struct codec<std::unique_ptr<T>> {
  static constexpr bool ok = detail::rtti_if_polymorphic<T>;
  static_assert(ok, BIFRONS_RTTI_REFUSAL);
  static_assert(!std::is_polymorphic_v<T> || std::has_virtual_destructor_v<T>,
                "bifrons: unique_ptr<T> of a polymorphic T without a virtual destructor: reading may create an "
                "object of a derived class, which unique_ptr<T> would delete as a T. Declare `virtual ~T()`.");
  static_assert(!std::is_array_v<T>, "bifrons: unique_ptr<T[]> has no size; use std::vector<T>");

  using U = std::remove_cv_t<T>;

  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::unique_ptr<T>& p) {
    if constexpr (ok) return detail::unique_size<U, false>(p.get());
    return 0;
  }
  static std::byte* write(std::byte* out, const std::unique_ptr<T>& p) {
    if constexpr (ok) return detail::unique_write<U>(out, p.get());
    return out;
  }
  BIFRONS_INLINE static void read(detail::source& in, std::unique_ptr<T>& p) {
    if constexpr (ok) detail::unique_read(in, p);
  }
};

template <class T>
struct codec<std::shared_ptr<T>> {
  static constexpr bool ok = detail::rtti_if_polymorphic<T>;
  static_assert(ok, BIFRONS_RTTI_REFUSAL);
  static_assert(!std::is_array_v<T>, "bifrons: shared_ptr<T[]> has no size; use std::vector<T>");
  using U = std::remove_cv_t<T>;

  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::shared_ptr<T>& p) {
    if constexpr (ok) return detail::shared_size<U>(p, false);
    return 0;
  }
  static std::byte* write(std::byte* out, const std::shared_ptr<T>& p) {
    if constexpr (ok) return detail::replayed_write<U>(out, [&] { return p.get(); });
    return out;
  }
  BIFRONS_INLINE static void read(detail::source& in, std::shared_ptr<T>& p) {
    if constexpr (ok) detail::shared_read(in, p, false);
  }
};

template <class T>
struct codec<std::weak_ptr<T>> {
  static constexpr bool ok = detail::rtti_if_polymorphic<T>;
  static_assert(ok, BIFRONS_RTTI_REFUSAL);
  using U = std::remove_cv_t<T>;

  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::weak_ptr<T>& w) {
    if constexpr (ok) return detail::shared_size<U>(w.lock(), true);
    return 0;
  }
  static std::byte* write(std::byte* out, const std::weak_ptr<T>& w) {
    if constexpr (ok) return detail::replayed_write<U>(out, [&] { return w.lock(); });
    return out;
  }
  BIFRONS_INLINE static void read(detail::source& in, std::weak_ptr<T>& w) {
    if constexpr (ok) detail::weak_read(in, w);
  }
};
}  // namespace bifrons
