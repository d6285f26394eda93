// expect: bifrons: this aggregate has a base class, which reflection cannot see
// An aggregate with a base class and no hook: its members cannot be visited (a structured
// binding needs them in one class) and its base cannot be named, so bifrons asks for a hook.
#include <bifrons/core.hpp>

struct Animal {
  int legs = 4;
};
struct Dog : Animal {
  bool good = true;
};

int main() {
  const Dog d{};
  return static_cast<int>(bifrons::to_bytes(d).size());  // offending line
}
