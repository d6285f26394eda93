#pragma once
// std::bitset<N>: ceil(N / 8) bytes, bit i in byte i / 8 at bit i % 8; unused high bits zero.

#include <bitset>
#include <cstddef>

#include "../detail/codec.hpp"

namespace bifrons {
template <std::size_t N>
struct codec<std::bitset<N>> {
  static constexpr std::size_t min_size = (N + 7) / 8;
  static constexpr std::size_t size(const std::bitset<N>&) noexcept { return min_size; }
  static std::byte* write(std::byte* out, const std::bitset<N>& b) noexcept {
    for (std::size_t i = 0; i < min_size; ++i) {
      unsigned byte = 0;
      for (std::size_t k = 0; k < 8 && i * 8 + k < N; ++k) byte |= static_cast<unsigned>(b[i * 8 + k]) << k;
      out[i] = static_cast<std::byte>(byte);
    }
    return out + min_size;
  }
  static void read(detail::source& in, std::bitset<N>& b) noexcept {
    const std::byte* p = in.take(min_size);
    if (!p) return;
    if constexpr (N % 8 != 0) {
      if ((static_cast<unsigned>(p[min_size - 1]) >> (N % 8)) != 0) {
        in.rewind(p + min_size - 1);
        return in.fail(errc::invalid_value);
      }
    }
    for (std::size_t i = 0; i < N; ++i) b[i] = ((static_cast<unsigned>(p[i / 8]) >> (i % 8)) & 1u) != 0;
  }
};
}  // namespace bifrons
