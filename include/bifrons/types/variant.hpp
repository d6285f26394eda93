// SPDX-License-Identifier: MIT
#pragma once
// std::variant: varint(index), then the alternative. std::monostate takes no bytes.
// A valueless variant is written with index = number of alternatives, which readers refuse.

#include <array>
#include <cstddef>
#include <utility>
#include <variant>

#include "../detail/codec.hpp"
#include "../detail/creation.hpp"

namespace bifrons {
template <>
struct codec<std::monostate> {
  static constexpr std::size_t min_size = 0;
  static constexpr std::size_t size(const std::monostate&) noexcept { return 0; }
  static std::byte* write(std::byte* out, const std::monostate&) noexcept { return out; }
  static void read(detail::source&, std::monostate&) noexcept {}
};

template <class... Ts>
struct codec<std::variant<Ts...>> {
  using V = std::variant<Ts...>;
  static constexpr std::size_t min_size = 1;

  static std::size_t size(const V& v) {
    if (v.valueless_by_exception()) return detail::varint_size(sizeof...(Ts));
    return detail::varint_size(v.index()) +
           std::visit([](const auto& alt) { return detail::codec_of<decltype(alt)>::size(alt); }, v);
  }
  static std::byte* write(std::byte* out, const V& v) {
    if (v.valueless_by_exception()) return detail::write_varint(out, sizeof...(Ts));
    out = detail::write_varint(out, v.index());
    return std::visit([&](const auto& alt) { return detail::codec_of<decltype(alt)>::write(out, alt); }, v);
  }
  static void read(detail::source& in, V& v) {
    const std::byte* at = in.position();
    const std::uint64_t index = in.read_varint();
    if (in.failed()) return;
    if (index >= sizeof...(Ts)) {
      return in.fail_at(errc::invalid_value, at);
    }
    readers[static_cast<std::size_t>(index)](in, v);  // below sizeof...(Ts): fits
  }

 private:
  template <std::size_t I>
  static void read_alternative(detail::source& in, V& v) {
    using T = std::variant_alternative_t<I, V>;
    if constexpr (detail::readable_in_place<T>) {
      if (v.index() == I) {
        detail::fresh_guard guard(in, in.fresh);
        codec<T>::read(in, std::get<I>(v));
        return;
      }
    }
    detail::emplace_read<T>(in,
                            [&](auto&&... a) -> T& { return v.template emplace<I>(std::forward<decltype(a)>(a)...); });
  }
  static constexpr auto readers = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<void (*)(detail::source&, V&), sizeof...(Ts)>{&read_alternative<I>...};
  }(std::index_sequence_for<Ts...>{});
};
}  // namespace bifrons
