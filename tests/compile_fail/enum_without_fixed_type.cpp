// expect: bifrons: an unscoped enum without a fixed underlying type
// Such an enum holds only the values of its enumerators' bit range: loading 10 into Legacy would
// be undefined behaviour, so bifrons refuses the type and asks for `enum Legacy : type`.
#include <bifrons/core.hpp>

#include <cstddef>
#include <vector>

enum Legacy { legacy_a, legacy_b, legacy_c };

int main() {
  const std::vector<std::byte> bytes{std::byte{0x0a}};
  return static_cast<int>(bifrons::from_bytes<Legacy>(bytes));
}
