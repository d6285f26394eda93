// expect: C arrays need #include <bifrons/types/array.hpp>
// The Account model's `char Symbol[10]` with core.hpp alone: one error, naming the header.
#include <bifrons/core.hpp>

struct Account {
  int id = 0;
  char Symbol[10] = {};
};

int main() {
  const Account a{};
  (void)bifrons::to_bytes(a);  // offending line
  return a.id;
}
