// SPDX-License-Identifier: MIT
#pragma once
// Runs of varints read and written several at a time: the body of a struct whose fields are all
// small varint integers (the default encoding of a struct of ints) is a run of LEB128 varints of
// mixed lengths. One by one, each field's length is a branch, which data whose lengths vary at
// random (small values of either sign: one or two bytes) mispredicts for about half the fields.
// Where the processor has AVX-512 VBMI2, a block of such structs is read and written a struct at a
// time without a branch per field:
//   - reading, one 64-byte load covers the body; the stop bytes (top bit clear) are one mask, and
//     every field's bytes are gathered into a 64-bit lane of its own, stripped of their
//     continuation bits and packed. Every check of the scalar decoder (minimal spelling, length,
//     range, the fields within the body) is made on the masks for the whole run; a run that fails
//     one is read again by the scalar decoder, which reports the error and its offset;
//   - writing, every field's value is spread over its lane's bytes with its continuation bits,
//     the lanes' bytes are packed together, and exactly the message's bytes are stored.
//
// The processor is asked at run time, so that a program built for any x86-64 uses it where it can
// (docs/design.md has the measurements). Elsewhere, and where it is missing, the scalar code reads
// and writes the same bytes. The few instructions used are reached through the compilers'
// builtins and vector extensions, not <immintrin.h>, which alone took about a fifth of a minimal
// program's compile time.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"

// (Not with clang for the MSVC ABI, clang-cl: __builtin_cpu_supports needs libgcc's __cpu_model,
// which that ABI does not link.)
#if defined(__x86_64__) && BIFRONS_HAS_BUILTINS && !defined(_MSC_VER) && !defined(BIFRONS_NO_SIMD)
#define BIFRONS_SIMD_RUNS 1
// Every function between the run-time check and the instructions carries these (GCC and clang
// inline a function only into one that has its instruction sets).
#define BIFRONS_SIMD_RUN_TARGET \
  [[gnu::target("avx512f,avx512bw,avx512cd,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")]]
