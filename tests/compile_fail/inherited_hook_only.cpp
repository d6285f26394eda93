// expect: only inherits a serialization hook from a base class
// Derived inherits Base::serialize, which would write a Derived as a Base and drop `extra`.
#include <bifrons/core.hpp>

class Base {
 public:
  int x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};

class Derived : public Base {
 public:
  int extra = 0;
};

int main() {
  const Derived d{};
  (void)bifrons::to_bytes(d);  // offending line
  return d.extra;
}
