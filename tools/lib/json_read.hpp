// SPDX-License-Identifier: MIT
#pragma once
// JSON text for the tools: the parser and printer that bifrons::to_json uses
// (bifrons/detail/inspect/json_text.hpp), and files.

#include <bifrons/detail/inspect/json_text.hpp>
#include <string>

namespace bifrons::tools {

using detail::inspect::json;
using detail::inspect::json_error;
using detail::inspect::parse_json;
using detail::inspect::to_text;

/// The whole file at `path`, or "-" for standard input; throws std::runtime_error.
std::string read_file(const std::string& path);

}  // namespace bifrons::tools
