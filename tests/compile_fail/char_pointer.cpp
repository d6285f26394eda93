// expect: bifrons: char[*] is not a string here
// A char* field is a pointer to one char, not a C string: the message names the fix.
#include <bifrons/core.hpp>
#include <bifrons/pointers.hpp>

struct Message {
  const char* text = nullptr;
};

int main() {
  const Message m{"hello"};
  (void)bifrons::to_bytes(m);  // offending line
  return m.text[0] == 'h' ? 0 : 1;
}
