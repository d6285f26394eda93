// Minimal save+load program: its size is Boost.Serialization's (binary
// archive) footprint in an executable.
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

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
  void serialize(Archive& ar, const unsigned int) {
    ar & id & name & values;
  }
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  std::stringstream stream;
  {
    boost::archive::binary_oarchive archive(stream);
    archive << in;
  }
  Record out{};
  {
    boost::archive::binary_iarchive archive(stream);
    archive >> out;
  }
  return out == in ? 0 : 1;
}
