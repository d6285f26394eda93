#pragma once
// The interface that tests/polymorphic_plugin_test.cpp and the library it loads with dlopen
// (plugin/shapes_plugin.cpp) share. Types used across shared libraries through RTTI
// (dynamic_cast, typeid) need default visibility, whatever -fvisibility the library uses.

#include <bifrons/bifrons.hpp>

#include <cstdint>
#include <memory>

namespace plugin {

struct [[gnu::visibility("default")]] Shape {
  std::int32_t id = 0;
  virtual ~Shape() = default;
  virtual int sides() const { return 0; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};

}  // namespace plugin
