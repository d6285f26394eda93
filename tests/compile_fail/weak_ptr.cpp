// expect: weak_ptr is not supported yet
#include <bifrons/core.hpp>
#include <bifrons/types/memory.hpp>

#include <memory>

int main() {
  const auto p = std::make_shared<int>(1);
  const std::weak_ptr<int> w = p;
  (void)bifrons::to_bytes(w);  // offending line
  return w.expired() ? 1 : 0;
}
