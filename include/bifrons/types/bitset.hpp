// SPDX-License-Identifier: MIT
#pragma once
// std::bitset<N>: ceil(N / 8) bytes, bit i in byte i / 8 at bit i % 8; unused high bits zero.

#include <bitset>
#include <cstddef>

#include "../detail/codec.hpp"

namespace bifrons {
template <std::size_t N>
struct codec<std::bitset<N>> {
  static constexpr std::size_t min_size = detail::packed_size(N);
  static constexpr std::size_t size(const std::bitset<N>&) noexcept { return min_size; }
  static std::byte* write(std::byte* out, const std::bitset<N>& b) noexcept {
    return detail::pack_bits(out, N, [&](std::size_t i) { return b[i]; });
  }
  static void read(detail::source& in, std::bitset<N>& b) noexcept {
    const std::byte* p = in.take(min_size);
    if (!p) return;
    if (!detail::padding_is_zero(p, N)) return in.fail_at(errc::invalid_value, p + min_size - 1);
    for (std::size_t i = 0; i < N; ++i) b[i] = detail::packed_bit(p, i);
  }
};
}  // namespace bifrons
