// SPDX-License-Identifier: MIT
#pragma once
// std::complex<T>: the real part, then the imaginary part.

#include <complex>

#include "../detail/codec.hpp"

namespace bifrons {
template <class T>
struct codec<std::complex<T>> {
  static constexpr std::size_t min_size = 2 * codec<T>::min_size;
  static std::size_t size(const std::complex<T>& c) { return codec<T>::size(c.real()) + codec<T>::size(c.imag()); }
  static std::byte* write(std::byte* out, const std::complex<T>& c) {
    return codec<T>::write(codec<T>::write(out, c.real()), c.imag());
  }
  static void read(detail::source& in, std::complex<T>& c) {
    T re{}, im{};
    codec<T>::read(in, re);
    codec<T>::read(in, im);
    c = std::complex<T>(re, im);
  }
};
}  // namespace bifrons
