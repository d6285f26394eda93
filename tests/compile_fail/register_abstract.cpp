// expect: bifrons: an abstract class cannot be registered
// No object has an abstract class as its dynamic type: register the concrete classes instead.
#include <bifrons/core.hpp>
#include <bifrons/polymorphic.hpp>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  int id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};

BIFRONS_REGISTER(Shape, "Shape");  // offending line

int main() {}
