// expect: bifrons: this type has no default constructor, so bifrons cannot create one
// A class without a default constructor, read where bifrons must create one (here as an element
// of a vector); its hook can read into an existing object, but nothing makes the object.
#include <bifrons/core.hpp>
#include <bifrons/types/vector.hpp>

#include <vector>

class Reading {
 public:
  explicit Reading(int v) : value_(v) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value_);
  }

 private:
  int value_;
};

int main() {
  const auto bytes = bifrons::to_bytes(std::vector<Reading>{Reading(1)});
  return static_cast<int>(bifrons::from_bytes<std::vector<Reading>>(bytes).size());  // offending line
}
