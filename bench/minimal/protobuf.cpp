// Minimal save+load program: its size is protobuf's footprint in an
// executable (libprotobuf linked statically, as a header-only library is).
#include <cstdint>
#include <string>
#include <vector>

#include "minimal.pb.h"

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  minimalpb::Record message;
  message.set_id(in.id);
  message.set_name(in.name);
  message.mutable_values()->Add(in.values.begin(), in.values.end());
  const std::string bytes = message.SerializeAsString();

  minimalpb::Record parsed;
  if (!parsed.ParseFromString(bytes)) return 1;
  const Record out{parsed.id(), parsed.name(), {parsed.values().begin(), parsed.values().end()}};
  return out == in ? 0 : 1;
}
