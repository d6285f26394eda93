// A library that tests/polymorphic_plugin_test.cpp loads with dlopen after main started. It is
// built with -fvisibility=hidden, as libraries usually are, and registers a type the program does
// not know. Its triangle holds another shape, which the program writes and reads through the
// library's code.

#include "plugin_shapes.hpp"

namespace {

struct Triangle final : plugin::Shape {
  std::shared_ptr<plugin::Shape> corner;
  int sides() const override { return 3; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<plugin::Shape>(*this), corner);
  }
};

}  // namespace

BIFRONS_REGISTER(Triangle, "plugin.Triangle");
