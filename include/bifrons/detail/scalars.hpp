// SPDX-License-Identifier: MIT
#pragma once
// Scalars: integers are LEB128 varints (zigzag for signed), floating point is IEEE-754
// little-endian, bool/char/char8_t/std::byte are one byte, enums are their underlying value.
// Also the element rules for contiguous arrays of them (block_element), which containers use.

#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>

#include "codec.hpp"

namespace bifrons {
namespace detail {

template <class T>
concept one_byte_char = std::is_same_v<std::remove_cv_t<T>, char> || std::is_same_v<std::remove_cv_t<T>, char8_t>;

/// Integers that travel as varints: every integral type but bool, char and char8_t
/// (a char is a code unit, not a number, and its signedness differs between platforms).
template <class T>
concept varint_integer = std::is_integral_v<T> && sizeof(T) <= 8 && !std::is_same_v<std::remove_cv_t<T>, bool> &&
                         !one_byte_char<T>;

/// Integers wider than 64 bits (__int128, which GCC and clang count as integral in their GNU
/// modes): format v1 has no encoding for them, and a varint would drop their high bits.
template <class T>
concept wide_integer = std::is_integral_v<T> && (sizeof(T) > 8);

/// wchar_t is 16 bits on Windows and 32 elsewhere, signed on some platforms: it travels as
/// the unsigned 32-bit value of its code unit.
template <class T>
using wire_integer_t = std::conditional_t<std::is_same_v<std::remove_cv_t<T>, wchar_t>, std::uint32_t, T>;

/// The raw varint an integer travels as: its wire type's value, zigzagged if that type is signed.
template <class T>
BIFRONS_INLINE constexpr std::uint64_t varint_raw(T v) noexcept {
  using W = wire_integer_t<T>;
  if constexpr (std::is_signed_v<W>)
    return zigzag(static_cast<std::int64_t>(v));
  else
    return static_cast<std::uint64_t>(static_cast<W>(v));
}

template <class T>
BIFRONS_INLINE std::size_t varint_integer_size(T v) noexcept {
  return varint_data_size(varint_raw(v));
}

/// True when the integer value v (read from the wire as W) fits T. (std::in_range refuses the
/// character types, which need the same check.)
template <class T, class W>
constexpr bool fits(W v) noexcept {
  using V = std::conditional_t<std::is_same_v<std::remove_cv_t<T>, wchar_t>, std::make_unsigned_t<wchar_t>,
                               std::remove_cv_t<T>>;
  using limits = std::numeric_limits<V>;
  if constexpr (std::is_signed_v<W>) {
    if (v < 0) return std::is_signed_v<V> && static_cast<std::int64_t>(v) >= static_cast<std::int64_t>(limits::min());
  }
  return static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(limits::max());
}

/// The largest varint (after zigzag, for signed types) whose value fits T: one comparison on
/// the raw varint replaces the range check on the value, which branched on its sign. Zigzag maps
/// the N-bit signed range onto [0, 2^N - 1].
template <class T>
inline constexpr std::uint64_t max_raw_varint = [] {
  using W = wire_integer_t<T>;
  // Two branches, not a conditional expression: clang (19) warns of the shift by 64 for 64-bit
  // types even where the condition rules it out.
  if constexpr (std::is_signed_v<W> && sizeof(T) >= 8)
    return ~std::uint64_t{0};
  else if constexpr (std::is_signed_v<W>)
    return (std::uint64_t{1} << (8 * sizeof(T))) - 1;
  else if constexpr (std::is_same_v<std::remove_cv_t<T>, wchar_t>)
    return static_cast<std::uint64_t>(std::numeric_limits<std::make_unsigned_t<wchar_t>>::max());
  else
    return static_cast<std::uint64_t>(std::numeric_limits<T>::max());
}();

/// Whether T's varints can take 9 or 10 bytes (64-bit integers): those are written and read by
/// the wide paths (write_wide_varint, long_varint); other integers keep the smaller code.
template <class T>
inline constexpr bool wide_varint = (max_raw_varint<T> >> 56) != 0;

template <class T>
BIFRONS_INLINE std::byte* write_varint_integer(std::byte* out, T v) noexcept {
  if constexpr (wide_varint<T>)
    return write_wide_varint(out, varint_raw(v));
  else
    return write_varint(out, varint_raw(v));
}

/// The value of T that the raw varint v (at most max_raw_varint<T>) stands for.
template <class T>
BIFRONS_INLINE constexpr T varint_value(std::uint64_t v) noexcept {
  if constexpr (std::is_signed_v<wire_integer_t<T>>)
    return static_cast<T>(unzigzag(v));
  else
    return static_cast<T>(v);
}

/// The value of a one-byte varint b (below 0x80): it fits every integer type, so no 64-bit
/// unzigzag and no range check.
template <class T>
BIFRONS_INLINE constexpr T small_varint_value(std::uint8_t b) noexcept {
  if constexpr (std::is_signed_v<wire_integer_t<T>>)
    return static_cast<T>(static_cast<int>(b >> 1) ^ -static_cast<int>(b & 1));
  else
    return static_cast<T>(b);
}

template <class T>
BIFRONS_INLINE void read_varint_integer(source& in, T& v) noexcept {
  // A one-byte varint (0..127, or -64..63 after zigzag) fits every integer type, so the common
  // case skips the 64-bit unzigzag and the range check.
  if (std::uint8_t b; in.read_small_varint(b)) [[likely]] {
    v = small_varint_value<T>(b);
    return;
  }
  const std::byte* start = in.position();
  const std::uint64_t raw = in.template read_varint<wide_varint<T>>();
  if (raw > max_raw_varint<T>) [[unlikely]] {
    in.fail_at(errc::value_out_of_range, start);
    return;
  }
  v = varint_value<T>(raw);
}

// ---- contiguous arrays of arithmetic types ----------------------------------------------------

/// Element types that a contiguous array stores as one raw little-endian block.
template <class T>
concept block_element =
    (std::is_arithmetic_v<T> && !std::is_same_v<std::remove_cv_t<T>, long double> && !wide_integer<T>) ||
    std::is_same_v<std::remove_cv_t<T>, std::byte>;

/// Width of one element on the wire. Platform-width types travel at their widest width so that
/// 32- and 64-bit hosts write the same bytes: long and unsigned long as 8 bytes, wchar_t as 4.
template <block_element T>
inline constexpr std::size_t wire_width =
    std::is_same_v<std::remove_cv_t<T>, long> || std::is_same_v<std::remove_cv_t<T>, unsigned long> ? 8
    : std::is_same_v<std::remove_cv_t<T>, wchar_t>                                                  ? 4
                                                                                                    : sizeof(T);

/// The block can be copied with memcpy in both directions: same width, little-endian host (or
/// one-byte elements, which have no byte order), and every byte pattern is a valid value (not
/// true of bool).
template <block_element T>
inline constexpr bool block_is_memcpy = (host_is_little_endian || sizeof(T) == 1) && wire_width<T> == sizeof(T) &&
                                        !std::is_same_v<std::remove_cv_t<T>, bool>;

template <block_element T>
BIFRONS_INLINE std::byte* store_element(std::byte* out, T v) noexcept {
  using U = uint_of_size_t<wire_width<T>>;
  if constexpr (std::is_floating_point_v<T>)
    return store_le(out, std::bit_cast<U>(v));
  else if constexpr (std::is_same_v<T, std::byte> || std::is_same_v<T, bool>)
    return store_le(out, static_cast<U>(v));
  else if constexpr (std::is_signed_v<T>)
    return store_le(out, static_cast<U>(static_cast<std::make_signed_t<U>>(v)));
  else
    return store_le(out, static_cast<U>(v));
}

/// Loads one element; false if the value does not fit T (a wide long on a 32-bit host, a bool
/// byte other than 0 or 1).
template <block_element T>
BIFRONS_INLINE bool load_element(const std::byte* in, T& v) noexcept {
  using U = uint_of_size_t<wire_width<T>>;
  const U raw = load_le<U>(in);
  if constexpr (std::is_floating_point_v<T>) {
    v = std::bit_cast<T>(raw);
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    v = raw != 0;
    return raw <= 1;
  } else if constexpr (std::is_same_v<T, std::byte>) {
    v = static_cast<std::byte>(raw);
    return true;
  } else if constexpr (std::is_signed_v<T> && !std::is_same_v<T, wchar_t>) {
    const auto value = static_cast<std::make_signed_t<U>>(raw);
    if (!fits<T>(value)) return false;
    v = static_cast<T>(value);
    return true;
  } else {
    if (!fits<T>(raw)) return false;
    v = static_cast<T>(raw);
    return true;
  }
}

/// Width of one element of a block read by block_iterator: a block element's wire width, or the
/// size of a type read as the image of its memory (a record whose memory is its wire layout).
template <class T>
inline constexpr std::size_t block_stride = [] {
  if constexpr (block_element<T>)
    return wire_width<T>;
  else
    return sizeof(T);
}();

/// Reads elements of T out of a raw little-endian block through memcpy, so that a vector can be
/// filled with assign() in one pass: resize() would zero the storage first, a second pass over
/// large arrays. T is a block element, or a trivially copyable type whose wire bytes are its
/// memory (records with record_layout<T>::memory_is_wire), which is copied whole.
template <class T>
  requires std::is_trivially_copyable_v<T>
class block_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = T;

