// expect: bifrons: base<B> of a polymorphic B registers the class as derived from B
// The hook of a polymorphic class registers its relation to its base for polymorphic pointers.
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

int main() { return static_cast<int>(bifrons::to_bytes(Circle{}).size()); }
