// expect: bifrons: owning[(][)] needs #include <bifrons/pointers.hpp>
// owning() is declared with the field helpers; its codec is in pointers.hpp, which the refusal names.
#include <bifrons/core.hpp>

struct Node {
  int value = 0;
  Node* child = nullptr;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value, bifrons::owning(child));
  }
};

int main() { return static_cast<int>(bifrons::to_bytes(Node{}).size()); }