#define BIFRONS_SIMD_RUN_LAMBDA \
  __attribute__((always_inline, target("avx512f,avx512bw,avx512cd,avx512vl,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))
#else
#define BIFRONS_SIMD_RUNS 0
#endif

namespace bifrons::detail {

/// The most fields a run may have, and the longest of their varints: fields of up to 32 bits.
inline constexpr std::size_t max_run_fields = 16;
inline constexpr std::size_t max_run_varint = 5;
/// Bytes a run decoder may load from the start of a body.
inline constexpr std::size_t run_reach = 64;

/// Off in tests and fuzzers that compare the run code with the scalar code on the same values;
/// read once per block of elements.
inline bool simd_runs_allowed = true;

/// Whether runs are read and written with AVX-512 on this processor.
inline bool simd_runs_available() noexcept {
#if BIFRONS_SIMD_RUNS
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
           __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  }();
  return available && simd_runs_allowed;
#else
  return false;
#endif
}

#if BIFRONS_SIMD_RUNS

/// 64-byte vectors, as the builtins take them, and the instructions whose builtins GCC and clang
/// spell differently.
namespace simd {

using bytes64 = char __attribute__((vector_size(64)));
using ubytes64 = unsigned char __attribute__((vector_size(64)));
using shorts32 = short __attribute__((vector_size(64)));
using ints16 = int __attribute__((vector_size(64)));
using quads8 = long long __attribute__((vector_size(64)));
using uquads8 = unsigned long long __attribute__((vector_size(64)));

/// Bit i: the top bit of byte i.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline std::uint64_t top_bits(bytes64 v) noexcept {
  return __builtin_ia32_cvtb2mask512(v);
}
/// The bytes of v whose bit is set in `which`, packed from byte 0; zeros after them.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bytes64 compress(std::uint64_t which, bytes64 v) noexcept {
  return __builtin_ia32_compressqi512_mask(v, bytes64{}, which);
}
/// Byte i: table[index[i] % 64].
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bytes64 permute(bytes64 index, bytes64 table) noexcept {
#if defined(__clang__)
  return __builtin_ia32_permvarqi512(table, index);
#else
  return __builtin_ia32_permvarqi512_mask(table, index, bytes64{}, ~0ull);
#endif
}
/// Bit i: whether byte i of a is below byte i of b (unsigned).
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline std::uint64_t below(ubytes64 a, ubytes64 b) noexcept {
  return __builtin_ia32_ucmpb512_mask(reinterpret_cast<bytes64>(a), reinterpret_cast<bytes64>(b), 1, ~0ull);
}
/// Each 64-bit lane: its leading zero bits.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline uquads8 leading_zeros(uquads8 v) noexcept {
#if defined(__clang__) && __has_builtin(__builtin_elementwise_clzg)
  return reinterpret_cast<uquads8>(__builtin_elementwise_clzg(reinterpret_cast<quads8>(v), quads8{} + 64));
#elif defined(__clang__)
  // (clang up to 19, Apple clang: the builtin that later clangs replaced with the generic one.)
  return reinterpret_cast<uquads8>(__builtin_ia32_vplzcntq_512(reinterpret_cast<quads8>(v)));
#else
  return reinterpret_cast<uquads8>(__builtin_ia32_vplzcntq_512_mask(reinterpret_cast<quads8>(v), quads8{}, 0xff));
#endif
}
/// Byte i: byte index[i] % 16 of the 16 bytes of table that hold byte i (0 if index[i] has its
/// top bit).
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bytes64 shuffle_within_16(bytes64 table, bytes64 index) noexcept {
#if defined(__clang__)
  return __builtin_ia32_pshufb512(table, index);
#else
  return __builtin_ia32_pshufb512_mask(table, index, bytes64{}, ~0ull);
#endif
}
/// permute(index, table), with byte i zero where bit i of `which` is clear.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bytes64 permute_or_zero(std::uint64_t which, bytes64 index,
                                                                              bytes64 table) noexcept {
#if defined(__clang__)
  return __builtin_ia32_selectb_512(which, __builtin_ia32_permvarqi512(table, index), bytes64{});
#else
  return __builtin_ia32_permvarqi512_mask(table, index, bytes64{}, which);
#endif
}
/// Each 16-bit lane: its low byte (unsigned) * weights' low byte + its high byte * weights' high.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline shorts32 pair_sums(bytes64 weights, bytes64 v) noexcept {
#if defined(__clang__)
  return __builtin_ia32_pmaddubsw512(weights, v);
#else
  return __builtin_ia32_pmaddubsw512_mask(weights, v, shorts32{}, ~0u);
#endif
}
/// Each 32-bit lane: the sum of the products of its two 16-bit halves with weights'.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline ints16 half_sums(shorts32 v, shorts32 weights) noexcept {
#if defined(__clang__)
  return __builtin_ia32_pmaddwd512(v, weights);
#else
  return __builtin_ia32_pmaddwd512_mask(v, weights, ints16{}, 0xffff);
#endif
}
/// Byte k of each 64-bit lane: the 8 bits of the lane's value from bit offsets[k] on.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bytes64 bit_fields(bytes64 offsets, uquads8 v) noexcept {
#if defined(__clang__)
  return __builtin_ia32_vpmultishiftqb512(offsets, reinterpret_cast<bytes64>(v));
#else
  return __builtin_ia32_vpmultishiftqb512_mask(offsets, reinterpret_cast<bytes64>(v), bytes64{}, ~0ull);
#endif
}
/// Byte i: -1 if bit i of `which` is set, else 0.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bytes64 mask_bytes(std::uint64_t which) noexcept {
  return __builtin_ia32_cvtmask2b512(which);
}
/// Byte i: p[i] for each bit i set in `which`, else 0; nothing else is read.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bytes64 load(const std::byte* p, std::uint64_t which) noexcept {
#if defined(__clang__)
  return __builtin_ia32_loaddquqi512_mask(reinterpret_cast<const bytes64*>(p), bytes64{}, which);
#else
  return __builtin_ia32_loaddquqi512_mask(reinterpret_cast<const char*>(p), bytes64{}, which);
