// expect: only inherits a serialization hook from a base class
// Derived inherits Base's minimal hooks, which would write a Derived as Base's value and drop `extra`.
#include <bifrons/core.hpp>

class Base {
 public:
  int x = 0;
  template <class Archive>
  int save_minimal(const Archive&) const {
    return x;
  }
  template <class Archive>
  void load_minimal(const Archive&, const int& value) {
    x = value;
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
