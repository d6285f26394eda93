// expect: bifrons: schema<T, Registered[.][.][.]>[(][)] lists registered polymorphic classes after T
// Only polymorphic classes can be registered (and held by pointers to a base): a plain struct
// after T is a mistake, most likely a second root.
#include <bifrons/schema.hpp>

#include <cstdint>

struct Point {
  std::int32_t x = 0;
};
struct Plain {
  std::int32_t y = 0;
};

int main() { return static_cast<int>(bifrons::schema<Point, Plain>().size()); }
