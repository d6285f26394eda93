// expect: bifrons: an unscoped enum without a fixed underlying type
// bifrons::fixed() on such an enum is refused by the same rule.
#include <bifrons/core.hpp>

#include <cstdint>

enum Legacy { legacy_a, legacy_b, legacy_c };

struct Holder {
  Legacy value = legacy_a;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::fixed(value));
  }
};

int main() { return static_cast<int>(bifrons::serialized_size(Holder{})); }
