// SPDX-License-Identifier: MIT
#pragma once
// Streaming several values: bifrons::writer and bifrons::reader, used as w(a, b, c) and
// r(a, b, c), over a byte container or an iostream. The values are simply concatenated; each
// struct's envelope keeps an older reader in step with a newer writer.

#include <algorithm>
#include <cstddef>
#include <istream>
#include <iterator>
#include <new>
#include <ostream>
#include <span>
#include <type_traits>
#include <vector>

#include "core.hpp"

namespace bifrons {

/// Appends values to a byte container or writes them to a std::ostream.
template <class Target>
class writer {
 public:
  explicit writer(Target& target) noexcept : target_(target) {}

  /// Writes each value in turn. Throws bifrons::error (stream_error) if the stream fails;
  /// under -fno-exceptions check ok() instead.
  template <class... Ts>
  writer& operator()(const Ts&... values) {
    if constexpr (std::is_base_of_v<std::ostream, Target>) {
      buffer_.clear();
      (to_bytes(values, buffer_), ...);
      target_.write(reinterpret_cast<const char*>(buffer_.data()), static_cast<std::streamsize>(buffer_.size()));
      if (!target_) {
        ok_ = false;
#if BIFRONS_HAS_EXCEPTIONS
        detail::raise(errc::stream_error, buffer_.size());
#endif
      }
    } else {
      static_assert(detail::byte_container<Target>,
                    "bifrons::writer writes to a std::ostream or a resizable byte container");
      (to_bytes(values, target_), ...);
    }
    return *this;
  }

  [[nodiscard]] bool ok() const noexcept { return ok_; }

 private:
  Target& target_;
  std::vector<std::byte> buffer_;
  bool ok_ = true;
};

template <class Target>
writer(Target&) -> writer<Target>;

/// Reads values one after another from bytes, or from a std::istream (which it reads to its end
/// first, into a buffer it owns: for sockets and pipes, frame the messages yourself). The
/// buffer counts toward read_options::max_alloc_bytes: a stream longer than the budget fails
/// with allocation_limit_exceeded (at the first byte past it) without being read further.
/// The bytes must outlive the reader; views (string_view, span) read point into them.
class reader {
 public:
  template <detail::byte_input Bytes>
  explicit reader(const Bytes& bytes, const read_options& options = {}) noexcept
      : src_(detail::input_bytes(bytes).data(), detail::input_bytes(bytes).size(), options),
        canonical_only_(options.canonical_only) {}

  explicit reader(std::istream& stream, const read_options& options = {})
      : owned_(slurp(stream, options.max_alloc_bytes)),
        src_(owned_.data(), owned_.size(), options),
        canonical_only_(options.canonical_only) {
    if (stream.bad())
      src_.fail(errc::stream_error);
    else
      (void)src_.charge(owned_.data() + std::min(owned_.size(), options.max_alloc_bytes), owned_.size(), 1);
  }

  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;

  /// Reads each value in turn, into existing objects (their storage is reused). Throws
  /// bifrons::error on failure; under -fno-exceptions check ok() instead. After a failure every
  /// later read fails too.
  template <class... Ts>
  reader& operator()(Ts&... values) {
    (read_one(values), ...);
    return *this;
  }

  /// Reads a new T, for types that bifrons creates itself (a class with load_and_construct, a
  /// private default constructor, a const T: see docs/api.md). Throws as operator(); under
  /// -fno-exceptions a failed read returns what it could make of the value: check ok().
  template <class T>
  [[nodiscard]] T read() {
    detail::new_object<T> made;
    read_one<T>(made, [&] {
      // Moved to the caller after the read: a trivially copyable T cannot keep a pointer into
      // itself (core.hpp, read_all).
      if constexpr (detail::may_hold_pointers<T>() && std::is_trivially_copyable_v<T>)
        src_.value_moves(std::addressof(made), sizeof made);
      detail::read_new(src_, made);
    });
    return std::move(*made.value);
  }

