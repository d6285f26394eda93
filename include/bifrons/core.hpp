#pragma once
// The core API: to_bytes, from_bytes, try_from_bytes, serialized_size, plus user classes and
// scalars. Standard containers live in bifrons/types/*.hpp (bifrons.hpp includes them all);
// streaming over containers and iostreams lives in bifrons/io.hpp.

#include <cstddef>
#include <new>
#include <ranges>
#include <span>
#include <type_traits>
#include <vector>

#include "detail/codec.hpp"
#include "detail/error.hpp"
#include "detail/evolution.hpp"
#include "detail/options.hpp"
#include "detail/source.hpp"
#include "types/arithmetic.hpp"

namespace bifrons {
namespace detail {

template <class C>
concept byte_like = sizeof(C) == 1 && (std::is_same_v<C, std::byte> || std::is_same_v<C, char> ||
                                       std::is_same_v<C, unsigned char> || std::is_same_v<C, signed char> ||
                                       std::is_same_v<C, char8_t>);

/// Any contiguous range of bytes: span<const std::byte>, string_view, vector<char>, ...
template <class R>
concept byte_input = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
                     byte_like<std::remove_cv_t<std::ranges::range_value_t<R>>>;

/// A caller's resizable byte container: vector of std::byte/char/unsigned char, std::string.
template <class C>
concept byte_container = requires(C& c, std::size_t n) {
  c.resize(n);
  { c.data() } -> std::convertible_to<const void*>;
  { c.size() } -> std::convertible_to<std::size_t>;
} && byte_like<typename C::value_type>;

template <byte_input R>
std::span<const std::byte> input_bytes(const R& r) noexcept {
  return {reinterpret_cast<const std::byte*>(std::ranges::data(r)), std::ranges::size(r)};
}

/// Writes v into out, which has exactly serialized_size(v) bytes.
template <class T>
void write_exact(std::byte* out, [[maybe_unused]] std::size_t size, const T& v) {
  [[maybe_unused]] std::byte* end = codec<T>::write(out, v);
#ifdef BIFRONS_CHECK_SIZES
  if (end != out + size) std::abort();
#endif
}

struct read_status {
  errc code;
  std::size_t offset;
};

// Flattened: with every codec inlined into one function, the cursor is a local whose address
// never escapes, so it can live in registers instead of being reloaded after each store into
// the object being read (stores through char* may alias anything). About -9% instructions on the
// Account model.
template <class T>
BIFRONS_FLATTEN read_status read_all(std::span<const std::byte> in, T& out, const read_options& options, bool fresh) {
  source src(in.data(), in.size(), options);
  src.fresh = fresh;
  codec<T>::read(src, out);
  if (!src.failed() && !src.at_limit()) src.fail(errc::trailing_bytes);
  return {src.error(), src.error_offset()};
}

/// Runs f, turning exceptions from user code and allocators into error codes.
template <class F>
read_status guarded(F&& f) noexcept {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return f();
  } catch (const error& e) {
    return {e.code(), e.offset()};
  } catch (const std::bad_alloc&) {
    return {errc::out_of_memory, 0};
  } catch (...) {
    return {errc::user_error, 0};
  }
#else
  return f();
#endif
}

}  // namespace detail

/// The exact number of bytes to_bytes(value) writes. Does not allocate.
template <class T>
[[nodiscard]] std::size_t serialized_size(const T& value) {
  return codec<T>::size(value);
}

/// Appends the encoding of value to out (a vector of bytes or chars, or a std::string).
/// One resize per call: reusing out does not reallocate once its capacity suffices.
/// Exception safety: strong for out's existing contents if resize throws.
template <class T, detail::byte_container Container>
void to_bytes(const T& value, Container& out) {
  const std::size_t size = serialized_size(value);
  const std::size_t old = out.size();
  out.resize(old + size);
  detail::write_exact(reinterpret_cast<std::byte*>(out.data()) + old, size, value);
}

/// The encoding of value in a new vector.
template <class T>
[[nodiscard]] std::vector<std::byte> to_bytes(const T& value) {
  std::vector<std::byte> out;
  to_bytes(value, out);
  return out;
}

/// Writes the encoding of value into a caller's fixed buffer and returns the bytes used.
/// If it does not fit, returns an error with code buffer_too_small (offset: the size needed)
/// and writes nothing.
template <class T>
[[nodiscard]] result<std::size_t> try_to_bytes(const T& value, std::span<std::byte> buffer) noexcept {
  const std::size_t size = serialized_size(value);
  if (size > buffer.size()) return {errc::buffer_too_small, size};
  detail::write_exact(buffer.data(), size, value);
  return size;
}

/// Throwing form of try_to_bytes: bifrons::error with code buffer_too_small when it does not fit.
template <class T>
std::size_t to_bytes(const T& value, std::span<std::byte> buffer) {
  const std::size_t size = serialized_size(value);
  if (size > buffer.size()) detail::raise(errc::buffer_too_small, size);
  detail::write_exact(buffer.data(), size, value);
  return size;
}

/// Reads a T from bytes, which must hold exactly one value. Throws bifrons::error on failure.
/// Fields that the data lacks (written by an older version) keep their default values.
template <class T, detail::byte_input Bytes>
[[nodiscard]] T from_bytes(const Bytes& bytes, const read_options& options = {}) {
  T value{};
  const auto status = detail::read_all(detail::input_bytes(bytes), value, options, true);
  if (status.code != errc::ok) detail::raise(status.code, status.offset);
  return value;
}

/// Reads into an existing object, reusing its storage. The result equals from_bytes<T>(bytes).
/// Exception safety: basic: on failure out is valid but unspecified.
template <class T, detail::byte_input Bytes>
void from_bytes(const Bytes& bytes, T& out, const read_options& options = {}) {
  const auto status = detail::read_all(detail::input_bytes(bytes), out, options, false);
  if (status.code != errc::ok) detail::raise(status.code, status.offset);
}

/// Non-throwing from_bytes: the value, or the error code and offset. Works with -fno-exceptions.
template <class T, detail::byte_input Bytes>
[[nodiscard]] result<T> try_from_bytes(const Bytes& bytes, const read_options& options = {}) noexcept {
  T value{};
  const auto status = detail::guarded([&] { return detail::read_all(detail::input_bytes(bytes), value, options, true); });
  if (status.code != errc::ok) return {status.code, status.offset};
  return result<T>(std::move(value));
}

}  // namespace bifrons
