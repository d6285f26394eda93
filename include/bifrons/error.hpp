// SPDX-License-Identifier: MIT
#pragma once
// Error codes, the exception type and the non-throwing result type.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
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
  object_limit_exceeded = 21, ///< more objects than read_options::max_objects (write: than 2^32 - 1)
  unknown_type = 22,          ///< a polymorphic type name not registered here, or a reference to a skipped object
  unregistered_type = 23,     ///< write: a polymorphic object's type is unregistered or unrelated to the pointer
  not_bifrons = 24,           ///< a framed read: no frame magic, or a format version this library does not know
  type_mismatch = 25,         ///< a framed read: the frame names another type
  newer_version = 26,         ///< a class that refuses newer data (bifrons_refuse_newer) met a version above its own
  non_canonical = 28,         ///< read_options::canonical_only: not the bytes a writer produces for the value
  checksum_mismatch = 29,     ///< a checksummed frame or a log record whose bytes are not those its checksum covers
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
    case errc::newer_version: return "class version newer than the reader's";
    case errc::non_canonical: return "not the canonical encoding of the value read";
    case errc::checksum_mismatch: return "checksum mismatch (the data is damaged)";
  }
  return "unknown error";
}

/// The codes only a writer reports, about the value rather than a byte (their offset is 0).
constexpr bool found_at_write(errc e) noexcept {
  return e == errc::unwritten_pointee || e == errc::ownership_conflict || e == errc::ownership_cycle ||
         e == errc::unregistered_type;
}

namespace detail {
struct result_access;

/// What a failure can tell besides its code and offset (shared by error and result, and only
/// allocated when there is something to tell).
struct failure_details {
  /// What else the failure says: what() of the exception a user hook threw (errc::user_error), or
  /// what is at fault (errc::type_mismatch, unknown_type, newer_version, unregistered_type).
  std::string note;
  std::string path;          ///< where in the value the read failed (BIFRONS_ERROR_PATHS)
  std::string type;          ///< the C++ type being read there (BIFRONS_ERROR_PATHS)
};

/// n in decimal, written at the end of digits (no allocation: messages are built on failure paths
/// that must not throw).
inline std::string_view decimal(char (&digits)[20], std::size_t n) noexcept {
  char* first = digits + sizeof digits;
  do {
    *--first = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n != 0);
  return std::string_view(first, static_cast<std::size_t>(digits + sizeof digits - first));
}

/// "bifrons: <description> at byte <offset>[ (at least <n> more bytes needed)][ in <path>
/// (<type>)][: <hook message>]".
//
// The pieces are gathered as views and copied once: std::to_string and a chain of operator+,
// inlined, made this cold function the largest of a minimal program (docs/design.md).
inline std::string failure_text(errc code, std::size_t offset, std::size_t bytes_missing,
                                const failure_details* details) {
  constexpr std::size_t max_pieces = 14;
  std::string_view pieces[max_pieces];
  std::size_t count = 0;
  auto add = [&](std::string_view piece) { pieces[count++] = piece; };
  char offset_digits[20];
  char missing_digits[20];
  add("bifrons: ");
  add(describe(code));
  if (found_at_write(code)) {
    add(" (found when writing)");
  } else {
    add(" at byte ");
    add(decimal(offset_digits, offset));
    if (bytes_missing != 0) {
      add(" (at least ");
      add(decimal(missing_digits, bytes_missing));
      add(bytes_missing == 1 ? " more byte needed)" : " more bytes needed)");
    }
  }
  if (details != nullptr) {
    if (!details->path.empty()) add(" in "), add(details->path);
    if (!details->type.empty()) add(" ("), add(details->type), add(")");
    if (!details->note.empty()) add(": "), add(details->note);
  }
  std::size_t length = 0;
  for (std::size_t i = 0; i < count; ++i) length += pieces[i].size();
  std::string text(length, '\0');
  char* out = text.data();
  for (std::size_t i = 0; i < count; ++i) out += pieces[i].copy(out, pieces[i].size());
  return text;
}
}  // namespace detail

/// Thrown by the throwing API. `offset()` is the byte of the input where reading failed
/// (for writes: the size the value needs); for unexpected_end, the first byte that is not
/// there: where the input, or the enclosing struct's body, ends. `bytes_missing()` is, for
/// unexpected_end and count_exceeds_input, at least how many more bytes the value that ran out
/// needed (0 for other errors). what() says it all in one line, with the message of the
/// exception a hook threw and, in programs built with BIFRONS_ERROR_PATHS, where in the value
/// the read failed (path() and type_name()).
class error : public std::runtime_error {
 public:
  error(errc code, std::size_t offset, std::size_t bytes_missing = 0,
        std::shared_ptr<const detail::failure_details> details = nullptr)
      : std::runtime_error(detail::failure_text(code, offset, bytes_missing, details.get())),
        code_(code),
        offset_(offset),
        bytes_missing_(bytes_missing),
        details_(std::move(details)) {}
  [[nodiscard]] errc code() const noexcept { return code_; }
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }
  [[nodiscard]] std::size_t bytes_missing() const noexcept { return bytes_missing_; }
  /// Where in the value the read failed, such as `Save.inventory.items[3].count`; empty unless
  /// the program is built with BIFRONS_ERROR_PATHS.
  [[nodiscard]] std::string_view path() const noexcept { return details_ ? details_->path : std::string_view(); }
  /// The C++ type being read there; empty unless built with BIFRONS_ERROR_PATHS.
  [[nodiscard]] std::string_view type_name() const noexcept { return details_ ? details_->type : std::string_view(); }

 private:
  errc code_;
  std::size_t offset_;
  std::size_t bytes_missing_;
  friend struct detail::result_access;
  std::shared_ptr<const detail::failure_details> details_;
};

