// SPDX-License-Identifier: MIT
#pragma once
// Zero-copy views: std::basic_string_view, std::span<const T> of arithmetic T, and
// bifrons::block_view<T>.
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
//
// bifrons::block_view<T> needs none of that: a block of numbers or records read in place from any
// address, on any host, at any record stride (an older or a newer writer's records). Its elements
// are loaded one at a time (a memcpy of one element, and a byte swap on a big-endian host), so
// reading it costs nothing per element where every byte pattern is a value of T: the data need not
// be aligned, and no other type's encoding changes (it is a vector's).

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
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

/// A block of numbers (integers, floating point, chars, bool, std::byte) or of records
/// (bifrons/record.hpp), read in place: an element is loaded from the input when it is used, and
/// returned by value. It writes exactly as std::vector<T> does, so a field may change between a
/// block_view and a vector. Valid while the input bytes it was read from live unchanged, as
/// string_view and span views are; a default-constructed view is empty.
template <class T>
class block_view {
  static_assert(detail::block_element<T> || detail::record<T>,
                "bifrons: block_view<T> holds numbers (integers, floating point, chars, bool, std::byte) or records "
                "(bifrons/record.hpp); read other elements into a std::vector");

  static constexpr bool fixed_stride = detail::block_element<T>;
  struct stride_of_numbers {};

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;

  /// A random-access iterator whose elements are values, not references.
  class iterator {
   public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;  // its reference is a value
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using reference = T;

    iterator() = default;
    T operator*() const noexcept { return block_view::load(base_ + static_cast<std::size_t>(i_) * stride(), stride()); }
    T operator[](difference_type i) const noexcept { return *(*this + i); }
    iterator& operator++() noexcept { return *this += 1; }
    iterator operator++(int) noexcept {
      iterator old = *this;
      ++*this;
      return old;
    }
    iterator& operator--() noexcept { return *this -= 1; }
    iterator operator--(int) noexcept {
      iterator old = *this;
      --*this;
      return old;
    }
    iterator& operator+=(difference_type i) noexcept {
      i_ += i;
      return *this;
    }
    iterator& operator-=(difference_type i) noexcept { return *this += -i; }
    friend iterator operator+(iterator it, difference_type i) noexcept { return it += i; }
    friend iterator operator+(difference_type i, iterator it) noexcept { return it += i; }
    friend iterator operator-(iterator it, difference_type i) noexcept { return it -= i; }
    friend difference_type operator-(const iterator& a, const iterator& b) noexcept { return a.i_ - b.i_; }
    friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.i_ == b.i_; }
    friend std::strong_ordering operator<=>(const iterator& a, const iterator& b) noexcept { return a.i_ <=> b.i_; }

