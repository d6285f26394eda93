// expect: integers wider than 64 bits .__int128. have no encoding
// flags: -std=gnu++20
// In GNU mode __int128 is an integral type; a varint would have dropped its high 64 bits.
#include <bifrons/core.hpp>

int main() {
  const __int128 x = static_cast<__int128>(1) << 70;
  (void)bifrons::to_bytes(x);  // offending line
  return 0;
}
