// Classes whose registration lives in a static library (tests/static_registration).
#pragma once

#include <bifrons/bifrons.hpp>

#include <cstdint>

namespace static_shapes {

struct Shape {
  std::int32_t id = 0;
  virtual ~Shape() = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};

struct Hexagon : Shape {
  std::int32_t side = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Shape>(*this), side);
  }
};

}  // namespace static_shapes
