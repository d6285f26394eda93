// SPDX-License-Identifier: MIT
#pragma once
// Error codes, the exception type and the non-throwing result type.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "detail/config.hpp"

namespace bifrons {

/// Why a read or a write failed. The numeric values are stable: tools may log them.
enum class errc : std::uint8_t {
  ok = 0,
  unexpected_end = 1,         ///< the input (or the enclosing struct) ended inside a value
  buffer_too_small = 2,       ///< the caller's fixed output buffer cannot hold the value
  malformed_varint = 3,       ///< a varint is longer than 10 bytes, overflows 64 bits or is not minimal
  value_out_of_range = 4,     ///< an integer does not fit the reader's type (narrowing, 32-bit host)
  invalid_value = 5,          ///< a bool, tag or index that the format does not allow
  count_exceeds_input = 6,    ///< a count is larger than the bytes left could hold
  depth_limit_exceeded = 7,   ///< nesting deeper than read_options::max_depth
  allocation_limit_exceeded = 8,  ///< the read would allocate more than read_options::max_alloc_bytes
  element_limit_exceeded = 9,     ///< a container has more than read_options::max_elements elements
  trailing_bytes = 10,        ///< from_bytes: bytes remain after the value
  duplicate_key = 11,         ///< a set or map holds the same key twice
  misaligned_view = 12,       ///< a span<const T> view would point at misaligned or byte-swapped data
  out_of_memory = 13,         ///< the allocator threw std::bad_alloc
  stream_error = 14,          ///< an iostream failed
  user_error = 15,            ///< a user load() threw an exception that is not a bifrons::error
  bucket_limit_exceeded = 16, ///< a hash bucket holds more keys than read_options::max_bucket_size
  invalid_stride = 17,        ///< a record's size in the data ends inside one of the reader's fields
  unwritten_pointee = 18,     ///< write: a non-owning pointer to an object not written before it in the message
  ownership_conflict = 19,    ///< write: an object owned twice, or by owners of different kinds
  ownership_cycle = 20,       ///< write: owning pointers form a cycle (it would leak): make one link a weak_ptr
  object_limit_exceeded = 21, ///< more objects than read_options::max_objects
  unknown_type = 22,          ///< a polymorphic type name not registered here, or a reference to a skipped object
  unregistered_type = 23,     ///< write: a polymorphic object's type is unregistered or unrelated to the pointer
  not_bifrons = 24,           ///< a framed read: no frame magic, or a format version this library does not know
  type_mismatch = 25,         ///< a framed read: the frame names another type
  non_canonical = 28,         ///< read_options::canonical_only: not the bytes a writer produces for the value
};

/// A short English description of an error code.
constexpr const char* describe(errc e) noexcept {
  switch (e) {
    case errc::ok: return "ok";
    case errc::unexpected_end: return "unexpected end of input";
    case errc::buffer_too_small: return "output buffer too small";
    case errc::malformed_varint: return "malformed varint";
    case errc::value_out_of_range: return "value out of range for the target type";
    case errc::invalid_value: return "invalid value";
    case errc::count_exceeds_input: return "element count exceeds the remaining input";
    case errc::depth_limit_exceeded: return "nesting depth limit exceeded";
    case errc::allocation_limit_exceeded: return "allocation budget exceeded";
    case errc::element_limit_exceeded: return "container element limit exceeded";
    case errc::trailing_bytes: return "trailing bytes after the value";
    case errc::duplicate_key: return "duplicate key";
    case errc::misaligned_view: return "span view into misaligned or byte-swapped data";
    case errc::out_of_memory: return "out of memory";
    case errc::stream_error: return "stream error";
    case errc::user_error: return "exception thrown by user code";
    case errc::bucket_limit_exceeded: return "hash bucket limit exceeded (colliding keys)";
    case errc::invalid_stride: return "record size ends inside a field";
    case errc::unwritten_pointee: return "non-owning pointer to an object not written before it";
    case errc::ownership_conflict: return "object owned twice or by owners of different kinds";
    case errc::ownership_cycle: return "owning pointers form a cycle (make one link a weak_ptr)";
    case errc::object_limit_exceeded: return "object limit exceeded";
    case errc::unknown_type: return "polymorphic type not registered in this program";
    case errc::unregistered_type: return "dynamic type not registered (or not as derived from the pointer's type)";
    case errc::not_bifrons: return "not bifrons data (no frame, or an unknown format version)";
    case errc::type_mismatch: return "the frame names another type";
    case errc::non_canonical: return "not the canonical encoding of the value read";
  }
  return "unknown error";
}

/// The codes only a writer reports, about the value rather than a byte (their offset is 0).
constexpr bool found_at_write(errc e) noexcept {
  return e == errc::unwritten_pointee || e == errc::ownership_conflict || e == errc::ownership_cycle ||
         e == errc::unregistered_type;
}

/// Thrown by the throwing API. `offset()` is the byte of the input where reading failed
/// (for writes: the size the value needs); for unexpected_end, the first byte that is not
/// there: where the input, or the enclosing struct's body, ends. `bytes_missing()` is, for
/// unexpected_end and count_exceeds_input, at least how many more bytes the value that ran out
/// needed (0 for other errors).
class error : public std::runtime_error {
 public:
  error(errc code, std::size_t offset, std::size_t bytes_missing = 0)
      : std::runtime_error(message(code, offset, bytes_missing)),
        code_(code),
        offset_(offset),
        bytes_missing_(bytes_missing) {}
  [[nodiscard]] errc code() const noexcept { return code_; }
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }
  [[nodiscard]] std::size_t bytes_missing() const noexcept { return bytes_missing_; }

