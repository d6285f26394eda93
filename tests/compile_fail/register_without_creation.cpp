// expect: bifrons: a registered class must be one bifrons can create
// A registered class with neither a default constructor nor load_and_construct.
#include <bifrons/bifrons.hpp>

struct Shape {
  int id = 0;
  virtual ~Shape() = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};
struct Circle final : Shape {
  explicit Circle(int r) : radius(r) {}
  int radius;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Shape>(*this), radius);
  }
};
BIFRONS_REGISTER(Circle, "shapes.Circle");  // offending line

int main() {}
