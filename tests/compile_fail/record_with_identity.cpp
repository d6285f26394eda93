// expect: bifrons: a record cannot have enable_identity
// Records are copied as blocks, so their objects cannot take ids.
#include <bifrons/core.hpp>

#include <cstdint>

struct Point {
  std::int32_t x = 0, y = 0;
};
template <>
inline constexpr bool bifrons::enable_record<Point> = true;
template <>
inline constexpr bool bifrons::enable_identity<Point> = true;

int main() {
  const Point p{1, 2};
  (void)bifrons::to_bytes(p);  // offending line
  return p.x;
}
