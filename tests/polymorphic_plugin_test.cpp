// A polymorphic type registered by a shared library loaded with dlopen after main started
// (bifrons/polymorphic.hpp). The library (plugin/shapes_plugin.cpp) is built with
// -fvisibility=hidden; this program exports its symbols (CMake ENABLE_EXPORTS, -rdynamic), as a
// program that loads libraries sharing bifrons types must, so that there is one registry.

#include <dlfcn.h>

#include <memory>
#include <string>
#include <typeinfo>

#include "plugin/plugin_shapes.hpp"
#include "types/test_support.hpp"

#ifndef BIFRONS_TEST_PLUGIN
#error "BIFRONS_TEST_PLUGIN must name the library built from tests/plugin/shapes_plugin.cpp (CMake defines it)"
#endif

namespace {

/// Known to this program only: the library's triangle holds one.
struct Hexagon final : plugin::Shape {
  std::int32_t side = 0;
  int sides() const override { return 6; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<plugin::Shape>(*this), side);
  }
};

}  // namespace

BIFRONS_REGISTER(Hexagon, "program.Hexagon");

namespace bifrons_test {
namespace {

using bifrons::errc;

/// A plugin.Triangle (id 1) whose corner is a program.Hexagon (id 2, side 7); both names are
/// listed in the triangle's header, and the hexagon is counted inside it.
bytes triangle() {
  bytes out = B({0x02, 0x00, 0x02});
  for (const std::string name : {"plugin.Triangle", "program.Hexagon"}) {
    put_varint(out, name.size());
    for (const char c : name) out.push_back(std::byte(static_cast<unsigned char>(c)));
  }
  const bytes rest = B({0x01, 0x01,                          // index 1, one object inside
                        0x12, 0x02, 0x02,                    // the triangle: [ [id 1] corner ]
                        0x02, 0x02, 0x00, 0x06, 0x02, 0x04, 0x0e});  // the hexagon: index 2, [ [id 2] 7 ]
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

TEST(Plugin, ATypeRegisteredByALibraryLoadedAfterMainStarted) {
  using P = std::unique_ptr<plugin::Shape>;
  const bytes data = triangle();
  EXPECT_EQ(bifrons::try_from_bytes<P>(data).code(), errc::unknown_type);

  void* library = dlopen(BIFRONS_TEST_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << dlerror();

  {
    auto r = bifrons::try_from_bytes<P>(data);
    ASSERT_TRUE(r.has_value()) << bifrons::describe(r.code()) << " at " << r.offset();
    const P shape = std::move(*r);  // (objects of a library's types must die before it is unloaded)
    EXPECT_EQ(shape->sides(), 3);
    EXPECT_EQ(shape->id, 1);
    // The library's code wrote the corner into the program's write session and read it back
    // through the program's registration: one registry, one session.
    EXPECT_EQ(hex(bifrons::to_bytes(shape)), hex(data));
  }

  // Unloading the library removes its registrations (its static objects are destroyed). glibc
  // keeps a library loaded that provides a unique symbol the process uses; then they stay valid.
  EXPECT_EQ(dlclose(library), 0);
  void* still = dlopen(BIFRONS_TEST_PLUGIN, RTLD_NOW | RTLD_NOLOAD);
  if (still != nullptr) {
    EXPECT_TRUE(bifrons::try_from_bytes<P>(data).has_value());
    (void)dlclose(still);
  } else {
    EXPECT_EQ(bifrons::try_from_bytes<P>(data).code(), errc::unknown_type);
  }
}

}  // namespace
}  // namespace bifrons_test
