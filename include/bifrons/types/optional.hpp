// SPDX-License-Identifier: MIT
#pragma once
// std::optional: one byte, 0 (empty) or 1, then the value if there is one. An optional<const T>
// is written as optional<T>; reading replaces its value (a const value cannot be read into).

#include <optional>

#include "../detail/codec.hpp"
#include "../detail/creation.hpp"

namespace bifrons {
template <class T>
struct codec<std::optional<T>> {
  using value_codec = detail::codec_of<T>;
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::optional<T>& o) { return o ? 1 + value_codec::size(*o) : 1; }
  static std::byte* write(std::byte* out, const std::optional<T>& o) {
    *out++ = static_cast<std::byte>(o.has_value());
    return o ? value_codec::write(out, *o) : out;
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
    if constexpr (detail::readable_in_place<T>) {
      if (o) {
        detail::fresh_guard guard(in, in.fresh);
        value_codec::read(in, const_cast<std::remove_const_t<T>&>(*o));
        return;
      }
    }
    detail::emplace_read<T>(in, [&](auto&&... a) -> T& { return o.emplace(std::forward<decltype(a)>(a)...); });
  }
};
}  // namespace bifrons
