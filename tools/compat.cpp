// SPDX-License-Identifier: MIT
// bifrons-compat OLD NEW: the breaking-change checker (docs/schema.md, docs/evolution.md).
//
// Compares the schema a type had (OLD, e.g. a committed snapshot) with the one it has now (NEW,
// from bifrons::schema<T>()) and prints every difference with its verdict, its field path and the
// row of docs/evolution.md that decides it. Exit status: 0 when every difference is compatible
// (or allowed), 1 when one is breaking or silent, 2 when the schemas cannot be read.

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "lib/checker.hpp"
#include "lib/schema_model.hpp"

namespace {

using namespace bifrons::tools;

constexpr const char* usage =
    "usage: bifrons-compat [--allow RULE[@PATH]]... [--allow-file FILE] [--framed] [--unknown-types-null]\n"
    "                      [--quiet] OLD NEW\n"
    "\n"
    "Compares two schemas (JSON from bifrons::schema<T>()) and classifies every difference by\n"
    "the rows of docs/evolution.md: compatible, breaking or silent (reads that succeed with\n"
    "wrong values). Exits 1 if a difference is breaking or silent and not allowed.\n"
    "\n"
    "  --allow RULE[@PATH]  accept a breaking or silent finding of RULE (at PATH only, if given)\n"
    "  --allow-file FILE    the same, one RULE[@PATH] per line (# starts a comment)\n"
    "  --unknown-types-null old programs read with unknown_type_policy::null: a new registered\n"
    "                       class is compatible (its objects read as null there), not breaking\n"
    "  --framed             the data is written framed (bifrons::to_framed): renaming the root\n"
    "                       type breaks it\n"
    "  --quiet              print only the findings that fail the check\n"
    "  --rules              list the rules and their rows of docs/evolution.md\n";

struct allowance {
  std::string rule;
  std::string path;  // empty: everywhere
};

allowance parse_allowance(const std::string& text) {
  const std::size_t at = text.find('@');
  if (at == std::string::npos) return {text, ""};
  return {text.substr(0, at), text.substr(at + 1)};
}

bool allowed(const finding& f, const std::vector<allowance>& allowances) {
  for (const allowance& a : allowances)
    if (a.rule == f.rule && (a.path.empty() || a.path == f.path)) return true;
  return false;
}

std::string trim(const std::string& s) {
  const std::size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<allowance> allowances;
  std::vector<std::string> files;
  bool quiet = false;
  check_options check_with;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::fputs(usage, stdout);
        return 0;
      } else if (arg == "--rules") {
        for (const rule_info& r : rules())
          std::printf("%-26s %.*s\n", std::string(r.id).c_str(), int(r.row.size()), r.row.data());
        return 0;
      } else if (arg == "--quiet") {
        quiet = true;
      } else if (arg == "--framed") {
        check_with.framed = true;
      } else if (arg == "--unknown-types-null") {
        check_with.old_readers_null = true;
      } else if (arg == "--allow" && i + 1 < argc) {
        allowances.push_back(parse_allowance(argv[++i]));
      } else if (arg == "--allow-file" && i + 1 < argc) {
        const std::string text = read_file(argv[++i]);
        std::size_t start = 0;
        while (start <= text.size()) {
          const std::size_t end = std::min(text.find('\n', start), text.size());
          std::string line = text.substr(start, end - start);
          line = trim(line.substr(0, line.find('#')));
          if (!line.empty()) allowances.push_back(parse_allowance(line));
          start = end + 1;
        }
      } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
        std::fprintf(stderr, "bifrons-compat: unknown option %s\n%s", arg.c_str(), usage);
        return 2;
      } else {
        files.push_back(arg);
      }
    }
    if (files.size() != 2) {
      std::fputs(usage, stderr);
      return 2;
    }
    for (const allowance& a : allowances) {
      if (rule_row(a.rule).empty()) {
        std::fprintf(stderr, "bifrons-compat: --allow %s: no such rule (see --rules)\n", a.rule.c_str());
        return 2;
      }
    }
    const schema old_schema = load_schema_text(read_file(files[0]));
    const schema new_schema = load_schema_text(read_file(files[1]));
    const std::vector<finding> findings = check(old_schema, new_schema, check_with);

    int failing = 0, allowed_count = 0, compatible = 0, breaking = 0, silent = 0;
    for (const finding& f : findings) {
      const bool bad = f.verdict != verdict::compatible;
      const bool ok = !bad || allowed(f, allowances);
      if (f.verdict == verdict::compatible) ++compatible;
      if (f.verdict == verdict::breaking) ++breaking;
      if (f.verdict == verdict::silent) ++silent;
      if (bad && ok) ++allowed_count;
      if (!ok) ++failing;
      if (quiet && ok) continue;
      const std::string_view row = rule_row(f.rule);
      std::printf("%s%s  %s\n    %s\n    rule %s (docs/evolution.md: %.*s)\n",
                  std::string(verdict_name(f.verdict)).c_str(), bad && ok ? " (allowed)" : "", f.path.c_str(),
                  f.message.c_str(), f.rule.c_str(), int(row.size()), row.data());
    }
    std::printf("bifrons-compat: %d breaking, %d silent, %d compatible%s%s\n", breaking, silent, compatible,
                allowed_count ? (" (" + std::to_string(allowed_count) + " allowed)").c_str() : "",
                failing ? ": the new schema cannot read old data or be read by old programs" : "");
    return failing ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bifrons-compat: %s\n", e.what());
    return 2;
  }
}
