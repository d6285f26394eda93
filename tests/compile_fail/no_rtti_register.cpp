// expect: bifrons: registering a polymorphic class needs RTTI
// flags: -fno-rtti
#include <bifrons/core.hpp>
#include <bifrons/polymorphic.hpp>

struct Base {
  virtual ~Base() = default;
  int x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};
struct Derived : Base {
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Base>(*this));
  }
};

BIFRONS_REGISTER(Derived, "Derived");  // offending line

int main() {}
