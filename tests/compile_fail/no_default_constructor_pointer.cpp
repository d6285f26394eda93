// expect: bifrons: this type has no default constructor, so bifrons cannot create one
// The same refusal behind a pointer (the objects of pointers are made by detail/creation.hpp too).
#include <bifrons/core.hpp>
#include <bifrons/types/memory.hpp>

#include <memory>

struct Reading {
  explicit Reading(int v) : value(v) {}
  int value;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value);
  }
};

int main() {
  const auto bytes = bifrons::to_bytes(std::make_unique<Reading>(1));
  return bifrons::from_bytes<std::unique_ptr<Reading>>(bytes)->value;  // offending line
}