  block_iterator() = default;
  explicit block_iterator(const std::byte* p) noexcept : p_(p) {}

  BIFRONS_INLINE T operator*() const noexcept {
    T v;
    if constexpr (block_element<T>)
      load_element(p_, v);
    else
      std::memcpy(&v, p_, sizeof v);
    return v;
  }
  T operator[](difference_type i) const noexcept { return *(*this + i); }
  block_iterator& operator++() noexcept {
    p_ += block_stride<T>;
    return *this;
  }
  block_iterator operator++(int) noexcept {
    block_iterator old = *this;
    ++*this;
    return old;
  }
  block_iterator& operator--() noexcept {
    p_ -= block_stride<T>;
    return *this;
  }
  block_iterator operator--(int) noexcept {
    block_iterator old = *this;
    --*this;
    return old;
  }
  block_iterator& operator+=(difference_type n) noexcept {
    p_ += n * static_cast<difference_type>(block_stride<T>);
    return *this;
  }
  block_iterator& operator-=(difference_type n) noexcept { return *this += -n; }
  friend block_iterator operator+(block_iterator it, difference_type n) noexcept { return it += n; }
  friend block_iterator operator+(difference_type n, block_iterator it) noexcept { return it += n; }
  friend block_iterator operator-(block_iterator it, difference_type n) noexcept { return it -= n; }
  friend difference_type operator-(block_iterator a, block_iterator b) noexcept {
    return (a.p_ - b.p_) / static_cast<difference_type>(block_stride<T>);
  }
  friend bool operator==(block_iterator a, block_iterator b) noexcept { return a.p_ == b.p_; }
  friend auto operator<=>(block_iterator a, block_iterator b) noexcept { return a.p_ <=> b.p_; }

