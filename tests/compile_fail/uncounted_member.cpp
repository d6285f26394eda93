// expect: bifrons: reflection cannot count this aggregate's members
// A std::mutex member can be neither copied nor moved: counting the members by aggregate
// initialization stops before it, and the members from there on would be lost without a word.
#include <bifrons/core.hpp>
#include <bifrons/types/string.hpp>

#include <cstdint>
#include <mutex>
#include <string>

struct Guarded {
  std::mutex lock;
  std::string name;
  std::int32_t count = 0;
};

int main() {
  const Guarded g{};
  return static_cast<int>(bifrons::to_bytes(g).size());  // offending line
}
