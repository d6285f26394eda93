// SPDX-License-Identifier: MIT
// bifrons-inspect --schema S [FILE]: what is in a bifrons file, without the program that wrote it.
//
// Reads FILE (or standard input) with the schema S (JSON from bifrons::schema<T>()) and prints the
// value as JSON (docs/schema.md section 10), or with --annotate every part of the bytes: offset,
// bytes, field path and meaning. Fields that a newer writer appended show as skipped bytes; bad
// data stops with the library's error code, the offset and the field path.

#include <algorithm>
#include <array>
#include <bifrons/detail/kafka_message.hpp>
#include <bifrons/log.hpp>
#include <cstdio>
#include <cstring>
#include <exception>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lib/decoder.hpp"
#include "lib/schema_model.hpp"

namespace {

using namespace bifrons::tools;

constexpr const char* usage =
    "usage: bifrons-inspect --schema SCHEMA... [--type NAME] [--annotate] [--max-depth N]\n"
    "                       [--max-elements N] [--max-objects N] [--max-alloc-bytes N]\n"
    "                       [--unknown-types-null] [--framed] [--skip-damaged] [FILE | -]\n"
    "\n"
    "Prints the value in FILE (standard input if none, or -) as JSON, read with SCHEMA (the JSON\n"
    "of bifrons::schema<T>()). Exits 1 on bad data, with the error code, offset and field path.\n"
    "A typed file (bifrons::to_framed) names its type: of several schemas (--schema repeated, or a\n"
    "directory of them), the one whose root is that type reads it; two schemas of one root type are\n"
    "refused. With several schemas, or --framed, a file without a frame is not bifrons data\n"
    "(not_bifrons, as bifrons::from_framed says). A log (<bifrons/log.hpp>) is\n"
    "listed one message per line, \"offset: value\", read one record at a time (the limits apply to\n"
    "each message; --max-alloc-bytes also bounds a record's length); a torn tail is reported on\n"
    "standard error, damage stops with checksum_mismatch at the record. --annotate dumps a log's\n"
    "header and each record's parts, then its message's.\n"
    "\n"
    "  --annotate       an annotated hex dump: offset, bytes, field path, meaning\n"
    "  --type NAME      read a type of the schema's \"types\" instead of its root\n"
    "  --max-depth N, --max-elements N, --max-objects N\n"
    "                   the reader limits of bifrons::read_options (defaults 64, 67108864, 1048576)\n"
    "  --max-alloc-bytes N\n"
    "                   the budget of read_options::max_alloc_bytes (default 268435456), charged for\n"
    "                   what the inspector holds and prints: every value (a few hundred bytes each),\n"
    "                   text and annotation; past it, allocation_limit_exceeded\n"
    "  --unknown-types-null\n"
    "                   objects of registered names the schema does not hold read as null\n"
    "                   (unknown_type_policy::null), instead of failing with unknown_type\n"
    "  --framed         the file must be typed (bifrons::to_framed)\n"
    "  --skip-damaged   logs: skip damaged records to the next intact one, and count them\n";

/// offset | up to 8 bytes | path | meaning, with continuation lines for longer parts. The bytes
/// start at offset base of the file (a log's record); heading: print the column names first.
void print_annotations(const std::vector<annotation>& notes, std::span<const std::byte> bytes, std::uint64_t base = 0,
                       bool heading = true, std::size_t path_width = 4) {
  for (const annotation& a : notes) path_width = std::max(path_width, a.path.size());
  path_width = std::min<std::size_t>(path_width, 40);
  if (heading) std::printf("%-8s  %-23s  %-*s  %s\n", "offset", "bytes", int(path_width), "path", "meaning");
  for (const annotation& a : notes) {
    std::size_t i = 0;
    do {
      std::string hex;
      for (std::size_t k = 0; k < 8 && i + k < a.length; ++k) {
        char b[4];
        std::snprintf(b, sizeof b, k == 0 ? "%02x" : " %02x", static_cast<unsigned>(bytes[a.offset + i + k]));
        hex += b;
      }
      const auto at = static_cast<unsigned long long>(base + a.offset + i);
      if (i == 0)
        std::printf("%08llx  %-23s  %-*s  %s\n", at, hex.c_str(), int(path_width), a.path.c_str(), a.text.c_str());
      else
        std::printf("%08llx  %s\n", at, hex.c_str());
      i += 8;
    } while (i < a.length);
  }
}

std::uint64_t number_argument(const char* text) {
  char* end = nullptr;
  // (strtoull accepts a sign, and makes -1 the largest number: a limit must be written as one.)
  const unsigned long long v = text[0] >= '0' && text[0] <= '9' ? std::strtoull(text, &end, 10) : 0;
  if (end == nullptr || end == text || *end != '\0') throw std::runtime_error(std::string("not a number: ") + text);
  return v;
}

/// Lists the messages of a log from in, read with the schema whose root the header names.
int inspect_log(std::istream& in, const std::string& file, const std::vector<schema>& schemas,
                const decode_options& options, bool skip_damaged) {
  bifrons::log_read_options log_options;
  log_options.limits.max_alloc_bytes =
      static_cast<std::size_t>(std::min<std::uint64_t>(options.max_alloc_bytes,
                                                       std::numeric_limits<std::size_t>::max()));
  log_options.skip_damaged = skip_damaged;
  bifrons::detail::log_scanner scanner(bifrons::detail::log_source(in), log_options);
  const char* name = file == "-" ? "stdin" : file.c_str();
  auto fail = [&](bifrons::errc code, std::uint64_t offset, const std::string& where) {
    std::fflush(stdout);
    std::fprintf(stderr, "bifrons-inspect: %s: %s (%u) at byte %llu, in %s: %s\n", name,
                 std::string(errc_name(code)).c_str(), static_cast<unsigned>(code),
                 static_cast<unsigned long long>(offset), where.c_str(), bifrons::describe(code));
    return 1;
  };
  const schema* chosen = nullptr;
  for (const schema& s : schemas)
    if (!scanner.failed() && spell(s.root) == scanner.header().type_name) chosen = &s;
  if (!scanner.failed() && chosen == nullptr)
    return fail(bifrons::errc::type_mismatch, scanner.header().name_offset,
                "(log header) " + scanner.header().type_name);
  // --annotate: the header's and each record's parts, then the message's. The bytes of an intact
  // header and record header are what the writer makes of the values read (the CRCs matched),
  // so they are made again here rather than kept from the stream.
  const bifrons::detail::log_header& header = scanner.header();
  constexpr std::size_t log_path_width = 16;  // "(record 4294967296)" and most field paths
  std::uint64_t expected = header.size;  // where the next record starts, without damage
  if (options.annotate && !scanner.failed()) {
    const auto bytes = bifrons::detail::log_header_bytes(header.type_name, header.schema, header.sync);
    const std::size_t name_at = static_cast<std::size_t>(header.name_offset);
    const std::size_t name_size = bytes.size() - 8 - name_at;  // the name and the schema with their lengths
    std::printf("%-8s  %-23s  %-*s  %s\n", "offset", "bytes", int(log_path_width), "path", "meaning");
    print_annotations({{0, 4, 0, "(log)", "log magic"},
                       {4, name_at - 4, 0, "(log)", "format " + std::to_string(bifrons::log_format)},
                       {name_at, name_size, 0, "(log)",
                        "type " + header.type_name +
                            (header.schema.empty()
                                 ? ", no schema"
                                 : ", the writer's schema (" + std::to_string(header.schema.size()) + " bytes)")},
                       {bytes.size() - 8, 4, 0, "(log)", "sync marker"},
                       {bytes.size() - 4, 4, 0, "(log)", "header CRC32C"}},
                      bytes, 0, false, log_path_width);
  }
  std::span<const std::byte> payload;
  std::uint64_t at = 0;
  while (scanner.next(payload, at)) {
    const decode_result r = decode(*chosen, payload, options);
    if (options.annotate) {
      if (at != expected)
        std::printf("%08llx  (%llu damaged bytes skipped)\n", static_cast<unsigned long long>(expected),
                    static_cast<unsigned long long>(at - expected));
      std::byte record[bifrons::log_record_header_size];
      const auto length = static_cast<std::uint32_t>(payload.size());
      bifrons::detail::log_record_header(record, header.sync, length,
                                         bifrons::detail::crc32c(0, payload.data(), payload.size()));
      const std::string where = "(record " + std::to_string(at) + ")";
      print_annotations({{0, 4, 0, where, "sync marker"},
                         {4, 4, 0, where, "length " + std::to_string(length)},
                         {8, 4, 0, where, "payload CRC32C"},
                         {12, 4, 0, where, "header CRC32C"}},
                        record, at, false, log_path_width);
      print_annotations(r.annotations, payload, at + bifrons::log_record_header_size, false, log_path_width);
      expected = at + bifrons::log_record_header_size + payload.size();
    }
    if (!r.ok)
      return fail(r.code, at + bifrons::log_record_header_size + r.offset,
                  "the message at " + std::to_string(at) + ", " + r.path);
    if (!options.annotate) std::printf("%llu: %s\n", static_cast<unsigned long long>(at), to_text(r.value).c_str());
  }
  std::fflush(stdout);  // the messages, then what ended them
  const bifrons::log_status& status = scanner.status();
  if (status.code != bifrons::errc::ok) return fail(status.code, status.offset, std::string("(") + status.what + ")");
  if (scanner.damaged_stretches() != 0)
    std::fprintf(stderr, "bifrons-inspect: %s: skipped %llu damaged stretches, %llu bytes\n", name,
                 static_cast<unsigned long long>(scanner.damaged_stretches()),
                 static_cast<unsigned long long>(scanner.skipped_bytes()));
  if (status.torn_tail_bytes != 0)
    std::fprintf(stderr, "bifrons-inspect: %s: a torn tail of %llu bytes at byte %llu\n", name,
                 static_cast<unsigned long long>(status.torn_tail_bytes),
                 static_cast<unsigned long long>(status.offset));
  return 0;
}

/// Whether the file begins with a log's magic (standard input is not peeked at: read whole).
bool is_log_file(const std::string& file) {
  if (file == "-") return false;
  std::ifstream in(file, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, sizeof magic) &&
         std::equal(magic, magic + 4, reinterpret_cast<const char*>(bifrons::log_magic.data()));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> schema_paths;
  std::string type_name, file = "-";
  decode_options options;
  bool framed_only = false;
  bool skip_damaged = false;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const bool has_value = i + 1 < argc;
      if (arg == "--help" || arg == "-h") {
        std::fputs(usage, stdout);
        return 0;
      } else if (arg == "--schema" && has_value) {
        const std::string path = argv[++i];
        if (std::filesystem::is_directory(path)) {
          std::vector<std::string> found;
          for (const auto& entry : std::filesystem::directory_iterator(path))
            if (entry.path().extension() == ".json") found.push_back(entry.path().string());
          std::sort(found.begin(), found.end());
          schema_paths.insert(schema_paths.end(), found.begin(), found.end());
        } else {
          schema_paths.push_back(path);
        }
      } else if (arg == "--type" && has_value) {
        type_name = argv[++i];
      } else if (arg == "--annotate") {
        options.annotate = true;
      } else if (arg == "--max-depth" && has_value) {
        options.max_depth = number_argument(argv[++i]);
      } else if (arg == "--max-elements" && has_value) {
        options.max_elements = number_argument(argv[++i]);
      } else if (arg == "--max-objects" && has_value) {
        options.max_objects = number_argument(argv[++i]);
      } else if (arg == "--max-alloc-bytes" && has_value) {
        options.max_alloc_bytes = number_argument(argv[++i]);
      } else if (arg == "--unknown-types-null") {
        options.unknown_types_null = true;
      } else if (arg == "--framed") {
        framed_only = true;
      } else if (arg == "--skip-damaged") {
        skip_damaged = true;
      } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
        std::fprintf(stderr, "bifrons-inspect: unknown option %s\n%s", arg.c_str(), usage);
        return 2;
      } else {
        file = arg;
      }
    }
    if (schema_paths.empty()) {
      std::fputs(usage, stderr);
      return 2;
    }
    std::vector<schema> schemas;
    std::map<std::string, std::string> path_of_root;  // a typed file must find one schema, not pick one
    for (const std::string& path : schema_paths) {
      try {
        schemas.push_back(load_schema_text(read_file(path)));
      } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
      }
      const auto [it, added] = path_of_root.emplace(spell(schemas.back().root), path);
      if (!added)
        throw std::runtime_error("two schemas have the root type " + it->first + ": " + it->second + " and " + path +
                                 "; keep one");
    }
    if (is_log_file(file)) {
      if (!type_name.empty()) throw std::runtime_error("--type reads single values, not logs");
      std::ifstream in(file, std::ios::binary);
      return inspect_log(in, file, schemas, options, skip_damaged);
    }
    const std::string data = read_file(file);
    const std::span<const std::byte> file_bytes(reinterpret_cast<const std::byte*>(data.data()), data.size());
    if (file_bytes.size() >= 4 &&
        std::equal(bifrons::log_magic.begin(), bifrons::log_magic.end(), file_bytes.begin())) {
      std::istringstream in(data);
      return inspect_log(in, file, schemas, options, skip_damaged);
    }
    // A Kafka value with its writer's schema fingerprint in front (kafka.hpp's default, docs/kafka.md
    // "The fingerprint prefix"): the frame after it is read, and offsets stay the value's.
    using bifrons::kafka::fingerprint_prefix_size;
    const std::size_t prefix =
        bifrons::kafka::detail::has_fingerprint_prefix(file_bytes) &&
                is_framed(file_bytes.subspan(std::min(fingerprint_prefix_size, file_bytes.size())))
            ? fingerprint_prefix_size
            : 0;
    const std::span<const std::byte> bytes = file_bytes.subspan(prefix);
    if (prefix != 0 && options.annotate) {
      std::array<char, 16> text{};
      const std::string_view fingerprint =
          bifrons::kafka::detail::writer_schema_id(file_bytes, [] { return std::span<const std::byte>{}; }, text);
      print_annotations({{0, 1, 0, "(kafka)", "fingerprint prefix"},
                         {1, prefix - 1, 0, "(kafka)", "the writer's schema fingerprint " + std::string(fingerprint)}},
                        file_bytes);
    }
    const std::string shown = file == "-" ? "stdin" : file;
    decode_result r;
    const bool needs_frame = framed_only || (schemas.size() > 1 && type_name.empty());
    if (is_framed(bytes) && type_name.empty()) {
      std::size_t chosen = 0;
      r = decode_framed(schemas, bytes, options, chosen);
    } else if (needs_frame) {
      r.code = bifrons::errc::not_bifrons;
      r.path = "(frame)";
    } else {
      const schema& s = schemas.front();
      type root = s.root;
      if (!type_name.empty()) {
        if (!s.types.count(type_name)) throw std::runtime_error("the schema has no type " + type_name);
        root = type{};
        root.kind = kind::named;
        root.name = type_name;
      }
      r = decode(s, root, bytes, options);
    }
    if (options.annotate)
      print_annotations(r.annotations, bytes, prefix, prefix == 0);
    else if (r.ok)
      std::printf("%s\n", to_text(r.value, 2).c_str());
    if (!r.ok) {
      std::fprintf(stderr, "bifrons-inspect: %s: %s (%u) at byte %zu, in %s: %s\n", shown.c_str(),
                   std::string(errc_name(r.code)).c_str(), static_cast<unsigned>(r.code), prefix + r.offset,
                   r.path.c_str(), r.note.empty() ? bifrons::describe(r.code) : r.note.c_str());
      // Garbage fails in the structure; a value that reads but is refused (a limit, a type) is data.
      const bool structural = r.code == bifrons::errc::unexpected_end || r.code == bifrons::errc::malformed_varint ||
                              r.code == bifrons::errc::invalid_value || r.code == bifrons::errc::count_exceeds_input ||
                              r.code == bifrons::errc::trailing_bytes || r.code == bifrons::errc::value_out_of_range;
      if (!is_framed(bytes) && structural)
        std::fprintf(stderr,
                     "bifrons-inspect: %s has no frame, so it was read as an untyped value of the schema's root; "
                     "if it should be a typed file (bifrons::to_framed), it is not bifrons data (--framed says so)\n",
                     shown.c_str());
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bifrons-inspect: %s\n", e.what());
    return 2;
  }
}
