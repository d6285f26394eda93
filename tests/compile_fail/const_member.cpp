// expect: bifrons: this aggregate has a const member, which cannot be read into
#include <bifrons/core.hpp>

struct Limits {
  const int max = 10;
  int used = 0;
};

int main() {
  const auto bytes = bifrons::to_bytes(Limits{});
  return bifrons::from_bytes<Limits>(bytes).used;  // offending line
}