#endif
}
/// Byte i of v at p + i for each bit i set in `which`; nothing else is written.
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline void store(std::byte* p, std::uint64_t which,
                                                                 bytes64 v) noexcept {
#if defined(__clang__)
  __builtin_ia32_storedquqi512_mask(reinterpret_cast<bytes64*>(p), v, which);
#else
  __builtin_ia32_storedquqi512_mask(reinterpret_cast<char*>(p), v, which);
#endif
}

/// Eight integers of Size bytes.
template <std::size_t Size, bool Signed>
struct eight;
template <>
struct eight<1, true> {
  using type = signed char __attribute__((vector_size(8)));
};
template <>
struct eight<1, false> {
  using type = unsigned char __attribute__((vector_size(8)));
};
template <>
struct eight<2, true> {
  using type = short __attribute__((vector_size(16)));
};
template <>
struct eight<2, false> {
  using type = unsigned short __attribute__((vector_size(16)));
};
template <>
struct eight<4, true> {
  using type = int __attribute__((vector_size(32)));
};
template <>
struct eight<4, false> {
  using type = unsigned __attribute__((vector_size(32)));
};

}  // namespace simd

/// The raw varints of a run's fields, one per 64-bit lane: field i in lane i % 8 of lane[i / 8].
struct run_lanes {
  simd::uquads8 lane[2];
};

/// Byte i of a lane of 8: the lane, and the byte within it.
alignas(64) inline constexpr unsigned char lane_of_byte[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7};
alignas(64) inline constexpr unsigned char byte_in_lane[64] = {
    0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7,
    0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};

/// Fields 8 Group to 8 Group + 7 of a run whose fields start at `starts` and take `lengths`
/// bytes of `data`: their values into raw.lane[Group], and the bits of them that excess_bits
/// marks as too large for their types.
template <std::size_t Group>
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline simd::uquads8 decode_run_group(simd::bytes64 data,
                                                                                     simd::bytes64 starts,
                                                                                     simd::ubytes64 lengths,
                                                                                     const std::uint64_t* excess_bits,
                                                                                     run_lanes& raw) noexcept {
  using namespace simd;
  bytes64 lanes_of_bytes, bytes_in_lanes;
  std::memcpy(&lanes_of_bytes, lane_of_byte, 64);
  std::memcpy(&bytes_in_lanes, byte_in_lane, 64);
  // Each field's bytes from its start, in a lane of its own, the rest of the lane zero.
  const bytes64 field = lanes_of_bytes + static_cast<char>(8 * Group);
  const bytes64 start = permute(field, starts);
  const auto size = reinterpret_cast<ubytes64>(permute(field, reinterpret_cast<bytes64>(lengths)));
  const bytes64 x =
      permute_or_zero(below(reinterpret_cast<ubytes64>(bytes_in_lanes), size), start + bytes_in_lanes, data) & 0x7f;
  // Packing: bytes to 14-bit pairs (b0 + 128 b1), pairs to 28-bit halves, halves to 56 bits.
  const auto pair_weights = reinterpret_cast<bytes64>(shorts32{} + static_cast<short>(0x8001));
  const auto half_weights = reinterpret_cast<shorts32>(ints16{} + 0x40000001);
  const auto halves = reinterpret_cast<uquads8>(half_sums(pair_sums(pair_weights, x), half_weights));
  const uquads8 value = (halves & 0x0fffffff) | ((halves >> 4) & 0x00fffffff0000000);
  raw.lane[Group] = value;
  uquads8 limit;
  std::memcpy(&limit, excess_bits + 8 * Group, sizeof limit);
  return value & limit;
}

