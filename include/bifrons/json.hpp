// SPDX-License-Identifier: MIT
#pragma once
// A readable dump of a value from inside the program: the JSON that bifrons-inspect prints for
// the value's bytes read with the value's schema (docs/schema.md, section 10), made by the
// inspector's own decoder (detail/inspect/), so that the two cannot disagree.
//
//   std::string text = bifrons::to_json(account);
//   std::string text = bifrons::to_json<Circle, Square>(drawing);  // registered classes it may hold
//
// Opt-in: nothing else includes this header, and a program that does not include it does not
// parse the decoder.

#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core.hpp"
#include "error.hpp"
#include "read_options.hpp"
#include "schema.hpp"

#if BIFRONS_HAS_EXCEPTIONS
#include "detail/inspect/decoder.hpp"
#endif

namespace bifrons {

struct json_options {
  /// Spaces per level of nesting, as bifrons-inspect prints (2); 0 puts the value on one line.
  /// (Taken as at most 16: a wider indent is 16.)
  int indent = 2;
  /// Every character outside printable ASCII as a \u escape (Python's ensure_ascii), for logs
  /// that are not UTF-8; bifrons-inspect prints UTF-8 as it is.
  bool ascii = false;
  /// The limits the value's bytes are read with, as bifrons-inspect reads a file: a value that
  /// nests deeper than max_depth, or holds more than max_elements or max_objects, fails as
  /// reading it back would. max_alloc_bytes bounds what the dump holds (its JSON values and
  /// text), not the C++ value's size. unknown_types: see to_json. max_bucket_size and
  /// canonical_only do not apply (the bytes are the value's own).
  read_options limits{};
};

#if BIFRONS_HAS_EXCEPTIONS

namespace detail {

/// The schema model of T and Registered..., loaded from the text schema<T, Registered...>()
/// returns, which is what bifrons-inspect loads: once per program and type.
template <class T, class... Registered>
const inspect::schema& inspect_schema_of() {
  static const inspect::schema model = inspect::load_schema_text(bifrons::schema<T, Registered...>());
  return model;
}

}  // namespace detail

/// The JSON text of value (without a final newline): what `bifrons-inspect --schema <schema>
/// <bytes>` prints for schema<T, Registered...>() and to_bytes(value). Registered... are the
/// registered polymorphic classes that pointers in value may hold, as schema() takes them: an
/// object of a registered class not listed fails with unknown_type, naming its registered name
/// (or reads as null with options.limits.unknown_types = unknown_type_policy::null).
///
/// Fails with the code of to_bytes for a value that cannot be written (unwritten_pointee,
/// ownership_conflict, unregistered_type, ...), and with the decoder's code, offset and field
/// path (error::path()) past options.limits. Throws std::logic_error for a type schema() refuses.
template <class... Registered, class T>
[[nodiscard]] result<std::string> try_to_json(const T& value, const json_options& options = {}) {
  using value_type = std::remove_cvref_t<T>;
  try {
    const detail::inspect::schema& model = detail::inspect_schema_of<value_type, Registered...>();
    // Sized by the cheap bound where there is one: a value with pointers has none that does not
    // run the size pass, which the first try_to_bytes runs (and which finds what cannot be
    // written). (A constant empty buffer also made GCC 12 at -O2 warn about a copy it cannot make.)
    std::vector<std::byte> bytes;
    if constexpr (!detail::needs_write_session<value_type>) bytes.resize(size_bound(value));
    result<std::size_t> written = try_to_bytes(value, std::span<std::byte>(bytes));
    if (!written && written.code() == errc::buffer_too_small) {
      bytes.resize(written.offset());
      written = try_to_bytes(value, std::span<std::byte>(bytes));
    }
    if (!written)
      return result<std::string>(written.code(), written.offset(), written.bytes_missing(),
                                 detail::result_access::details(written));
    detail::inspect::decode_options decode_options;
    decode_options.max_depth = options.limits.max_depth;
    decode_options.max_elements = options.limits.max_elements;
    decode_options.max_objects = options.limits.max_objects;
    decode_options.max_alloc_bytes = options.limits.max_alloc_bytes;
    decode_options.unknown_types_null = options.limits.unknown_types == unknown_type_policy::null;
    decode_options.unknown_type_hint =
        "list its class in to_json<Registered...>, or set limits.unknown_types = unknown_type_policy::null";
    detail::inspect::decode_result read =
        detail::inspect::decode(model, std::span<const std::byte>(bytes.data(), *written), decode_options);
    if (!read.ok)
      return result<std::string>(read.code, read.offset, 0,
                                 std::make_shared<const detail::failure_details>(detail::failure_details{
                                     std::move(read.note), std::move(read.path), std::string()}));
    std::string text;
    // Bounded, so that level * indent cannot overflow and a caller's indent cannot make the text
    // grow beyond 16 spaces per level.
    const int indent = options.indent < 0 ? 0 : (options.indent > 16 ? 16 : options.indent);
    detail::json::write(text, read.value, indent, options.ascii, false);
    return text;
  } catch (const std::bad_alloc&) {
    return result<std::string>(errc::out_of_memory, 0);
  }
}

/// Throwing form of try_to_json: bifrons::error with the code, offset and field path.
template <class... Registered, class T>
[[nodiscard]] std::string to_json(const T& value, const json_options& options = {}) {
  return try_to_json<Registered...>(value, options).value();
}

#else

template <class... Registered, class T>
[[nodiscard]] result<std::string> try_to_json(const T&, const json_options& = {}) {
  static_assert(sizeof(T) == 0,
                "bifrons: try_to_json<T> needs exceptions (its decoder reports failures by throwing them "
                "inside); build this file without -fno-exceptions, or run bifrons-inspect on the bytes");
  return result<std::string>(errc::user_error, 0);
}

template <class... Registered, class T>
[[nodiscard]] std::string to_json(const T&, const json_options& = {}) {
  static_assert(sizeof(T) == 0,
                "bifrons: to_json<T> needs exceptions (its decoder reports failures by throwing them inside); "
                "build this file without -fno-exceptions, or run bifrons-inspect on the bytes");
  return {};
}

#endif

}  // namespace bifrons
