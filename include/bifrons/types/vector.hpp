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
    return detail::varint_size(v.size()) + (v.size() + 7) / 8;
  }
  static std::byte* write(std::byte* out, const std::vector<bool, Alloc>& v) {
    out = detail::write_varint(out, v.size());
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; i += 8) {
      unsigned byte = 0;
      for (std::size_t b = 0; b < 8 && i + b < n; ++b) byte |= static_cast<unsigned>(v[i + b]) << b;
      *out++ = static_cast<std::byte>(byte);
    }
    return out;
  }
  static void read(detail::source& in, std::vector<bool, Alloc>& v) {
    const std::byte* at = in.position();
    const std::size_t n = in.read_count(0, 0, v.max_size());
    if (in.failed()) return;
    // A byte holds eight elements: check the bytes, then charge the packed storage. Like every
    // other count error, these are reported at the count.
    const std::size_t bytes = n / 8 + (n % 8 != 0);
    if (bytes > in.remaining()) {
      in.rewind(at);
      return in.fail(errc::count_exceeds_input);
    }
    if (!in.charge(at, bytes, 1)) return;
    const std::byte* p = in.take(bytes);
    if (!p) return;
    if (n % 8 != 0 && (static_cast<unsigned>(p[bytes - 1]) >> (n % 8)) != 0) {
      in.rewind(p + bytes - 1);
      return in.fail(errc::invalid_value);  // padding bits must be zero: one encoding per value
    }
    v.assign(n, false);
    for (std::size_t i = 0; i < n; ++i) v[i] = ((static_cast<unsigned>(p[i / 8]) >> (i % 8)) & 1u) != 0;
  }
};
}  // namespace bifrons
