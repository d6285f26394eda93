// expect: bifrons: enable_identity gives objects ids for pointers, whose machinery this program does not include
// enable_identity is for pointers that refer to by-value objects; without a pointer's header there is no machinery.
#include <bifrons/core.hpp>

struct Node {
  int value = 0;
};
template <>
inline constexpr bool bifrons::enable_identity<Node> = true;

int main() { return static_cast<int>(bifrons::to_bytes(Node{}).size()); }
