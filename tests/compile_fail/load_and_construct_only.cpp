// expect: bifrons: load_and_construct only reads: this type also needs a hook that writes
// load_and_construct creates objects from what it reads; writing needs save() or serialize().
#include <bifrons/core.hpp>

class Reading {
 public:
  explicit Reading(int v) : value_(v) {}
  template <class Archive>
  static Reading load_and_construct(Archive& ar) {
    int v = 0;
    ar(v);
    return Reading(v);
  }

 private:
  int value_;
};

int main() {
  const Reading r(1);
  return static_cast<int>(bifrons::to_bytes(r).size());  // offending line
}
