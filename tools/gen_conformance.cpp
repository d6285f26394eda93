// SPDX-License-Identifier: MIT
// Writes the conformance vectors tests/conformance/<name>.json (tests/conformance/README.md) from
// the cases of tests/conformance_cases.hpp, read and written by the C++ library.
//
//   cmake --build build/quick --target gen_conformance && build/quick/tools/gen_conformance tests/conformance
//
// tests/tools/conformance_test fails while the committed files differ from what this writes.

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "../tests/conformance_cases.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen_conformance DIR   (DIR: tests/conformance)\n");
    return 2;
  }
  std::vector<std::string> problems;
  const auto files = conformance::generate(problems);
  for (const std::string& p : problems) std::fprintf(stderr, "gen_conformance: %s\n", p.c_str());
  if (!problems.empty()) return 1;
  for (const auto& [name, doc] : files) {
    const std::string path = std::string(argv[1]) + "/" + name + ".json";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bifrons::detail::json::canonical(doc);
    if (!out) {
      std::fprintf(stderr, "gen_conformance: cannot write %s\n", path.c_str());
      return 1;
    }
    std::printf("%-18s %3zu vectors  %s\n", name.c_str(), doc.find("vectors")->items().size(), path.c_str());
  }
  return 0;
}
