// bifrons/version.hpp: the version macros agree with each other. (The CMake package version is
// read from this header by CMakeLists.txt, so it cannot drift.)
#include <bifrons/version.hpp>

#include <gtest/gtest.h>

#include <string>

TEST(Version, TheNumberIsMadeOfTheParts) {
  EXPECT_EQ(BIFRONS_VERSION, BIFRONS_VERSION_MAJOR * 10000 + BIFRONS_VERSION_MINOR * 100 + BIFRONS_VERSION_PATCH);
  EXPECT_LT(BIFRONS_VERSION_MINOR, 100);
  EXPECT_LT(BIFRONS_VERSION_PATCH, 100);
}

TEST(Version, TheStringSpellsTheParts) {
  const std::string expected = std::to_string(BIFRONS_VERSION_MAJOR) + "." + std::to_string(BIFRONS_VERSION_MINOR) +
                               "." + std::to_string(BIFRONS_VERSION_PATCH);
  EXPECT_EQ(std::string(BIFRONS_VERSION_STRING), expected);
}