/// Decodes the N varints (each at most max_run_varint bytes) that start a body of `length`
/// bytes at `body`, from which run_reach bytes can be loaded, into raw (the lanes past N are left
/// with anything). False, with raw changed, if a varint is longer than max_run_varint bytes, is
/// not spelled minimally or has a bit set that excess_bits[i] (max_run_fields of them: the bits
/// field i's type cannot hold) has, or if the N varints do not lie within the body; the caller
/// then reads the body on the checked path, which finds the error and its offset.
template <std::size_t N>
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline bool decode_varint_run(const std::byte* body, std::size_t length,
                                                                             const std::uint64_t* excess_bits,
                                                                             run_lanes& raw) noexcept {
  static_assert(N >= 1 && N <= max_run_fields);
  using namespace simd;
  alignas(64) static constexpr unsigned char iota[64] = {
      0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
      22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
      44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
  bytes64 data;
  std::memcpy(&data, body, sizeof data);
  const std::uint64_t stops = ~top_bits(data);
  const std::uint64_t zeros = below(reinterpret_cast<ubytes64>(data), ubytes64{} + 1);

  // The last byte of field N - 1 (0 when the 64 bytes hold fewer than N stops).
  const std::uint64_t last = __builtin_ia32_pdep_di(std::uint64_t{1} << (N - 1), stops);
  const std::size_t body_bits = length < 63 ? length : 63;
  const bool within_body = last != 0 && (last >> body_bits) == 0;
  // A continuation byte followed by a zero byte, up to the run's last byte: 0x80 0x00 is not a
  // second spelling of 0. The bytes after the run (fields a newer writer appended) are not its own.
  const bool spelled_twice = (zeros & (~stops << 1) & (last ^ (last - 1))) != 0;

  // Field i ends at the i-th stop byte and starts after the one before (field 0 at byte 0).
  bytes64 positions;
  std::memcpy(&positions, iota, 64);
  const bytes64 ends = compress(stops, positions);
  const bytes64 starts = (permute(positions - 1, ends) + 1) & ~bytes64{static_cast<char>(-1)};  // byte 0 zero
  const auto lengths = reinterpret_cast<ubytes64>(ends + 1 - starts);
  constexpr std::uint64_t field_bytes = (std::uint64_t{1} << N) - 1;
  const bool too_long = (below(ubytes64{} + static_cast<unsigned char>(max_run_varint), lengths) & field_bytes) != 0;

  uquads8 excess = decode_run_group<0>(data, starts, lengths, excess_bits, raw);
  if constexpr (N > 8) excess |= decode_run_group<1>(data, starts, lengths, excess_bits, raw);
  const bool out_of_range = below(ubytes64{}, reinterpret_cast<ubytes64>(excess)) != 0;
  return within_body && !spelled_twice && !too_long && !out_of_range;
}

/// The bytes of Lanes raw varints in the lanes of x (the rest ignored), with their continuation
/// bits, packed from byte 0; their count in `size`.
template <std::size_t Group, std::size_t Lanes>
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline simd::bytes64 encode_run_group(simd::uquads8 x,
                                                                                     std::uint64_t& size) noexcept {
  using namespace simd;
  ubytes64 bytes_in_lanes;
  std::memcpy(&bytes_in_lanes, byte_in_lane, 64);
  // Byte k of a lane takes bits 7k to 7k + 7 of its value (the top one is cleared after).
  const auto groups = reinterpret_cast<bytes64>(uquads8{} + 0x312a231c150e0700u);
  // Bytes: 1 + (bit width - 1) / 7, from a table of the leading zeros of the value (or of 1);
  // every byte of the lane gets it.
  static constexpr unsigned char length_of_zeros[64] = {
      10, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5,
      5,  5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1};
  bytes64 table;
  std::memcpy(&table, length_of_zeros, 64);
  const auto zeros = reinterpret_cast<bytes64>(leading_zeros(x | 1));
  const auto low_byte = reinterpret_cast<bytes64>(uquads8{} + 0x0808080808080808u) &
                        reinterpret_cast<bytes64>(uquads8{0, ~0ull, 0, ~0ull, 0, ~0ull, 0, ~0ull});
  const auto lengths = reinterpret_cast<ubytes64>(shuffle_within_16(permute(zeros, table), low_byte));
  // (A right shift, never by 64: clang 19 warns of the shift by 64 the other spelling never makes.)
  constexpr std::uint64_t lane_bytes = ~std::uint64_t{0} >> (64 - 8 * Lanes);
  const std::uint64_t kept = below(bytes_in_lanes, lengths) & lane_bytes;
  const std::uint64_t continued = below(bytes_in_lanes + 1, lengths);
  const bytes64 spread = (bit_fields(groups, x) & 0x7f) | (mask_bytes(continued) & static_cast<char>(0x80));
  size = static_cast<std::uint64_t>(__builtin_popcountll(kept));
  return compress(kept, spread);
}

/// Writes the N raw varints of raw (each below 2^35, so at most max_run_varint bytes; the lanes
/// past N are ignored) as a struct body after a one-byte header, and returns the end: every value
/// is spread over its lane's bytes with its continuation bits, the lanes' bytes are packed, and
/// exactly the bytes of the message are stored.
template <std::size_t N>
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline std::byte* encode_varint_run(std::byte* out,
                                                                                   const run_lanes& raw) noexcept {
  static_assert(N >= 1 && N <= max_run_fields);
  using namespace simd;
  std::uint64_t packed_sizes[2] = {0, 0};
  bytes64 packed[2] = {};
  packed[0] = encode_run_group < 0, N<8 ? N : 8>(raw.lane[0], packed_sizes[0]);
  if constexpr (N > 8) packed[1] = encode_run_group<1, N - 8>(raw.lane[1], packed_sizes[1]);
  const std::uint64_t length = packed_sizes[0] + packed_sizes[1];
  *out = static_cast<std::byte>(length << 1);
  // (Sizes below 64: no shift by 64.)
  store(out + 1, (std::uint64_t{1} << packed_sizes[0]) - 1, packed[0]);
  if constexpr (N > 8) store(out + 1 + packed_sizes[0], (std::uint64_t{1} << packed_sizes[1]) - 1, packed[1]);
  return out + 1 + length;
}

/// The raw varints of N fields of one integer type F at `fields` (the object representation of a
/// struct whose fields are F[N] in all but name), widened as the wire type W is (signed or not)
/// and zigzagged if W is signed.
template <class F, class W, std::size_t N>
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline run_lanes load_run(const std::byte* fields) noexcept {
  static_assert(sizeof(F) == 1 || sizeof(F) == 2 || sizeof(F) == 4);
  using narrow = typename simd::eight<sizeof(F), std::is_signed_v<W>>::type;
  using wide = std::conditional_t<std::is_signed_v<W>, simd::quads8, simd::uquads8>;
  run_lanes raw;
  const auto load_group = [&](std::size_t group) BIFRONS_SIMD_RUN_LAMBDA {
    const std::size_t lanes = N - 8 * group < 8 ? N - 8 * group : 8;
    const simd::bytes64 bytes = simd::load(fields + 8 * group * sizeof(F),
                                           (std::uint64_t{1} << (lanes * sizeof(F))) - 1);
    narrow v;
    std::memcpy(&v, &bytes, sizeof v);
    wide x = __builtin_convertvector(v, wide);
    if constexpr (std::is_signed_v<W>) x = (x << 1) ^ (x >> 63);
    raw.lane[group] = reinterpret_cast<simd::uquads8>(x);
  };
  load_group(0);
  if constexpr (N > 8) load_group(1);
  return raw;
}

/// The raw varints of a run from an array of them, and back (structs whose fields have several
/// types).
template <std::size_t N>
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline run_lanes load_run(const std::uint64_t* raw) noexcept {
  run_lanes lanes;
  for (std::size_t group = 0; group * 8 < N; ++group) std::memcpy(&lanes.lane[group], raw + 8 * group, 64);
  return lanes;
}
template <std::size_t N>
BIFRONS_SIMD_RUN_TARGET [[gnu::always_inline]] inline void store_run(std::uint64_t* raw,
                                                                     const run_lanes& lanes) noexcept {
  for (std::size_t group = 0; group * 8 < N; ++group) std::memcpy(raw + 8 * group, &lanes.lane[group], 64);
}

#endif

}  // namespace bifrons::detail