 private:
  const std::byte* p_ = nullptr;
};

/// Writes n elements as one block.
template <block_element T>
inline std::byte* write_block(std::byte* out, const T* data, std::size_t n) noexcept {
  if constexpr (block_is_memcpy<T>) {
    copy_bytes(out, data, n * sizeof(T));
    return out + n * sizeof(T);
  } else {
    for (std::size_t i = 0; i < n; ++i) out = store_element(out, data[i]);
    return out;
  }
}

/// Reads n elements from a block already taken from the input; false on an invalid element.
template <block_element T>
inline bool read_block(const std::byte* in, T* data, std::size_t n) noexcept {
  if constexpr (block_is_memcpy<T>) {
    copy_bytes(data, in, n * sizeof(T));
    return true;
  } else {
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) ok &= load_element(in + i * wire_width<T>, data[i]);
    return ok;
  }
}

}  // namespace detail

// ---- scalar codecs ---------------------------------------------------------------------------

template <detail::varint_integer T>
struct codec<T> {
  static constexpr std::size_t min_size = 1;
  // Zigzag keeps the width, so a varint of an N-bit value takes at most ceil(N / 7) bytes.
  static constexpr std::size_t max_size = (sizeof(detail::wire_integer_t<T>) * 8 + 6) / 7;
  BIFRONS_INLINE static std::size_t size(T v) noexcept { return detail::varint_integer_size(v); }
  BIFRONS_INLINE static std::byte* write(std::byte* out, T v) noexcept { return detail::write_varint_integer(out, v); }
  BIFRONS_INLINE static void read(detail::source& in, T& v) noexcept { detail::read_varint_integer(in, v); }
};

