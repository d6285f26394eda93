// A program that links a static library whose object file holds only registrations, and names
// them with BIFRONS_LINK_REGISTRATIONS: the linker takes the file, and the class is registered.
// (unlinked_test.cpp is the same program without the line: the registrations are dropped.)
#include <gtest/gtest.h>

#include <memory>

#include "shapes.hpp"

BIFRONS_LINK_REGISTRATIONS(static_shapes);

namespace {

TEST(StaticRegistrations, NamedRegistrationsOfAStaticLibraryRun) {
  EXPECT_NE(bifrons::detail::the_registry().find(std::string_view("static.Hexagon")), nullptr);
  auto hexagon = std::make_unique<static_shapes::Hexagon>();
  hexagon->id = 1;
  hexagon->side = 6;
  const std::unique_ptr<static_shapes::Shape> written = std::move(hexagon);
  const auto back = bifrons::from_bytes<std::unique_ptr<static_shapes::Shape>>(bifrons::to_bytes(written));
  const auto* read = dynamic_cast<const static_shapes::Hexagon*>(back.get());
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->side, 6);
}

}  // namespace
