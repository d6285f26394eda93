// expect: only inherits a serialization hook from a base class
// A registered subclass without a hook of its own: the one error says so (not also "a registered
// class is written as a struct").
#include <bifrons/bifrons.hpp>

struct Node {
  int x = 0;
  virtual ~Node() = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};
struct Mesh : Node {
  int vertices = 0;
};
BIFRONS_REGISTER(Mesh, "scene.Mesh");  // offending line

int main() {
  std::unique_ptr<Node> p = std::make_unique<Mesh>();
  (void)bifrons::to_bytes(p);
  return 0;
}
