// SPDX-License-Identifier: MIT
#pragma once
// Encoding primitives: LEB128 varints, zigzag, little-endian fixed-width values.
// Everything here works on raw pointers; bounds are the caller's business.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"

namespace bifrons::detail {

// Byte swaps for big-endian hosts: the builtins where GCC and clang have them, else the shifts
// (which other optimizing compilers also turn into one instruction).
constexpr std::uint8_t byteswap(std::uint8_t v) noexcept { return v; }
#if BIFRONS_HAS_BUILTINS
constexpr std::uint16_t byteswap(std::uint16_t v) noexcept { return __builtin_bswap16(v); }
constexpr std::uint32_t byteswap(std::uint32_t v) noexcept { return __builtin_bswap32(v); }
constexpr std::uint64_t byteswap(std::uint64_t v) noexcept { return __builtin_bswap64(v); }
#else
constexpr std::uint16_t byteswap(std::uint16_t v) noexcept { return static_cast<std::uint16_t>((v << 8) | (v >> 8)); }
constexpr std::uint32_t byteswap(std::uint32_t v) noexcept {
  return ((v & 0x000000ffu) << 24) | ((v & 0x0000ff00u) << 8) | ((v & 0x00ff0000u) >> 8) | (v >> 24);
}
constexpr std::uint64_t byteswap(std::uint64_t v) noexcept {
  return (static_cast<std::uint64_t>(byteswap(static_cast<std::uint32_t>(v))) << 32) |
         byteswap(static_cast<std::uint32_t>(v >> 32));
}
#endif

template <std::size_t N>
struct uint_of_size;
template <> struct uint_of_size<1> {
  using type = std::uint8_t;
};
template <> struct uint_of_size<2> {
  using type = std::uint16_t;
};
template <> struct uint_of_size<4> {
  using type = std::uint32_t;
};
template <> struct uint_of_size<8> {
  using type = std::uint64_t;
};
template <std::size_t N>
using uint_of_size_t = typename uint_of_size<N>::type;

/// Stores the object representation of v (an unsigned integer of 1-8 bytes) little-endian.
template <class U>
BIFRONS_INLINE std::byte* store_le(std::byte* p, U v) noexcept {
  static_assert(std::is_unsigned_v<U>);
  if constexpr (!host_is_little_endian) v = byteswap(v);
  std::memcpy(p, &v, sizeof v);
  return p + sizeof v;
}

template <class U>
BIFRONS_INLINE U load_le(const std::byte* p) noexcept {
  static_assert(std::is_unsigned_v<U>);
  U v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (!host_is_little_endian) v = byteswap(v);
  return v;
}

/// memcpy for lengths known only at run time that are usually short (names, small vectors): up
/// to 16 bytes take two overlapping loads and stores, cheaper than a call to the library memcpy
/// for such lengths. Longer copies go to memcpy.
/// (Lengths known at compile time should call memcpy directly, which the compiler inlines.)
BIFRONS_INLINE void copy_bytes(void* dst, const void* src, std::size_t n) noexcept {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (n > 16) {
    std::memcpy(d, s, n);
  } else if (n >= 8) {
    std::uint64_t head, tail;
    std::memcpy(&head, s, 8);
    std::memcpy(&tail, s + n - 8, 8);
    std::memcpy(d, &head, 8);
    std::memcpy(d + n - 8, &tail, 8);
  } else if (n >= 4) {
    std::uint32_t head, tail;
    std::memcpy(&head, s, 4);
    std::memcpy(&tail, s + n - 4, 4);
    std::memcpy(d, &head, 4);
    std::memcpy(d + n - 4, &tail, 4);
  } else if (n != 0) {
    // 1 to 3 bytes: first, middle and last cover them all.
    const unsigned char first = s[0], middle = s[n / 2], last = s[n - 1];
    d[0] = first;
    d[n / 2] = middle;
    d[n - 1] = last;
  }
}

inline constexpr std::size_t max_varint_size = 10;

/// Bytes the LEB128 encoding of v takes: 1 + floor(bit_width(v) - 1) / 7, and 1 for zero.
/// Without a branch, for the values of integer fields: data often mixes one- and two-byte values
/// at random, and a mispredicted branch per field cost a size pass over 4,096 IntegerClass
/// records four times its time (docs/design.md).
BIFRONS_INLINE constexpr std::size_t varint_data_size(std::uint64_t v) noexcept {
  // (bit_width * 9 + 64) / 64 is ceil(bit_width / 7) for widths 1..64 without a division.
  const unsigned bits = static_cast<unsigned>(std::bit_width(v | 1));
  return (bits * 9 + 64) / 64;
}
/// varint_size with a shortcut for one byte, for headers, counts and tags, nearly all of which
/// take one byte.
BIFRONS_INLINE constexpr std::size_t varint_size(std::uint64_t v) noexcept {
  if (v < 0x80) return 1;
  return varint_data_size(v);
}

/// The low 56 bits of v as eight 7-bit groups, one in each byte, lowest first: the first eight
/// bytes of its varint, without their continuation bits.
BIFRONS_INLINE constexpr std::uint64_t spread_groups(std::uint64_t v) noexcept {
  std::uint64_t x = v & 0x00ffffffffffffffu;
  x = ((x & 0x00fffffff0000000u) << 4) | (x & 0x000000000fffffffu);
  x = ((x & 0x0fffc0000fffc000u) << 2) | (x & 0x00003fff00003fffu);
  return ((x & 0x3f803f803f803f80u) << 1) | (x & 0x007f007f007f007fu);
}
/// spread_groups' inverse: eight bytes' 7-bit groups (their top bits ignored) packed into 56 bits.
BIFRONS_INLINE constexpr std::uint64_t pack_groups(std::uint64_t x) noexcept {
  x &= 0x7f7f7f7f7f7f7f7fu;
  x = ((x & 0x7f007f007f007f00u) >> 1) | (x & 0x007f007f007f007fu);
  x = ((x & 0x3fff00003fff0000u) >> 2) | (x & 0x00003fff00003fffu);
  return ((x & 0x0fffffff00000000u) >> 4) | (x & 0x000000000fffffffu);
}

BIFRONS_INLINE std::byte* write_varint(std::byte* p, std::uint64_t v) noexcept {
  if (v < 0x80) [[likely]] {
    *p = static_cast<std::byte>(v);
    return p + 1;
  }
  while (v >= 0x80) {
    *p++ = static_cast<std::byte>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::byte>(v);
  return p;
}

/// write_varint for the values of 64-bit integer fields, which often take 9 or 10 bytes (random
/// ids and hashes: half of them 10): the first eight bytes in one store, where the byte loop takes
/// about four instructions a byte. Other varints (counts, headers, 32-bit fields) keep the smaller
/// code of write_varint.
BIFRONS_INLINE std::byte* write_wide_varint(std::byte* p, std::uint64_t v) noexcept {
  const std::uint64_t top = v >> 56;
  if (top == 0) return write_varint(p, v);
  p = store_le(p, spread_groups(v) | 0x8080808080808080u);
  if (top < 0x80) {
    *p = static_cast<std::byte>(top);
    return p + 1;
  }
  // top's own 0x80 is the ninth byte's continuation bit; the tenth byte is 1.
  return store_le(p, static_cast<std::uint16_t>(top | 0x100));
}

/// A varint decoded from the next 8 input bytes (`word`, loaded little-endian): its length
/// (0 when it is longer than 8 bytes, and then nothing else is set), whether it is spelled
/// minimally, and its value.
struct word_varint {
  unsigned length = 0;
  bool canonical = true;
  std::uint64_t value = 0;
};

/// Varints of 2-8 bytes (every full-range int32 takes 5) are decoded from one 8-byte load: the
/// first byte without a continuation bit ends the varint, and the 7-bit groups are packed with
/// mask-and-shift steps, in far fewer instructions than the byte loop. The caller
/// has seen a continuation bit in the first byte: the varint is 2 bytes or longer.
/// MaxBytes <= 5 (varints of 32-bit values) packs the five groups one by one, which takes fewer
/// instructions than the three halving steps that 8 groups need.
template <unsigned MaxBytes = 8>
BIFRONS_INLINE constexpr word_varint varint_in_word(std::uint64_t word) noexcept {
  const std::uint64_t stops = ~word & 0x8080808080808080u;
  if (stops == 0) return {};
  const auto stop_bit = static_cast<unsigned>(std::countr_zero(stops));  // 8 * (length - 1) + 7
  // stops ^ (stops - 1): the bits up to the stop bit, which end the varint.
  std::uint64_t x = word & (stops ^ (stops - 1));
  // Canonical form: no trailing zero group (0x80 0x00 is not a second spelling of 0). The stop
  // byte's own top bit is clear, so this is its 7-bit group.
  const bool canonical = (x >> (stop_bit - 7)) != 0;
  if constexpr (MaxBytes <= 5) {
    // Each mask takes one group and drops the continuation bit shifted in beside it.
    x = (x & 0x7fu) | ((x >> 1) & 0x3f80u) | ((x >> 2) & 0x1fc000u) | ((x >> 3) & 0xfe00000u) |
        ((x >> 4) & 0x7f0000000u);
  } else {
    x = pack_groups(x);
  }
  return {(stop_bit + 1) / 8, canonical, x};
}

/// A varint of 9 or 10 bytes at p, whose first eight bytes (`word`, loaded little-endian) all
/// have a continuation bit: the rest of the 64 bits in the ninth byte, or the ninth and a tenth
/// of exactly 1. Not canonical (the caller's "malformed") where the ninth byte is 0 (a second
/// spelling of a shorter varint) or the tenth is not 1 (0 spells nothing; above 1 is past 64 bits,
/// or continues). The caller has checked that ten bytes may be read at p.
BIFRONS_INLINE constexpr word_varint long_varint(const std::byte* p, std::uint64_t word) noexcept {
  const std::uint64_t low = pack_groups(word);
  const auto ninth = static_cast<std::uint8_t>(p[8]);
  if (ninth < 0x80) return {9, ninth != 0, low | std::uint64_t{ninth} << 56};
  const bool tenth_is_one = static_cast<std::uint8_t>(p[9]) == 1;
  return {10, tenth_is_one, low | std::uint64_t{ninth & 0x7fu} << 56 | std::uint64_t{1} << 63};
}

/// A varint of exactly two bytes at p: the caller has seen a continuation bit in the first byte and
/// none in the second. Values of 2^7 to 2^14 - 1 (struct headers of bodies up to 8 KiB, counts,
/// most reference tags) are common enough to be decoded apart from varint_in_word's unpack.
BIFRONS_INLINE constexpr word_varint two_byte_varint(const std::byte* p) noexcept {
  const auto second = static_cast<std::uint8_t>(p[1]);
  // A second byte of 0 would be a second spelling of a one-byte value.
  return {2, second != 0, (static_cast<std::uint8_t>(p[0]) & 0x7fu) | (std::uint64_t{second} << 7)};
}

constexpr std::uint64_t zigzag(std::int64_t v) noexcept {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

constexpr std::int64_t unzigzag(std::uint64_t v) noexcept {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// ---- packed bits (std::bitset, std::vector<bool>) -----------------------------------------------
// n bits take ceil(n / 8) bytes: bit i is in byte i / 8 at bit i % 8, and the unused high bits of
// the last byte are zero.

constexpr std::size_t packed_size(std::size_t bits) noexcept { return bits / 8 + (bits % 8 != 0); }

/// Packs bit(0) ... bit(n - 1) at out; returns the end.
template <class Bit>
std::byte* pack_bits(std::byte* out, std::size_t n, Bit bit) {
  for (std::size_t i = 0; i < n; i += 8) {
    unsigned byte = 0;
    for (std::size_t b = 0; b < 8 && i + b < n; ++b) byte |= static_cast<unsigned>(bit(i + b)) << b;
    *out++ = static_cast<std::byte>(byte);
  }
  return out;
}

/// Bit i of the packed bits at p.
inline bool packed_bit(const std::byte* p, std::size_t i) noexcept {
  return ((static_cast<unsigned>(p[i / 8]) >> (i % 8)) & 1u) != 0;
}

/// The unused high bits after n packed bits at p are zero (one encoding per value).
inline bool padding_is_zero(const std::byte* p, std::size_t n) noexcept {
  return n % 8 == 0 || (static_cast<unsigned>(p[n / 8]) >> (n % 8)) == 0;
}

}  // namespace bifrons::detail
