// expect: raw pointers are not serialized
// A raw pointer has no ownership to follow: use std::unique_ptr or a value.
#include <bifrons/core.hpp>

int main() {
  int value = 1;
  int* pointer = &value;
  (void)bifrons::serialized_size(pointer);  // offending line
  return *pointer == 1 ? 0 : 1;
}
