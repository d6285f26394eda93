// Downstream smoke test: round-trips plain aggregates through the public API. The pkg-config
// mode builds it as a user's release build would (-O2 -Wall -Wextra -Wpedantic -Werror), so a
// warning the library's headers cause in user code at -O2 fails the test: the struct of two ints
// once drew a false -Wstringop-overflow from GCC 12 at -O2, without any -W flag.
#include <bifrons/bifrons.hpp>

#include <string>

struct P {
  int x;
  std::string s;
};

struct Point {
  int x;
  int y;
};

int main() {
  auto b = bifrons::to_bytes(P{42, "hi"});
  auto q = bifrons::from_bytes<P>(b);
  auto point = bifrons::from_bytes<Point>(bifrons::to_bytes(Point{3, -4}));
  return (q.x == 42 && q.s == "hi" && point.x == 3 && point.y == -4) ? 0 : 1;
}
