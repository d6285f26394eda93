// expect: only std::span<const T>
// A span read points into the input, which is const: std::span<int> cannot be read (writing
// one is fine, see the line above the offending one).
#include <bifrons/core.hpp>
#include <bifrons/types/views.hpp>

#include <span>
#include <vector>

int main() {
  std::vector<int> storage{1, 2, 3};
  std::span<int> view(storage);
  const auto bytes = bifrons::to_bytes(view);
  bifrons::from_bytes(bytes, view);  // offending line
  return bytes.empty() ? 1 : 0;
}
