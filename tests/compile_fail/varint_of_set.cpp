// expect: bifrons: varint[(][)] applies to the integers or enums of a vector
// A std::set has no resize and no fixed size: varint() on it could be written but not read.
#include <bifrons/bifrons.hpp>

#include <set>

struct Tags {
  std::set<int> tags;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::varint(tags));
  }
};

int main() { return static_cast<int>(bifrons::from_bytes<Tags>(bifrons::to_bytes(Tags{})).tags.size()); }
