// SPDX-License-Identifier: MIT
#pragma once
// std::vector: see detail/containers.hpp. vector<bool> is varint(count), then the bits packed
// eight to a byte, least significant bit first, unused high bits zero.

#include <vector>

#include "../detail/containers.hpp"

namespace bifrons {
template <class T, class Alloc>
struct codec<std::vector<T, Alloc>> : detail::sequence_codec<std::vector<T, Alloc>> {};

template <class Alloc>
struct codec<std::vector<bool, Alloc>> {
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::vector<bool, Alloc>& v) noexcept {
    return detail::varint_size(v.size()) + detail::packed_size(v.size());
  }
  static std::byte* write(std::byte* out, const std::vector<bool, Alloc>& v) {
    out = detail::write_varint(out, v.size());
    return detail::pack_bits(out, v.size(), [&](std::size_t i) { return v[i]; });
  }
  static void read(detail::source& in, std::vector<bool, Alloc>& v) {
    const std::byte* at = in.position();
    const std::size_t n = in.read_count(0, 0, v.max_size());
    if (in.failed()) return;
    // A byte holds eight elements: check the bytes, then charge the packed storage. Like every
    // other count error, these are reported at the count.
    const std::size_t bytes = detail::packed_size(n);
    if (bytes > in.remaining()) return in.fail_missing(errc::count_exceeds_input, at, bytes - in.remaining());
    if (!in.charge(at, bytes, 1)) return;
    const std::byte* p = in.skip(bytes);
    if (!detail::padding_is_zero(p, n)) return in.fail_at(errc::invalid_value, p + bytes - 1);
    v.assign(n, false);
    for (std::size_t i = 0; i < n; ++i) v[i] = detail::packed_bit(p, i);
  }
};
}  // namespace bifrons
