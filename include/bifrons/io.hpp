#pragma once
// Streaming several values: bifrons::writer and bifrons::reader, used as w(a, b, c) and
// r(a, b, c), over a byte container or an iostream. The values are simply concatenated; each
// struct's envelope keeps an older reader in step with a newer writer.

#include <cstddef>
#include <istream>
#include <iterator>
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
/// first, into a buffer it owns: for sockets and pipes, frame the messages yourself).
/// The bytes must outlive the reader; views (string_view, span) read point into them.
class reader {
 public:
  template <detail::byte_input Bytes>
  explicit reader(const Bytes& bytes, const read_options& options = {}) noexcept
      : src_(detail::input_bytes(bytes).data(), detail::input_bytes(bytes).size(), options) {}

  explicit reader(std::istream& stream, const read_options& options = {})
      : owned_(slurp(stream)), src_(owned_.data(), owned_.size(), options) {
    if (stream.bad()) src_.fail(errc::stream_error);
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

  [[nodiscard]] bool ok() const noexcept { return !src_.failed(); }
  [[nodiscard]] errc error() const noexcept { return src_.error(); }
  /// The byte where the first failure happened, or the current position.
  [[nodiscard]] std::size_t offset() const noexcept { return ok() ? src_.offset() : src_.error_offset(); }
  [[nodiscard]] std::size_t remaining() const noexcept { return src_.remaining(); }
  /// True when every byte has been read.
  [[nodiscard]] bool done() const noexcept { return ok() && src_.at_limit(); }

 private:
  static std::vector<std::byte> slurp(std::istream& stream) {
    std::vector<std::byte> bytes;
    char chunk[4096];
    while (stream.read(chunk, sizeof chunk) || stream.gcount() > 0) {
      const auto* first = reinterpret_cast<const std::byte*>(chunk);
      bytes.insert(bytes.end(), first, first + stream.gcount());
    }
    return bytes;
  }

  template <class T>
  void read_one(T& value) {
    // After a failure (also a stream error found by the constructor) every read throws again
    // rather than silently leaving value alone.
    if (!src_.failed()) {
      src_.fresh = false;
      codec<T>::read(src_, value);
    }
#if BIFRONS_HAS_EXCEPTIONS
    if (src_.failed()) detail::raise(src_.error(), src_.error_offset());
#endif
  }

  std::vector<std::byte> owned_;
  detail::source src_;
};

}  // namespace bifrons
