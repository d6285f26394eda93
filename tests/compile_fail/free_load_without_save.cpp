// expect: only one of free save
// A free load() with no save().
#include <bifrons/core.hpp>

#include <vector>

namespace app {
struct ReadOnly {
  int x = 0;
};
template <class Archive>
void load(Archive& ar, ReadOnly& r) {
  ar(r.x);
}
}  // namespace app

int main() {
  const std::vector<unsigned char> bytes{0x02, 0x02};
  const auto r = bifrons::try_from_bytes<app::ReadOnly>(bytes);  // offending line
  return bytes.empty() ? 1 : 0;
}
