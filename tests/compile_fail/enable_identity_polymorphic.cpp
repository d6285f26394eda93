// expect: bifrons: enable_identity on a polymorphic class is not supported
// A by-value object keeps its static type; polymorphic objects get identity through pointers.
#include <bifrons/core.hpp>
#include <bifrons/types/vector.hpp>

#include <vector>

struct Node {
  virtual ~Node() = default;
  int x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};
template <>
inline constexpr bool bifrons::enable_identity<Node> = true;

int main() {
  const std::vector<Node> nodes(2);
  (void)bifrons::to_bytes(nodes);  // offending line
}