 private:
  static std::string message(errc code, std::size_t offset, std::size_t bytes_missing) {
    std::string m = std::string("bifrons: ") + describe(code);
    if (found_at_write(code)) return m + " (found when writing)";
    m += " at byte " + std::to_string(offset);
    if (bytes_missing != 0)
      m += " (at least " + std::to_string(bytes_missing) +
           (bytes_missing == 1 ? " more byte needed)" : " more bytes needed)");
    return m;
  }

  errc code_;
  std::size_t offset_;
  std::size_t bytes_missing_;
};

namespace detail {
[[noreturn]] inline void raise(errc code, std::size_t offset, std::size_t bytes_missing = 0) {
#if BIFRONS_HAS_EXCEPTIONS
  throw error(code, offset, bytes_missing);
#else
  (void)code;
  (void)offset;
  (void)bytes_missing;
  std::abort();
#endif
}
}  // namespace detail

/// The outcome of a non-throwing call: a value, or an error code with the offset where it happened.
/// Exception safety: every member is noexcept except value(), which throws bifrons::error
/// (or aborts under -fno-exceptions) when there is no value.
template <class T>
class result {
 public:
  result(T value) noexcept(std::is_nothrow_move_constructible_v<T>) : value_(std::move(value)) {}
  result(errc code, std::size_t offset, std::size_t bytes_missing = 0) noexcept
      : code_(code), bytes_missing_(saturate(bytes_missing)), offset_(offset) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  [[nodiscard]] errc code() const noexcept { return code_; }
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }
  /// As error::bytes_missing(): for unexpected_end and count_exceeds_input, at least how many more
  /// bytes the value that ran out needed; 0 otherwise.
  [[nodiscard]] std::size_t bytes_missing() const noexcept { return bytes_missing_; }

  T& value() & {
    if (!value_) detail::raise(code_, offset_, bytes_missing_);
    return *value_;
  }
  const T& value() const& {
    if (!value_) detail::raise(code_, offset_, bytes_missing_);
    return *value_;
  }
  T&& value() && {
    if (!value_) detail::raise(code_, offset_, bytes_missing_);
    return std::move(*value_);
  }
  T& operator*() & noexcept { return *value_; }
  const T& operator*() const& noexcept { return *value_; }
  T* operator->() noexcept { return &*value_; }
  const T* operator->() const noexcept { return &*value_; }

 private:
  // In the padding after code_: a result is no larger for it. (Saturated: "at least" stays true.)
  static std::uint32_t saturate(std::size_t n) noexcept {
    return n < std::uint32_t(-1) ? static_cast<std::uint32_t>(n) : std::uint32_t(-1);
  }

  std::optional<T> value_;
  errc code_ = errc::ok;
  std::uint32_t bytes_missing_ = 0;
  std::size_t offset_ = 0;
};

}  // namespace bifrons
