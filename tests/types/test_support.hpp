#pragma once
// Helpers shared by the tests in tests/types/ and tests/*_test.cpp: hand-written byte lists,
// hex dumps, an independent reference encoder for varints and little-endian blocks, a round-trip
// check and an error check. Every test file includes the header it tests *before* this one, so
// that each bifrons header is also checked to compile on its own.

#include <bifrons/bifrons.hpp>
#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../emulation.hpp"

namespace bifrons_test {

using bytes = std::vector<std::byte>;

/// Bytes from a hand-written list: B({0x01, 0xAC, 0x02}).
inline bytes B(std::initializer_list<unsigned> list) {
  bytes out;
  for (unsigned v : list) out.push_back(static_cast<std::byte>(v));
  return out;
}

/// Concatenation of byte strings.
inline bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

/// "01 ac 02": lower-case hex, space separated. Works on any range of 1-byte elements.
template <class R>
std::string hex(const R& r) {
  std::string out;
  for (const auto& e : r) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>(static_cast<unsigned char>(e)));
    if (!out.empty()) out += ' ';
    out += buf;
  }
  return out;
}

/// hex(to_bytes(v)).
template <class T>
std::string hex_of(const T& v) {
  return hex(bifrons::to_bytes(v));
}

// ---- a reference encoder written from the format description, not from the library ---------

inline void put_varint(bytes& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::byte>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::byte>(v));
}

inline bytes varint_bytes(std::uint64_t v) {
  bytes out;
  put_varint(out, v);
  return out;
}

inline std::uint64_t ref_zigzag(std::int64_t n) {
  return (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63);
}

inline void put_le(bytes& out, std::uint64_t v, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
}

template <class T>
concept block_type = (std::is_arithmetic_v<T> && !std::is_same_v<T, long double>) || std::is_same_v<T, std::byte>;

/// Wire width of an element of a raw block: sizeof(T) except long/unsigned long (8) and wchar_t (4).
template <class T>
constexpr std::size_t ref_wire_width() {
  if constexpr (std::is_same_v<T, long> || std::is_same_v<T, unsigned long>)
    return 8;
  else if constexpr (std::is_same_v<T, wchar_t>)
    return 4;
  else
    return sizeof(T);
}

template <block_type T>
void put_block_element(bytes& out, T v) {
  constexpr std::size_t w = ref_wire_width<T>();
  if constexpr (std::is_same_v<T, float>)
    put_le(out, std::bit_cast<std::uint32_t>(v), 4);
  else if constexpr (std::is_same_v<T, double>)
    put_le(out, std::bit_cast<std::uint64_t>(v), 8);
  else if constexpr (std::is_same_v<T, std::byte>)
    put_le(out, std::to_integer<unsigned>(v), 1);
  else if constexpr (std::is_same_v<T, bool>)
    put_le(out, v ? 1 : 0, 1);
  else if constexpr (std::is_signed_v<T>)
    put_le(out, static_cast<std::uint64_t>(static_cast<std::int64_t>(v)), w);  // sign-extended
  else
    put_le(out, static_cast<std::uint64_t>(v), w);
}

/// The expected encoding of a sequence (vector, deque, list, forward_list, string) holding
/// elems: count, then one raw block for arithmetic elements, else each element's own encoding.
template <class T>
bytes expected_sequence(const std::vector<T>& elems) {
  bytes out = varint_bytes(elems.size());
  for (const T& e : elems) {
    if constexpr (block_type<T>) {
      put_block_element(out, e);
    } else {
      const bytes one = bifrons::to_bytes(e);
      out.insert(out.end(), one.begin(), one.end());
    }
  }
  return out;
}

// ---- round trips and errors ------------------------------------------------------------------

/// Writes v (checking serialized_size against the bytes written), reads it back with
/// try_from_bytes and returns what was read.
template <class T>
T round_trip(const T& v) {
  const bytes b = bifrons::to_bytes(v);
  EXPECT_EQ(bifrons::serialized_size(v), b.size());
  auto r = bifrons::try_from_bytes<T>(b);
  if (!r) {
    ADD_FAILURE() << "round trip failed: " << bifrons::describe(r.code()) << " at byte " << r.offset()
                  << "; bytes: " << hex(b);
    return T{};
  }
  return std::move(*r);
}

/// Reads the encoding of v into an existing object (from_bytes(bytes, out)).
template <class T>
void read_into(const T& v, T& existing) {
  bifrons::from_bytes(bifrons::to_bytes(v), existing);
}

/// The fewest bytes a value of T encodes to, as docs/format.md states it (section 31, "Minimum
/// encoded sizes"), for the types these tests use: count checks charge it per element, and
/// count_exceeds_input's bytes_missing counts in it.
template <class T>
constexpr std::size_t min_encoded_size() {
  if constexpr (std::is_floating_point_v<T>)
    return sizeof(T);  // IEEE-754, fixed width
  else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, std::byte>)
    return 1;  // a one-byte varint, or a one-byte type
  else if constexpr (requires { typename T::first_type; })
    return min_encoded_size<typename T::first_type>() + min_encoded_size<typename T::second_type>();
  else
    return 1;  // strings, containers, optionals, structs: an empty count, tag 0, an empty envelope
}

/// The same for an element of a sequence, where arithmetic elements form a block of fixed-width
/// elements (long travels as 8 bytes, wchar_t as 4).
template <class T>
constexpr std::size_t min_element_size() {
  if constexpr (std::is_same_v<T, long> || std::is_same_v<T, unsigned long>)
    return 8;
  else if constexpr (std::is_same_v<T, wchar_t>)
    return 4;
  else if constexpr (std::is_arithmetic_v<T>)
    return sizeof(T);
  else
    return min_encoded_size<T>();
}

