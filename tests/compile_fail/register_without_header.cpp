// expect: bifrons: BIFRONS_REGISTER needs #include <bifrons/polymorphic.hpp>
// core.hpp does not parse the polymorphic registry: the macro names its header.
#include <bifrons/core.hpp>

struct Shape {
  virtual ~Shape() = default;
  int id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};
struct Circle : Shape {
  double radius = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Shape>(*this), radius);
  }
};

BIFRONS_REGISTER(Circle, "shapes.Circle");

int main() {}