   private:
    friend class block_view;
    // By index, not by address: records of an older writer may have a stride of 0 bytes.
    iterator(const std::byte* base, std::size_t i, [[maybe_unused]] std::size_t stride) noexcept
        : base_(base), i_(static_cast<difference_type>(i)) {
      if constexpr (!fixed_stride) stride_ = stride;
    }
    [[nodiscard]] std::size_t stride() const noexcept {
      if constexpr (fixed_stride)
        return detail::wire_width<T>;
      else
        return stride_;
    }
    const std::byte* base_ = nullptr;
    difference_type i_ = 0;
    // Numbers have a stride known at compile time: a loop over them is then a loop the compiler
    // can vectorize, as one over a span.
    [[no_unique_address]] std::conditional_t<fixed_stride, stride_of_numbers, std::size_t> stride_{};
  };

  block_view() = default;

  [[nodiscard]] size_type size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] T operator[](size_type i) const noexcept { return load(data_ + i * stride(), stride()); }
  [[nodiscard]] T front() const noexcept { return (*this)[0]; }
  [[nodiscard]] T back() const noexcept { return (*this)[size_ - 1]; }
  [[nodiscard]] iterator begin() const noexcept { return {data_, 0, stride()}; }
  [[nodiscard]] iterator end() const noexcept { return {data_, size_, stride()}; }
  /// The elements' bytes as the data holds them: little-endian, stride() bytes each.
  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return {data_, size_ * stride()}; }
  /// Calls f(element) for every element, in order, with the element as a `const T&`: the fastest
  /// way to read them all. A range-for loop tests the data's record stride at every element (a
  /// shorter record than this program's is loaded field by field); for_each tests it once, and
  /// loads records written at this program's own record size (by the same version of the program:
  /// the usual case) at a stride known at compile time, a loop the compiler can vectorize as it
  /// does one over a span. For numbers it is a range-for.
  template <class F>
    requires std::invocable<F&, const T&>
  void for_each(F&& f) const {
    if constexpr (fixed_stride) {
      for (const T e : *this) call(f, e);
    } else {
      if constexpr (detail::record_layout<T>::memory_is_wire) {
        if (stride_ == sizeof(T)) return each_whole_record(f, sizeof(T));  // a constant stride
        if (stride_ > sizeof(T)) return each_whole_record(f, stride_);
      }
      for (size_type i = 0; i < size_; ++i) call(f, load_fields(data_ + i * stride_, stride_));
    }
  }
  /// Bytes per element in the data: a number's wire width, or the writer's record size.
  [[nodiscard]] size_type stride() const noexcept {
    if constexpr (fixed_stride)
      return detail::wire_width<T>;
    else
      return stride_;
  }

 private:
  friend struct codec<block_view>;
  block_view(const std::byte* data, std::size_t size, [[maybe_unused]] std::size_t stride) noexcept
      : data_(data), size_(size) {
    if constexpr (!fixed_stride) stride_ = stride;
  }

  /// The element at p. Reading checked every element whose bytes may not be a value of T.
  BIFRONS_INLINE static T load(const std::byte* p, [[maybe_unused]] std::size_t stride) noexcept {
    if constexpr (detail::block_element<T>) {
      T v{};
      (void)detail::load_element(p, v);
      return v;
    } else {
      // The whole record (a load of a size known at compile time), unless an older writer's
      // records are shorter: out of line, so that a loop of whole records stays small.
      if constexpr (detail::record_layout<T>::memory_is_wire) {
        if (stride >= sizeof(T)) [[likely]]
          return load_whole(p);
        return load_prefix(p, stride);
      } else {
        return load_fields(p, stride);
      }
    }
  }

  /// The fields that lie within the first `stride` bytes at p, the others at their defaults.
  static T load_fields(const std::byte* p, std::size_t stride) noexcept {
    using L = detail::record_layout<T>;
    T v{};
    const std::byte* bad = nullptr;
    (void)L::load(p, stride < L::size ? stride : L::size, v, bad);
    return v;
  }
  BIFRONS_COLD static T load_prefix(const std::byte* p, std::size_t stride) noexcept { return load_fields(p, stride); }

  /// for_each over records whose memory is their wire layout, each at least as long as this
  /// program's, `stride` (> 0) bytes apart. Each is loaded into v rather than returned: a record
  /// returned by value crosses the return as one integer register on x86-64, which clang then
  /// loads whole and vectorizes into more work than the span's loop.
  template <class F>
  BIFRONS_INLINE void each_whole_record(F& f, std::size_t stride) const {
    for (const std::byte *p = data_, *end = data_ + size_ * stride; p != end; p += stride) {
      T v;
      load_whole(p, v);
      call(f, v);
    }
  }

  /// Calls f with a const lvalue: the documented argument, whatever F's own value category.
  template <class F>
  BIFRONS_INLINE static void call(F& f, const T& v) {
    f(v);
  }

  /// A whole record whose memory is its wire layout, at p. Field by field, not one memcpy of the
  /// record: GCC turns a record's memcpy into one wide integer load that it neither vectorizes
  /// nor splits back into fields cheaply, while loads of the fields vectorize as a span's do.
  /// (A field's offset in memory is its offset in the data: that is what memory_is_wire means.)
  BIFRONS_INLINE static void load_whole(const std::byte* p, T& v) noexcept {
    const auto* record = reinterpret_cast<const std::byte*>(&v);
    detail::visit_members<detail::record_layout<T>::count>(v, [&](auto&... field) BIFRONS_INLINE_LAMBDA {
      (std::memcpy(&field, p + (reinterpret_cast<const std::byte*>(&field) - record), sizeof field), ...);
    });
  }
  BIFRONS_INLINE static T load_whole(const std::byte* p) noexcept {
    T v;
    load_whole(p, v);
    return v;
  }

  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  [[no_unique_address]] std::conditional_t<fixed_stride, stride_of_numbers, std::size_t> stride_{};
};

template <class T>
struct codec<block_view<T>> {
  using V = block_view<T>;
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const V& v) { return detail::sequence_size(v, v.size()); }
  static std::byte* write(std::byte* out, const V& v) {
    if constexpr (detail::block_element<T>) {  // the elements' bytes are their encoding
      out = detail::write_varint(out, v.size());
      const std::span<const std::byte> bytes = v.bytes();
      detail::copy_bytes(out, bytes.data(), bytes.size());
      return out + bytes.size();
    } else {
      return detail::write_sequence(out, v, v.size());
    }
  }
  static void read(detail::source& in, V& v) {
    if constexpr (detail::block_element<T>) {
      constexpr std::size_t width = detail::wire_width<T>;
      const std::size_t n = in.read_count(width, 0);
      if (in.failed()) return;
      const std::byte* p = in.take(n * width);
      if (p == nullptr) return;
      if constexpr (!every_pattern_is_a_value) {
        T e{};
        bool ok = true;
        for (std::size_t i = 0; i < n; ++i) ok &= detail::load_element(p + i * width, e);
        if (!ok) [[unlikely]]
          return detail::fail_at_invalid_element<T>(in, p, n);
      }
      v = V(p, n, width);
    } else {
      using L = detail::record_layout<T>;
      const std::byte* start = in.position();
      const detail::record_block block = detail::take_record_block<T>(in, 0, ~std::size_t{0});
      if (in.failed()) return;
      const auto [p, n, stride] = block;
      // Records shorter than this program's (an older writer's; stride 0 has no bytes at all)
      // take more room written again than in the input: that growth is charged to the budget, as
      // a vector of them would be, so that writing the view back stays bounded (and n * L::size
      // cannot wrap). Records at least as long as L::size write back into fewer bytes than they
      // read from, and cost nothing.
      if (stride < L::size && !in.charge(start, n, L::size - stride)) return;
      if constexpr (!L::memory_is_wire) {
        T e{};
        for (std::size_t i = 0; i < n; ++i)
          if (!detail::read_record(in, p + i * stride, stride, e, true)) return;
      }
      v = V(p, n, stride);
    }
  }

 private:
  // Numbers whose every byte pattern loads (not bool, nor a wide long on a 32-bit host).
  static constexpr bool every_pattern_is_a_value = [] {
    if constexpr (detail::block_element<T>)
      return !std::is_same_v<T, bool> && sizeof(T) == detail::wire_width<T>;
    else
      return false;
  }();
};

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
