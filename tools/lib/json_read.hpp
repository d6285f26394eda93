// SPDX-License-Identifier: MIT
#pragma once
// JSON text into the JSON value of the schema export (bifrons/detail/json.hpp), for the tools:
// schemas, conformance vectors, values. Numbers keep their spelling.

#include <bifrons/detail/json.hpp>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bifrons::tools {

using json = bifrons::detail::json::value;

/// A JSON text that does not parse: what and where (byte offset).
class json_error : public std::runtime_error {
 public:
  json_error(const std::string& what, std::size_t offset)
      : std::runtime_error(what + " at byte " + std::to_string(offset)), offset_(offset) {}
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }

 private:
  std::size_t offset_;
};

/// Parses one JSON value (RFC 8259), with nothing but white space after it.
json parse_json(std::string_view text);

/// The whole file at `path`, or "-" for standard input; throws std::runtime_error.
std::string read_file(const std::string& path);

/// The JSON text of v on one line (indent 0) or indented, UTF-8 as it is, members in the order
/// they were set (sorted with sort_keys).
std::string to_text(const json& v, int indent = 0, bool sort_keys = false);

}  // namespace bifrons::tools
