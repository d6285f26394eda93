// SPDX-License-Identifier: MIT
#pragma once
// std::valarray<T>: as a std::vector<T> (docs/format.md, section 7): varint(count), then the
// elements, arithmetic ones as one little-endian block.

#include <cstddef>
#include <iterator>
#include <limits>
#include <span>
#include <valarray>

#include "../detail/containers.hpp"

namespace bifrons {
template <class T>
struct codec<std::valarray<T>> {
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const std::valarray<T>& v) { return detail::sequence_size(elements(v), v.size()); }
  static std::byte* write(std::byte* out, const std::valarray<T>& v) {
    return detail::write_sequence(out, elements(v), v.size());
  }
  static void read(detail::source& in, std::valarray<T>& v) {
    const std::size_t n = in.read_count(detail::element_min_size<T>(), sizeof(T) + detail::construction_allocation<T>(),
                                        std::numeric_limits<std::ptrdiff_t>::max() / sizeof(T));
    if (in.failed()) return;
    // resize() value-initializes every element: only elements of the same size are reused.
    const std::size_t reused = v.size() == n ? n : 0;
    if (v.size() != n) v.resize(n);
    if (n != 0) detail::read_elements(in, std::begin(v), n, in.fresh ? 0 : reused);
  }

 private:
  // The elements as a span: the sequence functions call std::begin qualified, and only
  // libstdc++ declares std::begin(valarray) before <valarray> (libc++ declares it there, too
  // late for a template defined before it). Here, after <valarray>, the call finds it.
  static std::span<const T> elements(const std::valarray<T>& v) { return {std::begin(v), v.size()}; }
};
}  // namespace bifrons
