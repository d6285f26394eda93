// expect: bifrons: raw pointers need #include <bifrons/pointers.hpp>
// core.hpp leaves the pointer machinery out of programs without pointers: a raw pointer names its header.
#include <bifrons/core.hpp>

struct Node {
  int value = 0;
  Node* parent = nullptr;
};

int main() { return static_cast<int>(bifrons::to_bytes(Node{}).size()); }
