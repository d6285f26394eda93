// expect: declares its version twice
// A version inside the class and BIFRONS_CLASS_VERSION outside it: which one is meant?
#include <bifrons/core.hpp>

struct Order {
  static constexpr std::uint32_t bifrons_version = 2;
  int id = 0;
};
BIFRONS_CLASS_VERSION(Order, 3);

int main() {
  const Order o{};
  (void)bifrons::to_bytes(o);  // offending line
  return o.id;
}