  [[nodiscard]] bool ok() const noexcept { return !src_.failed(); }
  /// The first failure's code (errc::ok while none), as result::code() and error::code() say it.
  [[nodiscard]] errc code() const noexcept { return src_.error(); }
  [[deprecated("bifrons: reader::error() is now reader::code(), the name result and error use")]] [[nodiscard]] errc
  error() const noexcept {
    return code();
  }
  /// The byte where the first failure happened, or the current position.
  [[nodiscard]] std::size_t offset() const noexcept { return ok() ? src_.offset() : src_.error_offset(); }
  /// After unexpected_end or count_exceeds_input: at least how many more bytes the value that ran
  /// out needed (bifrons::error::bytes_missing); 0 otherwise.
  [[nodiscard]] std::size_t bytes_missing() const noexcept { return src_.error_bytes_missing(); }
  [[nodiscard]] std::size_t remaining() const noexcept { return src_.remaining(); }
  /// True when every byte has been read.
  [[nodiscard]] bool done() const noexcept { return ok() && src_.at_limit(); }

 private:
  /// Reads the stream to its end, or up to one byte past `budget` (which the constructor then
  /// refuses), in chunks that never take the buffer past that.
  static std::vector<std::byte> slurp(std::istream& stream, std::size_t budget) {
    const std::size_t cap = budget == static_cast<std::size_t>(-1) ? budget : budget + 1;
    std::vector<std::byte> bytes;
    char chunk[4096];
    while (bytes.size() < cap) {
      const auto want = static_cast<std::streamsize>(std::min(sizeof chunk, cap - bytes.size()));
      if (!stream.read(chunk, want) && stream.gcount() == 0) break;
      const auto* first = reinterpret_cast<const std::byte*>(chunk);
      bytes.insert(bytes.end(), first, first + stream.gcount());
    }
    return bytes;
  }

  template <class T>
  void read_one(T& value) {
    read_one<T>(value, [&] { codec<T>::read(src_, value); });
  }

  /// Reads one top-level value with `read`; T is its type (value: a T or a new_object<T>). An
  /// exception from a hook passes through, unless the read had failed before it (the hook then
  /// refused what a failed field left): that failure is thrown instead.
  template <class T, class Value, class Read>
  void read_one(Value& value, Read&& read) {
    // After a failure (also a stream error found by the constructor) every read throws again
    // rather than silently leaving value alone.
    if (!src_.failed()) {
      src_.fresh = false;
      src_.track_objects(detail::may_hold_identity<T>());
      // Object ids start afresh at each value, also after an exception from a hook.
      struct value_end {
        detail::source& src;
        ~value_end() {
          if constexpr (detail::may_hold_pointers<T>()) src.end_value();
        }
      } end{src_};
      const std::byte* start = src_.position();
      [[maybe_unused]] auto path = detail::root_path<T>(src_);
      detail::read_sorting_exceptions(
          src_, read, [&] { src_.fail_at(errc::out_of_memory, src_.begin()); },  // offset 0, as from_bytes has it
          [] { detail::rethrow(); });
      if (canonical_only_ && !src_.failed()) {
        // Strict reading: the bytes of this value are exactly its encoding.
        const std::span<const std::byte> read(start, src_.position());
        const T* read_value = nullptr;
        if constexpr (std::is_same_v<Value, T>)
          read_value = &value;
        else
          read_value = &*value.value;
        if (const detail::read_status s = detail::compare_with_encoding(read, *read_value); s.code != errc::ok)
          src_.fail_at(s.code, s.code == errc::non_canonical ? start + s.offset : src_.begin());
      }
    }
#if BIFRONS_HAS_EXCEPTIONS
    if (src_.failed()) raise_failure();
#endif
  }

  /// Every read after a failure throws it again, with what the first throw said (the note that
  /// names what is at fault is taken once).
  [[noreturn]] void raise_failure() const {
    if (!failure_details_) {
#if BIFRONS_ERROR_PATHS
      failure_details_ = detail::make_details({}, src_.failure_path, src_.failure_type);
#endif
      failure_details_ = detail::with_pending_note(src_.error(), src_.error_offset(), std::move(failure_details_));
    }
    detail::raise(src_.error(), src_.error_offset(), src_.error_bytes_missing(), failure_details_);
  }
  mutable std::shared_ptr<const detail::failure_details> failure_details_;

  std::vector<std::byte> owned_;
  detail::source src_;
  bool canonical_only_;
  detail::object_table_owner objects_{src_};
};

}  // namespace bifrons