/// Reading bytes as T must fail with code at offset, through try_from_bytes and through the
/// throwing from_bytes (whose message must name the error and the offset), and report
/// bytes_missing: what unexpected_end and count_exceeds_input say the input lacked, 0 for every
/// other error.
template <class T, class Bytes>
::testing::AssertionResult fails_with(const Bytes& b, bifrons::errc code, std::size_t offset,
                                      std::size_t bytes_missing = 0) {
  auto r = bifrons::try_from_bytes<T>(b);
  if (r.has_value()) return ::testing::AssertionFailure() << "try_from_bytes succeeded on " << hex(b);
  if (r.code() != code || r.offset() != offset || r.bytes_missing() != bytes_missing)
    return ::testing::AssertionFailure() << "expected '" << bifrons::describe(code) << "' at byte " << offset << " ("
                                         << bytes_missing << " bytes missing), got '" << bifrons::describe(r.code())
                                         << "' at byte " << r.offset() << " (" << r.bytes_missing()
                                         << " bytes missing) reading " << hex(b);
#if BIFRONS_HAS_EXCEPTIONS
  try {
    (void)bifrons::from_bytes<T>(b);
    return ::testing::AssertionFailure() << "from_bytes did not throw on " << hex(b);
  } catch (const bifrons::error& e) {
    if (e.code() != code || e.offset() != offset || e.bytes_missing() != bytes_missing)
      return ::testing::AssertionFailure() << "from_bytes threw '" << e.what() << "'";
    std::string expected_text = std::string(bifrons::describe(code)) + " at byte " + std::to_string(offset);
    if (bytes_missing != 0)
      expected_text += " (at least " + std::to_string(bytes_missing) +
                       (bytes_missing == 1 ? " more byte" : " more bytes");
    if (std::string(e.what()).find(expected_text) == std::string::npos)
      return ::testing::AssertionFailure() << "message '" << e.what() << "' lacks '" << expected_text << "'";
  }
#endif
  return ::testing::AssertionSuccess();
}

/// Reading bytes as T succeeds and yields expected.
template <class T, class Bytes>
::testing::AssertionResult reads_as(const Bytes& b, const T& expected) {
  auto r = bifrons::try_from_bytes<T>(b);
  if (!r)
    return ::testing::AssertionFailure() << "reading " << hex(b) << " failed: " << bifrons::describe(r.code())
                                         << " at byte " << r.offset();
  if (!(*r == expected)) return ::testing::AssertionFailure() << "reading " << hex(b) << " gave another value";
  return ::testing::AssertionSuccess();
}

// ---- sample values for typed container tests -------------------------------------------------

/// A plain aggregate: serialized by reflection as a struct envelope.
struct Point {
  int x = 0;
  std::string name;
  friend bool operator==(const Point&, const Point&) = default;
};

/// A class without a default constructor, which bifrons creates with its load_and_construct
/// (detail/creation.hpp). The same bytes as Point: Made(1, "a") is 06 02 01 61.
class Made {
 public:
  Made(int id, std::string name) : id_(id), name_(std::move(name)) {}
  int id() const { return id_; }
  const std::string& name() const { return name_; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(id_, name_);
  }
  template <class Archive>
  static Made load_and_construct(Archive& ar) {
    int id = 0;
    std::string name = "missing";
    ar(id, name);
    return Made(id, std::move(name));
  }
  friend bool operator==(const Made&, const Made&) = default;
  friend bool operator<(const Made& a, const Made& b) { return a.id_ < b.id_; }

 private:
  int id_;
  std::string name_;
};

/// The i-th sample value of T; distinct for small i, covering negative and large values.
template <class T>
T sample(std::size_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 == 1;
  } else if constexpr (std::is_same_v<T, std::byte>) {
    return static_cast<std::byte>(i * 37 + 1);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<double>(i) * 0.25 - 100.0);
  } else if constexpr (std::is_integral_v<T>) {
    // Multiplicative hashing spreads i over the whole range, including negative values.
    return static_cast<T>(static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "s" + std::to_string(i);
  } else if constexpr (std::is_same_v<T, Point>) {
    return Point{static_cast<int>(i) - 50, "p" + std::to_string(i)};
  } else if constexpr (std::is_same_v<T, std::vector<int>>) {
    return std::vector<int>(i % 4, static_cast<int>(i));
  } else if constexpr (std::is_same_v<T, std::optional<int>>) {
    return i % 2 ? std::optional<int>(static_cast<int>(i)) : std::nullopt;
  } else if constexpr (std::is_same_v<T, std::pair<int, std::string>>) {
    return {static_cast<int>(i), std::to_string(i)};
  } else {
    static_assert(sizeof(T) == 0, "no sample for this type");
  }
}

template <class T>
std::vector<T> samples(std::size_t n, std::size_t first = 0) {
  std::vector<T> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(sample<T>(first + i));
  return out;
}

/// Builds a container of type C from the elements of v.
template <class C, class T>
C make(const std::vector<T>& v) {
  return C(v.begin(), v.end());
}

// detail/range_traits.hpp reads the iterator's declared category instead of checking the standard
// range concepts (for compile time); for the types the codecs meet the two must agree.
template <class R>
constexpr bool range_traits_agree() {
  namespace d = bifrons::detail;
  if constexpr (!std::ranges::range<R>) {
    return !d::range<R>;
  } else {
    return d::range<R> && std::is_same_v<d::range_value_t<R>, std::ranges::range_value_t<R>> &&
           d::contiguous_range<R> == std::ranges::contiguous_range<R> &&
           d::random_access_range<R> == std::ranges::random_access_range<R> &&
           d::bidirectional_range<R> == std::ranges::bidirectional_range<R>;
  }
}

}  // namespace bifrons_test
