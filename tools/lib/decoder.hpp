// SPDX-License-Identifier: MIT
#pragma once
// A schema-driven decoder: reads bifrons bytes with nothing but a schema (docs/schema.md), into
// the JSON values of docs/schema.md section 10, with the library's own error codes and offsets
// (docs/format.md section 26). It mirrors the C++ reader check by check, with these exceptions:
// its allocation budget charges what the decoder itself holds (JSON values, the text they print
// as, annotations; see decode_options::max_alloc_bytes), not the C++ types' sizes; it keeps no
// hash-bucket limit (keys are compared by value, in O(log n) each); it reads views like owning
// containers (never misaligned_view), and it compares keys by value (docs/schema.md section 9).
//
// bifrons-inspect prints what it finds; the conformance tests run it over every vector.

#include <bifrons/error.hpp>
#include <bifrons/read_options.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schema_model.hpp"

namespace bifrons::tools {

struct decode_options {
  std::uint64_t max_depth = 64;
  std::uint64_t max_elements = std::uint64_t{64} << 20;
  std::uint64_t max_objects = std::uint64_t{1} << 20;
  /// The allocation budget, read_options::max_alloc_bytes (and its default, 256 MiB), charged
  /// before anything is allocated, as the library charges it, but for what the decoder holds:
  /// every JSON value (each element, including those that take no input bytes, and the values of
  /// the field defaults it expands), its printed text (indentation included), the annotations,
  /// the keys of sets and maps, the table of objects. So memory and output stay within a constant
  /// times this, whatever the schema and the data; past it, allocation_limit_exceeded. An input
  /// byte costs at most a few hundred bytes of budget (docs: SECURITY.md).
  std::uint64_t max_alloc_bytes = bifrons::read_options{}.max_alloc_bytes;
  /// read_options::unknown_types = unknown_type_policy::null: an object of a registered name the
  /// schema does not hold is skipped, and it, and every reference to it or to an object inside
  /// it, reads as null (a reference pointer fails with unknown_type). Otherwise unknown_type.
  bool unknown_types_null = false;
  /// Collect an annotation for every part of the bytes (bifrons-inspect --annotate).
  bool annotate = false;
  /// Stop at the end of the value: bytes after it are not trailing_bytes, and decode_result::end
  /// says where the next value starts (several values written one after another).
  bool allow_trailing = false;
};

/// One part of the input: its bytes, where it is in the value, what it means.
struct annotation {
  std::size_t offset = 0;
  std::size_t length = 0;
  std::size_t depth = 0;
  std::string path;
  std::string text;
};

struct decode_result {
  bool ok = false;
  json value;
  errc code = errc::ok;
  std::size_t offset = 0;  ///< of the error
  std::string path;        ///< of the error: the field being read
  std::string note;        ///< of the error: what is at fault, beyond the code (may be empty)
  std::size_t end = 0;     ///< where the value ended
  std::vector<annotation> annotations;
  /// Comparisons of keys the duplicate check of sets and maps made: O(log n) per key (tests
  /// count them).
  std::uint64_t key_comparisons = 0;
};

/// Reads one value of type t (the schema's root by default) from bytes.
decode_result decode(const schema& s, std::span<const std::byte> bytes, const decode_options& options = {});
decode_result decode(const schema& s, const type& t, std::span<const std::byte> bytes,
                     const decode_options& options = {});

/// True if bytes begin with the frame of a typed file (docs/format.md section 30).
bool is_framed(std::span<const std::byte> bytes);

/// A typed file: reads its frame, picks among schemas the one whose root is the type the frame
/// names (its index in chosen), and decodes the value after the frame; offsets, also of the
/// annotations, count from the frame's first byte. A broken frame gives the library's errors
/// (not_bifrons, malformed varints), a type no schema has type_mismatch.
decode_result decode_framed(const std::vector<schema>& schemas, std::span<const std::byte> bytes,
                            const decode_options& options, std::size_t& chosen);

/// The JSON form of a floating-point value (docs/schema.md section 10).
json float_json(double value);
json float_json(float value);

/// The errc names of docs/format.md section 26, both ways.
std::string_view errc_name(errc code);
std::optional<errc> errc_from_name(std::string_view name);

}  // namespace bifrons::tools
