// expect: bifrons: this aggregate has a base class.*base<std::string>
// A class derived from a standard type, with no hook: the message says how to write it.
#include <bifrons/core.hpp>
#include <bifrons/types/string.hpp>

#include <string>

struct Path : std::string {};

int main() {
  const Path p{};
  return static_cast<int>(bifrons::to_bytes(p).size());  // offending line
}
