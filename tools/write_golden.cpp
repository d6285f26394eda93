// (Re)writes the golden files tests/golden/<name>.bin from tests/golden_cases.hpp, with --framed
// the framed ones tests/golden/framed/<name>.bin (docs/format.md section 30), or with --schemas
// the schemas tests/golden/<name>.schema.json (docs/schema.md).
//
// Build and run by hand from the repository root:
//   g++ -std=c++20 -Iinclude tools/write_golden.cpp -o /tmp/write_golden && /tmp/write_golden tests/golden
//
// The golden files pin down wire format v1: regenerate them only for a deliberate format change
// (and a new format version). Before writing, every case's encoding is compared with the bytes
// its spec() spells out from the format rules; a difference is an error unless --force is given.

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <bifrons/frame.hpp>
#include <bifrons/schema.hpp>

#include "../tests/golden_cases.hpp"

namespace {

template <class... Cases>
struct writer_for {
  static bool run(const std::string& dir, bool force) {
    bool ok = true;
    ((ok = write_one<Cases>(dir, force) && ok), ...);
    return ok;
  }

  template <class Case>
  static bool write_one(const std::string& dir, bool force) {
    const std::vector<std::byte> bytes = golden::encode<Case>(Case::value());
    if (bytes != Case::spec()) {
      std::fprintf(stderr, "%s: the writer's %zu bytes differ from the spec's %zu bytes%s\n", Case::name, bytes.size(),
                   Case::spec().size(), force ? " (written anyway: --force)" : "");
      if (!force) return false;
    }
    const std::string path = dir + "/" + Case::name + ".bin";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "%s: cannot write %s\n", Case::name, path.c_str());
      return false;
    }
    std::printf("%-18s %6zu bytes  %s\n", Case::name, bytes.size(), path.c_str());
    return true;
  }
};

template <class... Cases>
struct framed_writer_for {
  static bool run(const std::string& dir, bool force) {
    bool ok = true;
    ((ok = write_one<Cases>(dir, force) && ok), ...);
    return ok;
  }

  template <class Case>
  static bool write_one(const std::string& dir, bool force) {
    const std::vector<std::byte> bytes = bifrons::to_framed(Case::value());
    if (bytes != Case::spec()) {
      std::fprintf(stderr, "framed %s: the writer's %zu bytes differ from the spec's %zu bytes%s\n", Case::name,
                   bytes.size(), Case::spec().size(), force ? " (written anyway: --force)" : "");
      if (!force) return false;
    }
    const std::string path = dir + "/framed/" + Case::name + ".bin";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::fprintf(stderr, "framed %s: cannot write %s\n", Case::name, path.c_str());
      return false;
    }
    std::printf("%-18s %6zu bytes  %s\n", Case::name, bytes.size(), path.c_str());
    return true;
  }
};

/// The schemas change only with the schema model (docs/schema.md) or the golden types.
template <class... Cases>
struct schema_writer_for {
  static bool run(const std::string& dir) {
    bool ok = true;
    ((ok = write_one<Cases>(dir) && ok), ...);
    return ok;
  }

  template <class Case>
  static bool write_one(const std::string& dir) {
    const std::string text = []<class... Registered>(std::tuple<Registered...>*) {
      return bifrons::schema<typename Case::type, Registered...>();
    }(static_cast<typename golden::registered_of<Case>::type*>(nullptr));
    const std::string path = dir + "/" + Case::name + ".schema.json";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) {
      std::fprintf(stderr, "%s: cannot write %s\n", Case::name, path.c_str());
      return false;
    }
    std::printf("%-18s %6zu bytes  %s\n", Case::name, text.size(), path.c_str());
    return true;
  }
};

}  // namespace

int main(int argc, char** argv) {
  bool force = false;
  bool schemas = false;
  bool framed = false;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--force") == 0)
      force = true;
    else if (std::strcmp(argv[i], "--schemas") == 0)
      schemas = true;
    else if (std::strcmp(argv[i], "--framed") == 0)
      framed = true;
    else
      dir = argv[i];
  }
  if (dir.empty()) {
#ifdef BIFRONS_TEST_DATA_DIR
    dir = std::string(BIFRONS_TEST_DATA_DIR) + "/golden";
#else
    std::fprintf(stderr, "usage: write_golden [--force] [--framed | --schemas] DIR   (DIR: tests/golden)\n");
    return 2;
#endif
  }
  if (schemas) return golden::schema_case_list<schema_writer_for>::run(dir) ? 0 : 1;
  if (framed) return golden::framed_case_list<framed_writer_for>::run(dir, force) ? 0 : 1;
  return golden::case_list<writer_for>::run(dir, force) ? 0 : 1;
}
