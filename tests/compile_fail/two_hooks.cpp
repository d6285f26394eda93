// expect: more than one serialization hook
// Both a member serialize and a free serialize (found by ADL): which one wins would be a guess.
#include <bifrons/core.hpp>

namespace app {
struct Both {
  int x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};

template <class Archive>
void serialize(Archive& ar, Both& b) {
  ar(b.x);
}
}  // namespace app

int main() {
  const app::Both b{};
  (void)bifrons::to_bytes(b);  // offending line
  return b.x;
}
