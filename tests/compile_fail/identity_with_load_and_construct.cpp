// expect: bifrons: a class with load_and_construct cannot have enable_identity
#include <bifrons/core.hpp>

struct Node {
  explicit Node(int v) : value(v) {}
  int value;
  template <class Archive>
  void save(Archive& ar) const {
    ar(value);
  }
  template <class Archive>
  static Node load_and_construct(Archive& ar) {
    int v = 0;
    ar(v);
    return Node(v);
  }
};
template <>
inline constexpr bool bifrons::enable_identity<Node> = true;

int main() {
  const Node n(1);
  return static_cast<int>(bifrons::to_bytes(n).size());  // offending line
}
