// SPDX-License-Identifier: MIT
#pragma once
// The schema-driven decoder of bifrons-inspect and the conformance tests: the one that
// bifrons::to_json uses (bifrons/detail/inspect/decoder.hpp), under the tools' names, and typed
// files (framed values), which only the tools read.

#include <bifrons/detail/inspect/decoder.hpp>
#include <cstddef>
#include <span>
#include <vector>

#include "schema_model.hpp"

namespace bifrons::tools {

using detail::inspect::annotation;
using detail::inspect::decode;
using detail::inspect::decode_options;
using detail::inspect::decode_result;
using detail::inspect::errc_from_name;
using detail::inspect::errc_name;
using detail::inspect::float_json;

/// True if bytes begin with the frame of a typed file (docs/format.md section 30).
bool is_framed(std::span<const std::byte> bytes);

/// A typed file: reads its frame, picks among schemas the one whose root is the type the frame
/// names (its index in chosen), and decodes the value after the frame; offsets, also of the
/// annotations, count from the frame's first byte. A broken frame gives the library's errors
/// (not_bifrons, malformed varints), a type no schema has type_mismatch.
decode_result decode_framed(const std::vector<schema>& schemas, std::span<const std::byte> bytes,
                            const decode_options& options, std::size_t& chosen);

}  // namespace bifrons::tools
