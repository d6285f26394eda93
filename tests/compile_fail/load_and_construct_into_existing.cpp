// expect: bifrons: this type is read into an existing object .* but it has only load_and_construct
// Reading into an existing object needs a hook that loads in place, or an assignment from a new
// object; this class has neither (its member is const).
#include <bifrons/core.hpp>

class Reading {
 public:
  explicit Reading(int v) : value_(v) {}
  template <class Archive>
  void save(Archive& ar) const {
    ar(value_);
  }
  template <class Archive>
  static Reading load_and_construct(Archive& ar) {
    int v = 0;
    ar(v);
    return Reading(v);
  }

 private:
  const int value_;
};

int main() {
  Reading r(1);
  bifrons::from_bytes(bifrons::to_bytes(r), r);  // offending line
  return 0;
}
