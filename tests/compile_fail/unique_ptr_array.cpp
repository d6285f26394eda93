// expect: unique_ptr<T.*has no size
#include <bifrons/core.hpp>
#include <bifrons/types/memory.hpp>

#include <memory>

int main() {
  const std::unique_ptr<int[]> p = std::make_unique<int[]>(3);
  (void)bifrons::to_bytes(p);  // offending line
  return p[0];
}
