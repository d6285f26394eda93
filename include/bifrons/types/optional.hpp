// SPDX-License-Identifier: MIT
#pragma once
// std::optional: one byte, 0 (empty) or 1, then the value if there is one.

#include <optional>

#include "../detail/codec.hpp"

namespace bifrons {
template <class T>
struct codec<std::optional<T>> {
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::optional<T>& o) { return o ? 1 + codec<T>::size(*o) : 1; }
  static std::byte* write(std::byte* out, const std::optional<T>& o) {
    *out++ = static_cast<std::byte>(o.has_value());
    return o ? codec<T>::write(out, *o) : out;
  }
  static void read(detail::source& in, std::optional<T>& o) {
    const std::byte* at = in.position();
    const std::uint8_t tag = in.read_byte();
    if (tag == 0) {
      o.reset();
      return;
    }
    if (tag != 1) {
      return in.fail_at(errc::invalid_value, at);
    }
    const bool created = !o;
    if (created) o.emplace();
    detail::fresh_guard guard(in, created || in.fresh);
    codec<T>::read(in, *o);
  }
};
}  // namespace bifrons
