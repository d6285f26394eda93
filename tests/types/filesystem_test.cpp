// std::filesystem::path (bifrons/types/filesystem.hpp): a minimal type, written as its UTF-8
// form, the bytes of a std::u8string.
#include <bifrons/types/filesystem.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;
using std::filesystem::path;

TEST(Path, WrittenAsUtf8) {
  EXPECT_EQ(hex_of(path("a/b.txt")), "07 61 2f 62 2e 74 78 74");
  EXPECT_EQ(hex_of(path("a/b.txt")), hex_of(std::string("a/b.txt")));
  // "é" is U+00E9: c3 a9 in UTF-8, on every host.
  EXPECT_EQ(hex_of(path(u8"\u00e9")), "02 c3 a9");
  EXPECT_EQ(hex_of(path()), "00");
}

TEST(Path, RoundTrips) {
  for (const path& p : {path(), path("/"), path("relative/dir/"), path(u8"caf\u00e9/\u65e5\u672c.txt")}) {
    EXPECT_EQ(round_trip(p), p);
    EXPECT_TRUE(round_trip(p).u8string() == p.u8string());
  }
  const std::vector<path> paths{"x", "y/z"};
  EXPECT_EQ(round_trip(paths), paths);
  path existing = "old/value";
  bifrons::from_bytes(bifrons::to_bytes(path("new")), existing);
  EXPECT_EQ(existing, path("new"));
}

// The hooks take a path exactly: types that convert to one (std::string, const char*) keep their
// own codecs and are not taken for classes with hooks (which would give every value holding a
// string a write session, tracking pointers it cannot hold).
static_assert(!bifrons::detail::may_hold_pointers<std::string>());
static_assert(bifrons::detail::hook_count<std::string> == 0);

TEST(Path, ErrorsAreTheStringsErrors) {
  EXPECT_TRUE(fails_with<path>(B({0x05, 0x61}), errc::count_exceeds_input, 0, 4));
  EXPECT_TRUE(fails_with<path>(bytes{}, errc::unexpected_end, 0, 1));
}

}  // namespace
}  // namespace bifrons_test
