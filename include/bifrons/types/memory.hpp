// SPDX-License-Identifier: MIT
#pragma once
// std::unique_ptr<T> to a non-polymorphic T: the pointer encoding of docs/format.md restricted
// to its first two tags: varint 0 (null) or varint 1 followed by the value.
// Shared identity (shared_ptr, weak_ptr, raw observers) and polymorphic pointers use the other
// tags of the same encoding and come with the pointer support.

#include <memory>

#include "../detail/codec.hpp"

namespace bifrons {
namespace detail {
enum class pointer_tag : std::uint8_t { null = 0, value = 1, polymorphic = 2, first_back_reference = 3 };
}  // namespace detail

template <class T>
struct codec<std::unique_ptr<T>> {
  static_assert(!std::is_polymorphic_v<T>,
                "bifrons: unique_ptr to a polymorphic type is not supported yet: it would slice the object");
  static_assert(!std::is_array_v<T>, "bifrons: unique_ptr<T[]> has no size; use std::vector<T>");

  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::unique_ptr<T>& p) { return p ? 1 + codec<T>::size(*p) : 1; }
  static std::byte* write(std::byte* out, const std::unique_ptr<T>& p) {
    if (!p) return detail::write_varint(out, static_cast<std::uint64_t>(detail::pointer_tag::null));
    out = detail::write_varint(out, static_cast<std::uint64_t>(detail::pointer_tag::value));
    return codec<T>::write(out, *p);
  }
  static void read(detail::source& in, std::unique_ptr<T>& p) {
    const std::byte* at = in.position();
    const std::uint64_t tag = in.read_varint();
    if (in.failed()) return;
    if (tag == static_cast<std::uint64_t>(detail::pointer_tag::null)) {
      p.reset();
      return;
    }
    if (tag != static_cast<std::uint64_t>(detail::pointer_tag::value)) {
      return in.fail_at(errc::invalid_value, at);
    }
    const bool created = !p;
    if (created) {
      if (!in.charge(at, 1, sizeof(T))) return;
      p = std::make_unique<T>();
    }
    detail::fresh_guard guard(in, created || in.fresh);
    codec<T>::read(in, *p);
  }
};

template <class T>
struct codec<std::shared_ptr<T>> {
  static_assert(detail::always_false<T>,
                "bifrons: shared_ptr is not supported yet (shared identity is specified in docs/format.md "
                "but not implemented); use std::unique_ptr or a value");
};

template <class T>
struct codec<std::weak_ptr<T>> {
  static_assert(detail::always_false<T>, "bifrons: weak_ptr is not supported yet");
};
}  // namespace bifrons
