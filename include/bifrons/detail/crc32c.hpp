// SPDX-License-Identifier: MIT
#pragma once
// CRC32C (Castagnoli, reflected polynomial 0x82f63b78, initial value and final xor 0xffffffff):
// the checksum of checksummed frames and of log records (docs/format.md sections 30 and 36).
// Chosen over a faster non-cryptographic hash because it is a standard every language has
// (Python's crc32c, Java's java.util.zip.CRC32C, iSCSI, ext4, TFRecord, LevelDB), detects every
// error of up to 3 flipped bits and every burst up to 32 bits in a message of the sizes used here,
// and has an instruction on x86-64 (SSE4.2) and ARMv8 (the CRC extension).
//
// Three implementations with the same results: the SSE4.2 instruction, chosen at run time from
// the CPU (so a portable build still gets it); ARMv8's, when the compiler targets it; a table of
// 8 x 256 entries ("slicing by 8") everywhere else. On x86-64 with PCLMULQDQ as well, inputs of
// 48 bytes or more run three independent streams of the instruction and join their CRCs with a
// carry-less multiplication: each instruction waits 3 cycles for the one before it in its own
// stream but issues every cycle, so one stream alone uses a third of the unit.
// tests/frame_test.cpp checks all that the host runs against the table and the standard's check
// values.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "config.hpp"
#include "encoding.hpp"

// (Not with clang for the MSVC ABI, clang-cl: __builtin_cpu_supports needs libgcc's __cpu_model,
// which that ABI does not link.)
#if BIFRONS_HAS_BUILTINS && (defined(__x86_64__) || defined(__i386__)) && !defined(_MSC_VER) && \
    !defined(BIFRONS_NO_HARDWARE_CRC32C)
#define BIFRONS_CRC32C_X86 1
#include <nmmintrin.h>
#if defined(__x86_64__)
#define BIFRONS_CRC32C_X86_CLMUL 1
#include <wmmintrin.h>
#else
#define BIFRONS_CRC32C_X86_CLMUL 0
#endif
#else
#define BIFRONS_CRC32C_X86 0
#endif
#if BIFRONS_HAS_BUILTINS && defined(__ARM_FEATURE_CRC32) && !defined(BIFRONS_NO_HARDWARE_CRC32C)
#define BIFRONS_CRC32C_ARM 1
#include <arm_acle.h>
#else
#define BIFRONS_CRC32C_ARM 0
#endif

namespace bifrons::detail {

inline constexpr std::uint32_t crc32c_polynomial = 0x82f63b78u;

/// crc32c_tables[k][b]: the CRC register after byte b followed by k zero bytes.
inline constexpr std::array<std::array<std::uint32_t, 256>, 8> crc32c_tables = [] {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) != 0 ? crc32c_polynomial : 0u);
    t[0][b] = crc;
  }
  for (std::size_t k = 1; k < 8; ++k)
    for (std::size_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xffu];
  return t;
}();

/// a times b modulo the polynomial, both reflected (x^0 in bit 31), for any two elements: what
/// resynchronisation needs to join CRC registers across distances known only at run time.
constexpr std::uint32_t crc32c_multiply(std::uint32_t a, std::uint32_t b) noexcept {
  std::uint32_t product = 0;
  for (std::uint32_t bit = std::uint32_t{1} << 31; bit != 0; bit >>= 1) {
    if ((a & bit) != 0) product ^= b;
    b = (b & 1u) != 0 ? (b >> 1) ^ crc32c_polynomial : b >> 1;
  }
  return product;
}

/// crc32c_square_powers[k]: x^(2^k) modulo the polynomial (reflected).
inline constexpr std::array<std::uint32_t, 68> crc32c_square_powers = [] {
  std::array<std::uint32_t, 68> t{};
  t[0] = std::uint32_t{1} << 30;  // x^1
  for (std::size_t k = 1; k < t.size(); ++k) t[k] = crc32c_multiply(t[k - 1], t[k - 1]);
  return t;
}();

