// Minimal save+load program: its size is cereal's (portable archive) footprint in
// an executable.
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id, name, values);
  }
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  std::stringstream stream;
  {
    cereal::PortableBinaryOutputArchive archive(stream);
    archive(in);
  }
  Record out{};
  {
    cereal::PortableBinaryInputArchive archive(stream);
    archive(out);
  }
  return out == in ? 0 : 1;
}
