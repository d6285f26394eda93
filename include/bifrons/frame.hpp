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
#include "schema.hpp"

namespace bifrons {

/// The first bytes of a framed value: 89 62 66 72 ("\x89bfr").
inline constexpr std::array<std::byte, 4> frame_magic{std::byte{0x89}, std::byte{0x62}, std::byte{0x66},
                                                      std::byte{0x72}};
/// The format version a frame written by this library carries, and the only one it reads.
inline constexpr std::uint32_t frame_format = 1;

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
  if (format != frame_format) return {errc::not_bifrons, frame_magic.size()};
  const std::size_t at = in.offset();
  const std::uint64_t length = in.read_varint();
  if (in.failed()) return {in.error(), in.error_offset()};
  if (length > in.remaining()) return {errc::unexpected_end, at};
  const auto* name = reinterpret_cast<const char*>(in.skip(static_cast<std::size_t>(length)));
  return frame{frame_format, std::string_view(name, static_cast<std::size_t>(length)), in.offset()};
}

/// Appends the framed encoding of value to out (a vector of bytes or chars, or a std::string).
template <class T, detail::byte_container Container>
void to_framed(const T& value, Container& out) {
  const std::string& name = frame_type_name<T>();
  std::byte header[frame_magic.size() + 2 * detail::max_varint_size];
  std::byte* p = std::copy(frame_magic.begin(), frame_magic.end(), header);
  p = detail::write_varint(p, frame_format);
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
}

/// The framed encoding of value in a new vector.
template <class T>
[[nodiscard]] std::vector<std::byte> to_framed(const T& value) {
  std::vector<std::byte> out;
  to_framed(value, out);
  return out;
}

namespace detail {
/// Where the value of a framed T starts in input, or why it does not: not_bifrons, the errors of
/// read_frame, or type_mismatch naming the type the frame holds and the one expected.
template <class T>
result<std::size_t> value_start(std::span<const std::byte> input, const read_options& options) noexcept {
  const result<frame> f = read_frame(input, options);
  if (!f) return {f.code(), f.offset(), f.bytes_missing()};
#if BIFRONS_HAS_EXCEPTIONS
  try {
#endif
    const std::string& expected = frame_type_name<T>();
    if (f->type_name == expected) return f->size;
    const std::string note = "the data holds \"" + std::string(f->type_name) + "\", this program reads \"" + expected + "\"";
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
  const result<std::size_t> start = detail::value_start<T>(input, options);
  if (!start) return {start.code(), start.offset(), start.bytes_missing(), detail::result_access::details(start)};
  // One named result on every path from here (returned where it was built: the value is not moved).
  result<T> value = try_from_bytes<T>(input.subspan(*start), options);
  if (!value) detail::result_access::move(value, *start);
  return value;
}

/// Reads a framed T: throws bifrons::error as from_bytes does (offsets from the frame's first
/// byte), with not_bifrons or type_mismatch for a frame that is not T's; exceptions from user
/// hooks pass through. T is made as from_bytes<T> makes it (load_and_construct too).
template <class T, detail::byte_input Bytes>
[[nodiscard]] T from_framed(const Bytes& bytes, const read_options& options = detail::default_read_options) {
  const std::span<const std::byte> input = detail::input_bytes(bytes);
  const std::size_t start = detail::value_start<T>(input, options).value();
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return from_bytes<T>(input.subspan(start), options);
  } catch (const error& e) {
    throw detail::result_access::moved(e, start);
  }
#else
  return from_bytes<T>(input.subspan(start), options);
#endif
}

}  // namespace bifrons
