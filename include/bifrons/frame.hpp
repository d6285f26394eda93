// SPDX-License-Identifier: MIT
#pragma once
// Typed files (docs/format.md section 30): an opt-in frame before the value, for files and
// messages that travel alone. It holds a magic, the format version and the name of the value's
// type, so that reading a file of another type fails with errc::type_mismatch, and reading
// something that is not bifrons at all with errc::not_bifrons, instead of parsing it.
//
//   std::vector<std::byte> file = bifrons::to_framed(save);
//   Save back = bifrons::from_framed<Save>(file);
//
// The value's bytes after the frame are exactly its unframed bytes; the unframed form stays the
// default. Opt-in like schema.hpp, which gives the type's name.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core.hpp"
#include "detail/crc32c.hpp"
#include "schema.hpp"

namespace bifrons {

/// The first bytes of a framed value: 89 62 66 72 ("\x89bfr").
inline constexpr std::array<std::byte, 4> frame_magic{std::byte{0x89}, std::byte{0x62}, std::byte{0x66},
                                                      std::byte{0x72}};
/// The format version a frame written by this library carries, and the only one it reads.
inline constexpr std::uint32_t frame_format = 1;

/// Whether a frame ends with a CRC32C of everything before it (docs/format.md section 30).
enum class frame_checksum : std::uint8_t { none, crc32c };
/// The bit of the frame's format word that announces the checksum: readers that predate it see
/// another format version (17, not 1) and refuse the frame with not_bifrons.
inline constexpr std::uint32_t frame_crc32c_flag = 0x10;
/// The checksum's bytes at the end of a checksummed frame.
inline constexpr std::size_t frame_checksum_size = 4;

/// The name a frame of T carries: T's schema name for a struct, record or enum (schema_name<T>
/// or the C++ name), the one-line type spelling of docs/schema.md otherwise
/// (`sequence<i32>`). Computed once per type, from names alone: no class is looked into, so every
/// class that can be read can be framed (load_and_construct ones too).
template <class T>
const std::string& frame_type_name() {
  static const std::string name = [] {
    detail::name_builder builder;
    return detail::spelling(builder.describe<std::remove_cvref_t<T>>());
  }();
  return name;
}

/// What a frame says about the value after it.
struct frame {
  std::uint32_t format = 0;
  std::string_view type_name;  ///< points into the input
  std::size_t size = 0;        ///< the frame's bytes: the value starts there
  frame_checksum checksum = frame_checksum::none;  ///< crc32c: the input's last 4 bytes are its checksum
};

/// Reads the frame at the start of bytes, without a type: not_bifrons (no magic at 0, another
/// format version at 4), or the varint and length errors of the name, with their offsets.
inline result<frame> read_frame(std::span<const std::byte> bytes,
                                const read_options& options = detail::default_read_options) noexcept {
  if (bytes.size() < frame_magic.size() || !std::equal(frame_magic.begin(), frame_magic.end(), bytes.begin()))
    return {errc::not_bifrons, 0};
  detail::source in(bytes.data(), bytes.size(), options);
  (void)in.skip(frame_magic.size());
  const std::uint64_t format = in.read_varint();
  if (in.failed()) return {in.error(), in.error_offset()};
  if (format != frame_format && format != (frame_format | frame_crc32c_flag))
    return {errc::not_bifrons, frame_magic.size()};
  const std::size_t at = in.offset();
  const std::uint64_t length = in.read_varint();
  if (in.failed()) return {in.error(), in.error_offset()};
  if (length > in.remaining()) return {errc::unexpected_end, at};
  const auto* name = reinterpret_cast<const char*>(in.skip(static_cast<std::size_t>(length)));
  return frame{frame_format, std::string_view(name, static_cast<std::size_t>(length)), in.offset(),
               format == frame_format ? frame_checksum::none : frame_checksum::crc32c};
}

namespace detail {
/// The value's bytes in a framed input: from the end of the frame f to the end of the input, or
/// for a checksummed frame to its checksum, which is checked first (checksum_mismatch at the
/// checksum's first byte; unexpected_end when the input ends before there is room for it).
inline result<std::span<const std::byte>> framed_value(std::span<const std::byte> input, const frame& f) noexcept {
  if (f.checksum == frame_checksum::none) return input.subspan(f.size);
  if (input.size() - f.size < frame_checksum_size)
    return {errc::unexpected_end, input.size(), frame_checksum_size - (input.size() - f.size)};
  const std::size_t at = input.size() - frame_checksum_size;
  if (crc32c(0, input.data(), at) != load_le<std::uint32_t>(input.data() + at)) return {errc::checksum_mismatch, at};
  return input.subspan(f.size, at - f.size);
}
}  // namespace detail

/// Appends the framed encoding of value to out (a vector of bytes or chars, or a std::string).
/// A checksummed frame (frame_checksum::crc32c) ends with the CRC32C of all its bytes before it.
template <class T, detail::byte_container Container>
void to_framed(const T& value, Container& out, frame_checksum checksum = frame_checksum::none) {
  const std::string& name = frame_type_name<T>();
  std::byte header[frame_magic.size() + 2 * detail::max_varint_size];
  std::byte* p = std::copy(frame_magic.begin(), frame_magic.end(), header);
  p = detail::write_varint(p, checksum == frame_checksum::crc32c ? frame_format | frame_crc32c_flag : frame_format);
  p = detail::write_varint(p, name.size());
  using C = typename Container::value_type;
  const std::size_t old = out.size();
  out.resize(old + static_cast<std::size_t>(p - header) + name.size());
  auto* dest = reinterpret_cast<std::byte*>(out.data()) + old;
  dest = std::copy(header, p, dest);
  std::copy(reinterpret_cast<const std::byte*>(name.data()),
            reinterpret_cast<const std::byte*>(name.data()) + name.size(), dest);
  static_assert(sizeof(C) == 1);
  to_bytes(value, out);
  if (checksum == frame_checksum::crc32c) {
    const auto* framed = reinterpret_cast<const std::byte*>(out.data()) + old;
    const std::uint32_t crc = detail::crc32c(0, framed, out.size() - old);
    out.resize(out.size() + frame_checksum_size);
    detail::store_le(reinterpret_cast<std::byte*>(out.data()) + out.size() - frame_checksum_size, crc);
  }
}

/// The framed encoding of value in a new vector.
template <class T>
[[nodiscard]] std::vector<std::byte> to_framed(const T& value, frame_checksum checksum = frame_checksum::none) {
  std::vector<std::byte> out;
  to_framed(value, out, checksum);
  return out;
}

namespace detail {
/// The bytes of the value of a framed T in input, or why there are none: not_bifrons, the errors
/// of read_frame, checksum_mismatch (checked before the name: a damaged name is reported as damage,
/// not as another type), or type_mismatch naming the type the frame holds and the one expected.
template <class T>
result<std::span<const std::byte>> value_of_frame(std::span<const std::byte> input,
                                                  const read_options& options) noexcept {
  const result<frame> f = read_frame(input, options);
  if (!f) return {f.code(), f.offset(), f.bytes_missing()};
  result<std::span<const std::byte>> body = framed_value(input, *f);
  if (!body) return body;
#if BIFRONS_HAS_EXCEPTIONS
  try {
#endif
    const std::string& expected = frame_type_name<T>();
    if (f->type_name == expected) return body;
    const std::string note = "the data holds \"" + data_spelling(f->type_name) + "\", this program reads \"" +
                             expected + "\"";
    return {errc::type_mismatch, frame_magic.size() + varint_size(frame_format), 0, make_details(note)};
#if BIFRONS_HAS_EXCEPTIONS
  } catch (...) {
    return {errc::out_of_memory, 0};
  }
#endif
}
}  // namespace detail

/// Non-throwing from_framed: the value, or the error and its offset from the frame's first byte:
/// not_bifrons and type_mismatch for a frame that is not T's, or what try_from_bytes reports
/// (with its bytes_missing() and message).
template <class T, detail::byte_input Bytes>
[[nodiscard]] result<T> try_from_framed(const Bytes& bytes,
                                        const read_options& options = detail::default_read_options) noexcept {
  const std::span<const std::byte> input = detail::input_bytes(bytes);
  const result<std::span<const std::byte>> body = detail::value_of_frame<T>(input, options);
  if (!body) return {body.code(), body.offset(), body.bytes_missing(), detail::result_access::details(body)};
  const std::size_t start = static_cast<std::size_t>(body->data() - input.data());
  // One named result on every path from here (returned where it was built: the value is not moved).
  result<T> value = try_from_bytes<T>(*body, options);
  if (!value) detail::result_access::move(value, start);
  return value;
}

/// Reads a framed T: throws bifrons::error as from_bytes does (offsets from the frame's first
/// byte), with not_bifrons or type_mismatch for a frame that is not T's; exceptions from user
/// hooks pass through. T is made as from_bytes<T> makes it (load_and_construct too).
template <class T, detail::byte_input Bytes>
[[nodiscard]] T from_framed(const Bytes& bytes, const read_options& options = detail::default_read_options) {
  const std::span<const std::byte> input = detail::input_bytes(bytes);
  const std::span<const std::byte> body = detail::value_of_frame<T>(input, options).value();
  const std::size_t start = static_cast<std::size_t>(body.data() - input.data());
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return from_bytes<T>(body, options);
  } catch (const error& e) {
    throw detail::result_access::moved(e, start);
  }
#else
  return from_bytes<T>(body, options);
#endif
}

}  // namespace bifrons
