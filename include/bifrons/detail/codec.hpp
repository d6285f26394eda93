// SPDX-License-Identifier: MIT
#pragma once
// The archive core: the codec customization point and the three archives that user hooks see.
//
// Every type has a codec<T> with
//   static constexpr std::size_t min_size;            // fewest bytes any value of T encodes to
//   static std::size_t size(const T&);                 // exact encoded size
//   static std::byte* write(std::byte* out, const T&); // unchecked: out has size(value) bytes
//   static void read(source& in, T&);                  // bounded: failures go to in's sticky error
// Writing is two passes (size, then unchecked write) so that a message takes one allocation and
// the write loop carries no bounds checks, as in zpp::bits and struct_pack.
//
// Optional members, for speed only (each one is a promise the unchecked write relies on):
//   static constexpr std::size_t max_size;             // most bytes any value encodes to
//   static std::size_t size_bound(const T&);           // a cheap upper bound of size()
//   static constexpr std::size_t fixed_width;          // every value takes exactly this many bytes,
//   static void read_fixed(source&, const std::byte* p, T&); // ...read from p, already taken
// With them, small messages skip the exact size pass: the output gets room for the bound and is
// cut back to what was written (see to_bytes).
//   static std::byte* write_head(std::byte* out, const T&);        // at most max_head_size bytes,
//   static std::span<const std::byte> tail(const T&) noexcept;     // ...then these bytes: the whole
//                                                                  // encoding (see raw_tail_codec)
//
// The primary template (in struct_codec.hpp) handles user classes; library types are partial
// specializations in bifrons/types/*.hpp. codec<T> is not a public extension point: its input
// type (source) is internal and may change. User types customize their encoding with hooks
// (docs/design.md explains the decision).

// The core's include graph leaves out <ranges>, <functional> and <algorithm>, whose views,
// searchers and parallel overloads it does not use and which cost a minimal program a sixth of
// its compile (docs/design.md). Ranges are asked about through range_traits.hpp; std::less comes
// with <memory>, and std::min, std::max and std::mismatch with <memory> and <string>, in
// libstdc++ and libc++ alike (the libcxx test stage builds every test with libc++).
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <type_traits>
#include <utility>

#include "encoding.hpp"
#include "paths.hpp"
#include "range_traits.hpp"
#include "source.hpp"

namespace bifrons {

template <class T>
struct codec;

/// The base of the archives that hooks receive. Its one role: a free hook declared in namespace
/// bifrons is found through it by argument-dependent lookup, which is where the hooks of a type
/// one cannot edit go (a standard type, or a third-party type whose namespace is not yours).
struct archive_base {};

namespace detail {

template <class T>
using codec_of = codec<std::remove_cvref_t<T>>;

template <class T>
inline constexpr std::size_t min_size_of = codec_of<T>::min_size;

/// Codecs whose encoding always takes exactly fixed_width bytes (floating point, one-byte types,
/// arrays of them) may declare it, with read_fixed(in, p, v): read() for when the caller has
/// already taken those bytes from in, at p. (read_fixed reports invalid values through in.)
template <class T>
concept fixed_width_codec = requires(source& in, const std::byte* p, std::remove_cvref_t<T>& v) {
  { codec_of<T>::fixed_width } -> std::convertible_to<std::size_t>;
  codec_of<T>::read_fixed(in, p, v);
} && (codec_of<T>::fixed_width > 0);

/// The most bytes any value of T encodes to, for codecs that declare
/// `static constexpr std::size_t max_size`; unbounded for the others (strings, containers, ...).
inline constexpr std::size_t unbounded = static_cast<std::size_t>(-1);
template <class T>
inline constexpr std::size_t max_size_of = [] {
  if constexpr (requires { codec_of<T>::max_size; })
    return static_cast<std::size_t>(codec_of<T>::max_size);
  else
    return unbounded;
}();

/// Codecs whose encoding is a short head (at most max_head_size bytes: a count, a stride) then
/// bytes that are in memory already (the elements of a vector of numbers, a string's characters)
/// may declare write_head(out, v) and tail(v). to_bytes(value, container) then appends the two
/// without first resizing the container, which would zero-fill what is written over at once.
inline constexpr std::size_t max_head_size = 2 * max_varint_size;
template <class T>
concept raw_tail_codec = requires(std::byte* out, const T& v) {
  { codec_of<T>::write_head(out, v) } -> std::same_as<std::byte*>;
  { codec_of<T>::tail(v) } -> std::same_as<std::span<const std::byte>>;
};

/// a + b, staying unbounded when either is.
constexpr std::size_t add_bounds(std::size_t a, std::size_t b) noexcept {
  return a == unbounded || b == unbounded || b > unbounded - a ? unbounded : a + b;
}

/// Value-independent "false" for static_asserts in templates.
template <class...>
inline constexpr bool always_false = false;

/// Passed to user hooks during the size pass.
class size_archive : public archive_base {
 public:
  static constexpr bool is_loading = false;
  static constexpr bool is_saving = true;