/// x^(8 n) modulo the polynomial: a CRC register times it is the register after n more zero
/// bytes. At most 64 multiplications, whatever n.
constexpr std::uint32_t crc32c_zero_bytes(std::uint64_t n) noexcept {
  std::uint32_t power = std::uint32_t{1} << 31;  // x^0
  for (std::size_t k = 3; n != 0; n >>= 1, ++k)
    if ((n & 1u) != 0) power = crc32c_multiply(power, crc32c_square_powers[k]);
  return power;
}

/// The portable CRC32C: extends crc (a finished CRC32C of earlier bytes, 0 for none) by n bytes.
inline std::uint32_t crc32c_portable(std::uint32_t crc, const std::byte* p, std::size_t n) noexcept {
  const auto& t = crc32c_tables;
  crc = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    // Assembled byte by byte, so the result does not depend on the host's byte order.
    const std::uint32_t lo = crc ^
                             (std::to_integer<std::uint32_t>(p[0]) | std::to_integer<std::uint32_t>(p[1]) << 8 |
                              std::to_integer<std::uint32_t>(p[2]) << 16 | std::to_integer<std::uint32_t>(p[3]) << 24);
    crc = t[7][lo & 0xffu] ^ t[6][(lo >> 8) & 0xffu] ^ t[5][(lo >> 16) & 0xffu] ^ t[4][lo >> 24] ^
          t[3][std::to_integer<std::uint8_t>(p[4])] ^ t[2][std::to_integer<std::uint8_t>(p[5])] ^
          t[1][std::to_integer<std::uint8_t>(p[6])] ^ t[0][std::to_integer<std::uint8_t>(p[7])];
  }
  for (; n > 0; --n, ++p) crc = (crc >> 8) ^ t[0][(crc ^ std::to_integer<std::uint32_t>(*p)) & 0xffu];
  return ~crc;
}

#if BIFRONS_CRC32C_X86
[[gnu::target("sse4.2")]] inline std::uint32_t crc32c_sse42(std::uint32_t crc, const std::byte* p,
                                                            std::size_t n) noexcept {
  crc = ~crc;
#if defined(__x86_64__)
  std::uint64_t wide = crc;
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);  // x86 is little-endian: the bytes in order
    wide = _mm_crc32_u64(wide, word);
  }
  crc = static_cast<std::uint32_t>(wide);
#endif
  for (; n >= 4; n -= 4, p += 4) {
    std::uint32_t word;
    std::memcpy(&word, p, 4);
    crc = _mm_crc32_u32(crc, word);
  }
  for (; n > 0; --n, ++p) crc = _mm_crc32_u8(crc, std::to_integer<std::uint8_t>(*p));
  return ~crc;
}

inline bool cpu_has_sse42() noexcept {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

#if BIFRONS_CRC32C_X86_CLMUL
/// The longest stream of the three-stream path, in 8-byte words: inputs of up to 3 such streams
/// are split in three equal streams; longer inputs run blocks of three such streams first.
inline constexpr std::size_t crc32c_stream_words = 64;

/// crc32c_shifts[j]: x^(64 j) modulo the polynomial (reflected): multiplying a CRC register by it
/// appends j zero words to the bytes it covers.
inline constexpr std::array<std::uint32_t, 2 * crc32c_stream_words + 1> crc32c_shifts = [] {
  std::array<std::uint32_t, 2 * crc32c_stream_words + 1> t{};
  std::uint32_t power = std::uint32_t{1} << 31;  // x^0
  for (std::size_t j = 0; j < t.size(); ++j) {
    t[j] = power;
    for (int bit = 0; bit < 64; ++bit) power = (power & 1u) != 0 ? (power >> 1) ^ crc32c_polynomial : power >> 1;
  }
  return t;
}();

/// crc (a register) times shift modulo the polynomial, with PCLMULQDQ: the 63-bit carry-less
/// product, shifted by one into the reflected 64-bit form, reduced by the CRC instruction (its
/// low half) plus its high half, which is already below x^32.
[[gnu::target("sse4.2,pclmul")]] inline std::uint32_t crc32c_shift_clmul(std::uint32_t crc,
                                                                         std::uint32_t shift) noexcept {
  const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi32_si128(static_cast<int>(crc)),
                                               _mm_cvtsi32_si128(static_cast<int>(shift)), 0);
  const auto wide = static_cast<std::uint64_t>(_mm_cvtsi128_si64(product)) << 1;
  return _mm_crc32_u32(0, static_cast<std::uint32_t>(wide)) ^ static_cast<std::uint32_t>(wide >> 32);
}

