// Minimal save+load program: its size is bifrons' footprint in an executable.
// It includes the headers it uses, the core and one header per standard type, as cereal's
// minimal program does; <bifrons/bifrons.hpp> (every type) compiles slower and makes the same
// executable.
#include <bifrons/core.hpp>
#include <bifrons/types/string.hpp>
#include <bifrons/types/vector.hpp>

#include <cstdint>
#include <string>
#include <vector>

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  const std::vector<std::byte> bytes = bifrons::to_bytes(in);
  return bifrons::from_bytes<Record>(bytes) == in ? 0 : 1;
}
