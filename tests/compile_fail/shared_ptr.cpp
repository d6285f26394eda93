// expect: shared_ptr is not supported yet
// Shared identity is specified in docs/format.md but not implemented.
#include <bifrons/core.hpp>
#include <bifrons/types/memory.hpp>

#include <memory>

int main() {
  const auto p = std::make_shared<int>(1);
  (void)bifrons::to_bytes(p);  // offending line
  return *p == 1 ? 0 : 1;
}
