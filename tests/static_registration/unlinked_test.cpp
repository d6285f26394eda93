// The trap BIFRONS_LINK_REGISTRATIONS exists for: the same program as linked_test.cpp without it.
// Nothing refers to the static library's object file, so the linker leaves it out, and its
// registrations never run: the class is unregistered, and writing it fails.
#include <gtest/gtest.h>

#include <memory>

#include "shapes.hpp"

namespace {

TEST(StaticRegistrations, UnnamedRegistrationsOfAStaticLibraryAreDropped) {
  EXPECT_EQ(bifrons::detail::the_registry().find(std::string_view("static.Hexagon")), nullptr);
  const std::unique_ptr<static_shapes::Shape> written = std::make_unique<static_shapes::Hexagon>();
  std::byte buffer[64];
  EXPECT_EQ(bifrons::try_to_bytes(written, std::span<std::byte>(buffer)).code(), bifrons::errc::unregistered_type);
}

}  // namespace
