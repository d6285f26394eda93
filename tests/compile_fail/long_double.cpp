// expect: long double has no portable encoding
// long double is 64, 80 or 128 bits depending on the platform.
#include <bifrons/core.hpp>

int main() {
  const long double x = 1.0L;
  (void)bifrons::to_bytes(x);  // offending line
  return x > 0 ? 0 : 1;
}