namespace detail {
/// The codes whose failures are found deep inside a read or a write, where the names at fault are
/// known (the type the data names, the class and its versions, the dynamic type or the pointee a
/// writer met), but reported at the entry point, which knows only the code and the offset.
constexpr bool found_with_note(errc e) noexcept {
  return e == errc::unknown_type || e == errc::newer_version || e == errc::unregistered_type ||
         e == errc::unwritten_pointee;
}

// ---- the exception plumbing, once (a build without exceptions runs the action alone) ----------

/// Inside a handler: throws the exception being handled again.
[[noreturn]] inline void rethrow() {
#if BIFRONS_HAS_EXCEPTIONS
  throw;
#else
  std::abort();  // no handler runs without exceptions
#endif
}

/// action(), or fallback() where it throws std::bad_alloc.
template <class Action, class Fallback>
BIFRONS_INLINE auto or_if_out_of_memory(Action&& action, [[maybe_unused]] Fallback&& fallback) -> decltype(action()) {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return action();
  } catch (const std::bad_alloc&) {
    return fallback();
  }
#else
  return action();
#endif
}

/// action(), or fallback() where it throws anything: for what a report of a failure builds (a
/// message, its details), which must not replace the failure with another.
template <class Action, class Fallback>
auto or_if_throws(Action&& action, [[maybe_unused]] Fallback&& fallback) noexcept -> decltype(action()) {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return action();
  } catch (...) {
    return fallback();
  }
#else
  return action();
#endif
}

/// The note of the failure of one of those codes on this thread, from the place that failed to
/// the result or exception that reports it: it is taken only by a report of the same code at the
/// same offset (a failure is reported on the thread that found it), and only by the library's
/// own reports (raise, result_access), never by a result a user builds. Set on the failure path
/// only: the hot path of a read never touches it.
struct failure_note {
  std::string text;
  errc code = errc::ok;
  std::size_t offset = 0;
};
inline failure_note& pending_note() noexcept {
  static thread_local failure_note note;
  return note;
}
/// What takes the pending note into a report's details: null until the first note_failure on this
/// thread, so that a report (raise, result_access) only calls through it, and a program that
/// notes no failure (no pointers, no class versions) neither compiles the taking nor touches the
/// note's thread_local string.
using note_taker = std::shared_ptr<const failure_details> (*)(errc code, std::size_t offset,
                                                              std::shared_ptr<const failure_details> details) noexcept;
inline note_taker& pending_note_taker() noexcept {
  static thread_local note_taker taker = nullptr;
  return taker;
}
inline std::shared_ptr<const failure_details> take_pending_note(
    errc code, std::size_t offset, std::shared_ptr<const failure_details> details) noexcept;
/// Sets the pending note of a failure with `code` at `offset` to the concatenation of pieces
/// (none if there is no memory).
inline void note_failure(errc code, std::size_t offset, std::initializer_list<std::string_view> pieces) noexcept {
  failure_note& note = pending_note();
  note.text.clear();
  note.code = code;
  note.offset = offset;
  pending_note_taker() = &take_pending_note;
  or_if_throws(
      [&] {
        for (std::string_view piece : pieces) note.text.append(piece);
      },
      [&] { note.text.clear(); });
}
/// A name that the data spells, for a message: printable ASCII as it is, other bytes as \xNN, at
/// most `max` characters of it (a name from hostile input must not cut a message short with a
/// zero, forge a line of a log, or make a message of unbounded size).
inline std::string data_spelling(std::string_view name, std::size_t max = 128) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(name[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += digits[c >> 4];
      out += digits[c & 0xF];
    }
  }
  return out;
}
/// details, with the pending note of a failure with `code` at `offset` taken into them.
inline std::shared_ptr<const failure_details> take_pending_note(
    errc code, std::size_t offset, std::shared_ptr<const failure_details> details) noexcept {
  failure_note& note = pending_note();
  if (!found_with_note(code) || note.code != code || note.offset != offset || note.text.empty() ||
      (details && !details->note.empty()))
    return details;
  note.code = errc::ok;
  return or_if_throws(
      [&] {
        failure_details with{std::move(note.text), details ? details->path : std::string(),
                             details ? details->type : std::string()};
        note.text.clear();
        return std::make_shared<const failure_details>(std::move(with));
      },
      [&] {
        note.text.clear();
        return details;
      });
}

