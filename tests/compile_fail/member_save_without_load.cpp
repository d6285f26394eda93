// expect: only one of member save
// A member save() with no load(): the data could be written but never read back.
#include <bifrons/core.hpp>

struct WriteOnly {
  int x = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(x);
  }
};

int main() {
  const WriteOnly w{};
  (void)bifrons::to_bytes(w);  // offending line
  return w.x;
}