  template <class... Args>
  BIFRONS_INLINE void operator()(Args&&... args) {
    ((size_ += codec_of<Args>::size(args)), ...);
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  void add(std::size_t n) noexcept { size_ += n; }

 private:
  std::size_t size_ = 0;
};

/// An upper bound on codec<T>::size(v) that is cheaper to compute: the codec's max_size where it
/// has one (no look at the value at all), else its size_bound(v) where it has one, else size(v).
template <class T>
BIFRONS_INLINE std::size_t size_bound_of(const T& v) {
  if constexpr (max_size_of<T> != unbounded)
    return max_size_of<T>;
  else if constexpr (requires { codec_of<T>::size_bound(v); })
    return codec_of<T>::size_bound(v);
  else
    return codec_of<T>::size(v);
}

/// Sums size_bound_of over the fields of a struct without hooks (hooks see only the archives
/// documented for them).
class bound_archive {
 public:
  template <class... Args>
  BIFRONS_INLINE void operator()(Args&&... args) {
    ((size_ += size_bound_of(args)), ...);
  }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  void add(std::size_t n) noexcept { size_ += n; }

 private:
  std::size_t size_ = 0;
};

/// Passed to user hooks during the write pass. The buffer was sized by the size pass.
class output_archive : public archive_base {
 public:
  static constexpr bool is_loading = false;
  static constexpr bool is_saving = true;

  explicit output_archive(std::byte* out) noexcept : out_(out) {}

  template <class... Args>
  BIFRONS_INLINE void operator()(Args&&... args) {
    ((out_ = codec_of<Args>::write(out_, args)), ...);
  }
  [[nodiscard]] std::byte* position() const noexcept { return out_; }

 private:
  std::byte* out_;
};

/// Passed to user hooks when reading. A field the data does not have (an older writer's
/// struct ended before it) is left alone: it keeps its default value.
class input_archive : public archive_base {
 public:
  static constexpr bool is_loading = true;
  static constexpr bool is_saving = false;

  explicit input_archive(source& in) noexcept : in_(in) {}

  template <class... Args>
  BIFRONS_INLINE void operator()(Args&&... args) {
    [&]<std::size_t... I>(std::index_sequence<I...>)
        BIFRONS_INLINE_LAMBDA { (read_field<I>(args), ...); }(std::index_sequence_for<Args...>{});
  }

  /// Fails the read with `code` at the current byte, for a hook whose data breaks an invariant
  /// of its class: `if (count > capacity) ar.fail(bifrons::errc::invalid_value);`. The error
  /// reaches the caller like any other (with this offset); the fields after it are not read.
  /// Only input archives have it: in a serialize() hook, call it under
  /// `if constexpr (Archive::is_loading)`. (It is const so that load_minimal, which receives a
  /// const archive, can call it.)
  void fail(errc code) const noexcept { in_.fail(code); }

  /// True once a field was missing from the data (the envelope ended before it).
  [[nodiscard]] bool missing() const noexcept { return first_missing_ != none_missing; }
  /// The position, among the arguments of its call, of the first field that was missing. For an
  /// aggregate, whose fields are read in one call, the fields from there on are the ones the data
  /// lacks (once the envelope has ended, every later field is missing too).
  [[nodiscard]] std::size_t first_missing() const noexcept { return first_missing_; }
  [[nodiscard]] source& input() noexcept { return in_; }

 private:
  // Once the envelope has ended, at_limit() stays true for every later field (and after an
  // error the limit is pulled down to the cursor), so one comparison per field suffices.
  template <std::size_t Position, class T>
  BIFRONS_INLINE void read_field(T& field) {
#if BIFRONS_ERROR_PATHS
    if (!in_.failed()) field_path(in_, next_field_++, names_, field);
#endif
    if constexpr (requires { codec_of<T>::met_before(in_, field); }) {
      if (codec_of<T>::met_before(in_, field)) return;
    }
    if constexpr (fixed_width_codec<T>) {
      // One comparison answers both "is the field there?" and the field's own bounds check.
      // (Left to the compiler, the second check stayed.)
      if (in_.remaining() >= codec_of<T>::fixed_width) [[likely]] {
        codec_of<T>::read_fixed(in_, in_.skip(codec_of<T>::fixed_width), field);
        return;
      }
      if (in_.at_limit()) {
        note_missing(Position);
        return;
      }
    } else {
      if (in_.at_limit()) [[unlikely]] {
        note_missing(Position);
        return;
      }
    }
    codec_of<T>::read(in_, field);
  }

  void note_missing(std::size_t position) noexcept {
    if (first_missing_ == none_missing) first_missing_ = position;
  }

  static constexpr std::size_t none_missing = std::size_t(-1);
  source& in_;
  std::size_t first_missing_ = none_missing;
#if BIFRONS_ERROR_PATHS
 public:
  /// The names of an aggregate's members, for error paths (a hook's fields have none).
  const std::string_view* names_ = nullptr;

 private:
  std::size_t next_field_ = 0;
#endif
};

}  // namespace detail
}  // namespace bifrons
