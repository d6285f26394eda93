// expect: this base class is private or protected in the class whose hook lists it
// Meter lists its private base without `friend bifrons::access;`: bifrons cannot cast to it.
#include <bifrons/core.hpp>

class Counter {
 public:
  int count = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(count);
  }
};

class Meter : private Counter {
 public:
  int units = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Counter>(*this), units);  // offending line
  }
};

int main() {
  const Meter m{};
  (void)bifrons::to_bytes(m);
  return m.units;
}
