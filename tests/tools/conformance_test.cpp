// The conformance vectors of tests/conformance/ (tests/conformance/README.md):
//   - the committed files are exactly what tests/conformance_cases.hpp produces from the library
//     today (so they cannot go stale), and the generator found no disagreement between the
//     schema-driven decoder and the library;
//   - every vector of every committed file, run through the schema-driven decoder of
//     bifrons-inspect: positive vectors give their value, negative ones their error and offset.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "../conformance_cases.hpp"
#include "lib/decoder.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

namespace {

using namespace bifrons::tools;

std::string conformance_dir() { return std::string(BIFRONS_TEST_DATA_DIR) + "/conformance"; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Conformance, CommittedFilesAreWhatTheLibraryProduces) {
  std::vector<std::string> problems;
  const auto files = conformance::generate(problems);
  EXPECT_EQ(problems, std::vector<std::string>{});
  std::set<std::string> expected_names;
  for (const auto& [name, doc] : files) {
    expected_names.insert(name + ".json");
    EXPECT_EQ(read_text(conformance_dir() + "/" + name + ".json"), bifrons::detail::json::canonical(doc))
        << name << ".json differs from what the library produces: regenerate it (tools/gen_conformance.cpp)";
  }
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(conformance_dir()))
    if (entry.path().extension() == ".json") on_disk.insert(entry.path().filename().string());
  EXPECT_EQ(on_disk, expected_names);
}

TEST(Conformance, TheDecoderPassesEveryVector) {
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(conformance_dir())) {
    if (entry.path().extension() != ".json") continue;
    const json doc = parse_json(read_text(entry.path().string()));
    const schema s = load_schema(*doc.find("schema"));
    for (const json& v : doc.find("vectors")->items()) {
      const std::string where = entry.path().filename().string() + ": " + v.find("name")->text();
      decode_options options;
      if (const json* limits = v.find("read_options")) {
        for (const auto& [key, n] : limits->members()) {
          const std::uint64_t value = std::stoull(n.text());
          if (key == "max_depth") options.max_depth = value;
          if (key == "max_elements") options.max_elements = value;
          if (key == "max_objects") options.max_objects = value;
        }
      }
      const decode_result r = decode(s, from_hex(v.find("hex")->text()), options);
      if (const json* error = v.find("error")) {
        EXPECT_FALSE(r.ok) << where;
        EXPECT_EQ(errc_name(r.code), error->find("code")->text()) << where;
        EXPECT_EQ(std::to_string(r.offset), error->find("offset")->text()) << where;
      } else {
        ASSERT_TRUE(r.ok) << where << ": " << errc_name(r.code) << " at " << r.offset;
        EXPECT_EQ(r.value, *v.find("value")) << where << ": " << to_text(r.value);
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 50u);  // the directory holds the vectors, not a part of them
}

}  // namespace
