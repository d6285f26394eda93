// SPDX-License-Identifier: MIT
#pragma once
// Zero-copy views: std::basic_string_view and std::span<const T> of arithmetic T.
// They write exactly like std::basic_string and std::vector (so a field may change between a
// view and an owning container), and read as views into the input.
//
// Lifetime: a view read by from_bytes/reader points into the caller's input bytes (or into the
// reader's own buffer for an istream reader) and is valid only while those bytes live unchanged.
//
// A view of multi-byte elements needs the input block to be aligned for T and the host to be
// little-endian; otherwise reading fails with errc::misaligned_view (read into a vector instead).
// A span<const R> of records (bifrons/record.hpp) is a view when R's memory layout is its wire
// layout, the data's stride is R's own size and the block is aligned; otherwise it fails the
// same way.

#include <cstdint>
#include <span>
#include <string_view>

#include "../detail/containers.hpp"

namespace bifrons {
namespace detail {
template <class T>
const T* view_of(source& in, std::size_t n) {
  const std::byte* p = in.take(n * wire_width<T>);
  if (!p) return nullptr;
  if constexpr (!block_is_memcpy<T>) {
    in.fail_at(errc::misaligned_view, p);
    return nullptr;
  } else {
    if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) != 0) {
      in.fail_at(errc::misaligned_view, p);
      return nullptr;
    }
    // The bytes hold valid objects of T: block_is_memcpy means every pattern is a value.
    return reinterpret_cast<const T*>(p);
  }
}
}  // namespace detail

template <class CharT, class Traits>
struct codec<std::basic_string_view<CharT, Traits>> {
  using V = std::basic_string_view<CharT, Traits>;
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const V& v) { return detail::varint_size(v.size()) + v.size() * detail::wire_width<CharT>; }
  static std::byte* write(std::byte* out, const V& v) {
    return detail::write_block(detail::write_varint(out, v.size()), v.data(), v.size());
  }
  static void read(detail::source& in, V& v) {
    const std::size_t n = in.read_count(detail::wire_width<CharT>, 0);
    if (in.failed()) return;
    if (n == 0) {
      v = V();
      return;
    }
    if (const CharT* p = detail::view_of<CharT>(in, n)) v = V(p, n);
  }
};

template <class T, std::size_t Extent>
struct codec<std::span<T, Extent>> {
  using S = std::span<T, Extent>;
  using E = std::remove_cv_t<T>;
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const S& s) { return detail::sequence_size(s, s.size()); }
  static std::byte* write(std::byte* out, const S& s) { return detail::write_sequence(out, s, s.size()); }
  static constexpr bool readable = std::is_const_v<T> && (detail::block_element<E> || detail::record<E>) &&
                                   Extent == std::dynamic_extent;
  static void read(detail::source& in, S& s) {
    static_assert(readable,
                  "bifrons: only std::span<const T> of arithmetic T or of records can be read (as a view into "
                  "the input)");
    if constexpr (!readable) {
      // refused above
    } else if constexpr (detail::record<E>) {
      read_records(in, s);
    } else {
      const std::size_t n = in.read_count(detail::wire_width<E>, 0);
      if (in.failed()) return;
      if (n == 0) {
        s = S();
        return;
      }
      if (const E* p = detail::view_of<E>(in, n)) s = S(p, n);
    }
  }

 private:
  /// A view of a block of records: the records must be in the reader's own layout, in memory
  /// order (record_layout::memory_is_wire), at the reader's own stride, and aligned.
  static void read_records(detail::source& in, S& s) {
    using L = detail::record_layout<E>;
    const detail::record_block block = detail::take_record_block<E>(in, 0, ~std::size_t{0});
    if (in.failed()) return;
    const auto [p, n, stride] = block;
    if (n == 0) {
      s = S();
      return;
    }
    if (!L::memory_is_wire || stride != L::size || reinterpret_cast<std::uintptr_t>(p) % alignof(E) != 0)
      return in.fail_at(errc::misaligned_view, p);
    // Every byte pattern is a value of E (memory_is_wire), so the bytes hold valid records.
    s = S(reinterpret_cast<const E*>(p), n);
  }
};
}  // namespace bifrons
