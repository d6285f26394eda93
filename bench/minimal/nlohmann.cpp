// Minimal save+load program: its size is nlohmann/json's footprint.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Record, id, name, values)

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  const std::string text = nlohmann::json(in).dump();
  return nlohmann::json::parse(text).get<Record>() == in ? 0 : 1;
}