template <class T>
  requires std::is_floating_point_v<T> && (!std::is_same_v<T, long double>)
struct codec<T> {
  static constexpr std::size_t min_size = sizeof(T);
  static constexpr std::size_t fixed_width = sizeof(T);
  static constexpr std::size_t max_size = sizeof(T);
  BIFRONS_INLINE static constexpr std::size_t size(T) noexcept { return sizeof(T); }
  BIFRONS_INLINE static std::byte* write(std::byte* out, T v) noexcept { return detail::store_element(out, v); }
  BIFRONS_INLINE static void read(detail::source& in, T& v) noexcept {
    if (const std::byte* p = in.take(sizeof(T))) read_fixed(in, p, v);
  }
  BIFRONS_INLINE static void read_fixed(detail::source&, const std::byte* p, T& v) noexcept {
    detail::load_element(p, v);
  }
};

/// bool, char, char8_t and std::byte: one byte as it is (bool must be 0 or 1).
template <class T>
  requires detail::one_byte_char<T> || std::is_same_v<T, bool> || std::is_same_v<T, std::byte>
struct codec<T> {
  static constexpr std::size_t min_size = 1;
  static constexpr std::size_t fixed_width = 1;
  static constexpr std::size_t max_size = 1;
  BIFRONS_INLINE static constexpr std::size_t size(T) noexcept { return 1; }
  BIFRONS_INLINE static std::byte* write(std::byte* out, T v) noexcept { return detail::store_element(out, v); }
  BIFRONS_INLINE static void read(detail::source& in, T& v) noexcept {
    if (const std::byte* p = in.take(1)) read_fixed(in, p, v);
  }
  BIFRONS_INLINE static void read_fixed(detail::source& in, const std::byte* p, T& v) noexcept {
    if (!detail::load_element(p, v)) [[unlikely]] {
      in.fail_at(errc::invalid_value, p);
    }
  }
};

namespace detail {
/// Enums with a fixed underlying type: every scoped enum, and unscoped ones declared with
/// `: type`. (Only these can be list-initialized from their underlying type.)
template <class T>
concept fixed_underlying_enum = std::is_enum_v<T> && requires { T{std::underlying_type_t<T>{}}; };

}  // namespace detail

/// Enums travel as their underlying value.
template <class T>
  requires std::is_enum_v<T> && (!std::is_same_v<T, std::byte>)
struct codec<T> {
  static_assert(detail::fixed_underlying_enum<T>,
                "bifrons: an unscoped enum without a fixed underlying type holds only the values of its "
                "enumerators' bit range, so loading any other value would be undefined behaviour (and its "
                "underlying type differs between compilers); declare one: `enum E : std::uint32_t { ... }` "
                "keeps the bytes GCC and clang write when no enumerator is negative, `: std::int32_t` "
                "when one is");
  using underlying = std::underlying_type_t<T>;
  static constexpr std::size_t min_size = codec<underlying>::min_size;
  static constexpr std::size_t max_size = codec<underlying>::max_size;
  BIFRONS_INLINE static std::size_t size(T v) noexcept { return codec<underlying>::size(static_cast<underlying>(v)); }
  BIFRONS_INLINE static std::byte* write(std::byte* out, T v) noexcept {
    return codec<underlying>::write(out, static_cast<underlying>(v));
  }
  BIFRONS_INLINE static void read(detail::source& in, T& v) noexcept {
    underlying u{};
    codec<underlying>::read(in, u);
    v = static_cast<T>(u);
  }
};

}  // namespace bifrons