/// Three streams of `words` 8-byte words from p, continuing the register crc: the register after
/// all 24 * words bytes.
[[gnu::target("sse4.2,pclmul")]] inline std::uint64_t crc32c_three_streams(std::uint64_t crc, const std::byte* p,
                                                                           std::size_t words) noexcept {
  std::uint64_t a = crc, b = 0, c = 0;
  const std::byte* q = p + 8 * words;
  const std::byte* r = q + 8 * words;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t x, y, z;
    std::memcpy(&x, p + 8 * i, 8);
    std::memcpy(&y, q + 8 * i, 8);
    std::memcpy(&z, r + 8 * i, 8);
    a = _mm_crc32_u64(a, x);
    b = _mm_crc32_u64(b, y);
    c = _mm_crc32_u64(c, z);
  }
  return crc32c_shift_clmul(static_cast<std::uint32_t>(a), crc32c_shifts[2 * words]) ^
         crc32c_shift_clmul(static_cast<std::uint32_t>(b), crc32c_shifts[words]) ^ c;
}

[[gnu::target("sse4.2,pclmul")]] inline std::uint32_t crc32c_sse42_clmul(std::uint32_t crc, const std::byte* p,
                                                                         std::size_t n) noexcept {
  constexpr std::size_t block = 24 * crc32c_stream_words;
  std::uint64_t wide = ~crc;
  for (; n >= block; n -= block, p += block) wide = crc32c_three_streams(wide, p, crc32c_stream_words);
  if (n >= 48) {
    const std::size_t words = n / 24;
    wide = crc32c_three_streams(wide, p, words);
    p += 24 * words;
    n -= 24 * words;
  }
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    wide = _mm_crc32_u64(wide, word);
  }
  auto narrow = static_cast<std::uint32_t>(wide);
  if (n >= 4) {
    std::uint32_t word;
    std::memcpy(&word, p, 4);
    narrow = _mm_crc32_u32(narrow, word);
    n -= 4;
    p += 4;
  }
  for (; n > 0; --n, ++p) narrow = _mm_crc32_u8(narrow, std::to_integer<std::uint8_t>(*p));
  return ~narrow;
}

inline bool cpu_has_sse42_and_clmul() noexcept {
  static const bool has = __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul");
  return has;
}
#endif

#if BIFRONS_CRC32C_ARM
inline std::uint32_t crc32c_armv8(std::uint32_t crc, const std::byte* p, std::size_t n) noexcept {
  crc = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    if constexpr (std::endian::native == std::endian::big) word = byteswap(word);
    crc = __crc32cd(crc, word);
  }
  for (; n > 0; --n, ++p) crc = __crc32cb(crc, std::to_integer<std::uint8_t>(*p));
  return ~crc;
}
#endif

/// Which implementation crc32c() uses on this host: "sse4.2+pclmul", "sse4.2", "armv8" or "table".
inline const char* crc32c_implementation() noexcept {
#if BIFRONS_CRC32C_X86_CLMUL
  if (cpu_has_sse42_and_clmul()) return "sse4.2+pclmul";
#endif
#if BIFRONS_CRC32C_X86
  if (cpu_has_sse42()) return "sse4.2";
#endif
#if BIFRONS_CRC32C_ARM
  return "armv8";
#else
  return "table";
#endif
}