/// details, with the pending note of a failure with `code` at `offset` taken into them, if this
/// thread ever noted a failure (take_pending_note).
inline std::shared_ptr<const failure_details> with_pending_note(
    errc code, std::size_t offset, std::shared_ptr<const failure_details> details) noexcept {
  const note_taker take = pending_note_taker();
  return take ? take(code, offset, std::move(details)) : details;
}

[[noreturn]] inline void raise(errc code, std::size_t offset, std::size_t bytes_missing = 0,
                               std::shared_ptr<const failure_details> details = nullptr) {
#if BIFRONS_HAS_EXCEPTIONS
  throw error(code, offset, bytes_missing, with_pending_note(code, offset, std::move(details)));
#else
  (void)code;
  (void)offset;
  (void)bytes_missing;
  (void)details;
  std::abort();
#endif
}
}  // namespace detail

template <class T>
class result;

namespace detail {
/// The readers' way into a result (its value is read where it stays, see result::value_) and into
/// an error (a framed read reports its value's failure from the frame's first byte).
struct result_access {
  template <class T>
  static std::optional<T>& value(result<T>& r) noexcept {
    return r.value_;
  }
  template <class T>
  static void fail(result<T>& r, errc code, std::size_t offset, std::size_t bytes_missing,
                   std::shared_ptr<const failure_details> details) noexcept {
    r.value_.reset();
    r.code_ = code;
    r.offset_ = offset;
    r.bytes_missing_ = result<T>::saturate(bytes_missing);
    r.details_ = with_pending_note(code, offset, std::move(details));
  }
  /// A failed result that the library reports: with the pending note of its failure.
  template <class T>
  static result<T> failed(errc code, std::size_t offset, std::size_t bytes_missing = 0,
                          std::shared_ptr<const failure_details> details = nullptr) noexcept {
    return result<T>(code, offset, bytes_missing, with_pending_note(code, offset, std::move(details)));
  }
  /// The details of a failed result (to report the failure again, elsewhere).
  template <class T>
  static const std::shared_ptr<const failure_details>& details(const result<T>& r) noexcept {
    return r.details_;
  }
  /// The error e, found at `by` bytes further into the input (a frame's value starts there): the
  /// errors without a place (out of memory, found when writing) stay where they are.
  static error moved(const error& e, std::size_t by) {
    return error(e.code(), e.code() == errc::out_of_memory || found_at_write(e.code()) ? e.offset() : e.offset() + by,
                 e.bytes_missing(), e.details_);
  }
  template <class T>
  static void move(result<T>& r, std::size_t by) noexcept {
    if (r.code_ != errc::out_of_memory && !found_at_write(r.code_)) r.offset_ += by;
  }
};
}  // namespace detail

/// The outcome of a non-throwing call: a value, or an error code with the offset where it happened.
/// Exception safety: every member is noexcept except value(), which throws bifrons::error
/// (or aborts under -fno-exceptions) when there is no value.
template <class T>
class result {
 public:
  result(T value) noexcept(std::is_nothrow_move_constructible_v<T>) : value_(std::move(value)) {}
  result(errc code, std::size_t offset, std::size_t bytes_missing = 0,
         std::shared_ptr<const detail::failure_details> details = nullptr) noexcept
      : code_(code), bytes_missing_(saturate(bytes_missing)), offset_(offset), details_(std::move(details)) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  [[nodiscard]] errc code() const noexcept { return code_; }
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }
  /// As error::bytes_missing(): for unexpected_end and count_exceeds_input, at least how many more
  /// bytes the value that ran out needed; 0 otherwise.
  [[nodiscard]] std::size_t bytes_missing() const noexcept { return bytes_missing_; }
  /// The whole story in one line, as bifrons::error's what(): the code's description, the
  /// offset, and the message of the exception a user hook threw (errc::user_error) or, with
  /// BIFRONS_ERROR_PATHS, the path and type. Empty when there is a value.
  [[nodiscard]] std::string message() const {
    return has_value() ? std::string() : detail::failure_text(code_, offset_, bytes_missing_, details_.get());
  }
  /// See error::path() and error::type_name().
  [[nodiscard]] std::string_view path() const noexcept { return details_ ? details_->path : std::string_view(); }
  [[nodiscard]] std::string_view type_name() const noexcept { return details_ ? details_->type : std::string_view(); }

  T& value() & {
    if (!value_) detail::raise(code_, offset_, bytes_missing_, details_);
    return *value_;
  }
  const T& value() const& {
    if (!value_) detail::raise(code_, offset_, bytes_missing_, details_);
    return *value_;
  }
  T&& value() && {
    if (!value_) detail::raise(code_, offset_, bytes_missing_, details_);
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

  // The readers build the value inside its result, where it stays (core.hpp, frame.hpp): a
  // non-owning pointer read into it may point into the value itself.
  friend struct detail::result_access;

  std::optional<T> value_;
  errc code_ = errc::ok;
  std::uint32_t bytes_missing_ = 0;
  std::size_t offset_ = 0;
  std::shared_ptr<const detail::failure_details> details_;
};

}  // namespace bifrons
