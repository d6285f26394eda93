// Downstream smoke test: round-trips a plain aggregate through the public API.
#include <bifrons/bifrons.hpp>

#include <string>

struct P {
  int x;
  std::string s;
};

int main() {
  auto b = bifrons::to_bytes(P{42, "hi"});
  auto q = bifrons::from_bytes<P>(b);
  return (q.x == 42 && q.s == "hi") ? 0 : 1;
}