/// CRC32C of n bytes at p, continuing crc (the CRC32C of the bytes before them; 0 for none), so
/// that crc32c(crc32c(0, a), b) == crc32c(0, a followed by b).
inline std::uint32_t crc32c(std::uint32_t crc, const std::byte* p, std::size_t n) noexcept {
#if BIFRONS_CRC32C_X86_CLMUL
  if (cpu_has_sse42_and_clmul()) return crc32c_sse42_clmul(crc, p, n);
#endif
#if BIFRONS_CRC32C_X86
  if (cpu_has_sse42()) return crc32c_sse42(crc, p, n);
#endif
#if BIFRONS_CRC32C_ARM
  return crc32c_armv8(crc, p, n);
#else
  return crc32c_portable(crc, p, n);
#endif
}

#if BIFRONS_CRC32C_X86 && defined(__x86_64__)
/// Four CRC32Cs at once, crc32c(0, p[k], n[k]) into out[k]: the instruction waits 3 cycles for the
/// one before it in its stream but issues every cycle, so four records in lockstep take a quarter
/// of the time four calls take when each waits for its own chain (the log's records of ~100 bytes).
[[gnu::target("sse4.2")]] inline void crc32c_four_sse42(const std::byte* const* p, const std::size_t* n,
                                                        std::uint32_t* out) noexcept {
  std::size_t shortest = n[0];
  for (std::size_t k = 1; k < 4; ++k) shortest = n[k] < shortest ? n[k] : shortest;
  const std::size_t words = shortest / 8;
  std::uint64_t a = 0xffffffffu, b = 0xffffffffu, c = 0xffffffffu, d = 0xffffffffu;
  for (std::size_t i = 0; i < 8 * words; i += 8) {
    std::uint64_t w, x, y, z;
    std::memcpy(&w, p[0] + i, 8);
    std::memcpy(&x, p[1] + i, 8);
    std::memcpy(&y, p[2] + i, 8);
    std::memcpy(&z, p[3] + i, 8);
    a = _mm_crc32_u64(a, w);
    b = _mm_crc32_u64(b, x);
    c = _mm_crc32_u64(c, y);
    d = _mm_crc32_u64(d, z);
  }
  const std::uint64_t registers[4] = {a, b, c, d};
  for (std::size_t k = 0; k < 4; ++k) {
    const std::byte* q = p[k] + 8 * words;
    std::size_t m = n[k] - 8 * words;
    if (m >= 16) {
      out[k] = crc32c(~static_cast<std::uint32_t>(registers[k]), q, m);
      continue;
    }
    // A short rest (a record header's 12 bytes have 4) without a call.
    std::uint64_t wide = registers[k];
    if (m >= 8) {
      std::uint64_t word;
      std::memcpy(&word, q, 8);
      wide = _mm_crc32_u64(wide, word);
      q += 8;
      m -= 8;
    }
    auto narrow = static_cast<std::uint32_t>(wide);
    if (m >= 4) {
      std::uint32_t word;
      std::memcpy(&word, q, 4);
      narrow = _mm_crc32_u32(narrow, word);
      q += 4;
      m -= 4;
    }
    for (; m > 0; --m, ++q) narrow = _mm_crc32_u8(narrow, std::to_integer<std::uint8_t>(*q));
    out[k] = ~narrow;
  }
}
#endif

/// The CRC32C of each of count buffers, out[k] = crc32c(0, p[k], n[k]), computed together where
/// the host can overlap them.
inline void crc32c_each(std::size_t count, const std::byte* const* p, const std::size_t* n,
                        std::uint32_t* out) noexcept {
  std::size_t k = 0;
#if BIFRONS_CRC32C_X86 && defined(__x86_64__)
  if (cpu_has_sse42())
    for (; k + 4 <= count; k += 4) crc32c_four_sse42(p + k, n + k, out + k);
#endif
  for (; k < count; ++k) out[k] = crc32c(0, p[k], n[k]);
}

}  // namespace bifrons::detail
