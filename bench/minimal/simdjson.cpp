// Minimal save+load program: its size is simdjson's footprint. simdjson only
// parses, so the saving half is a few lines of hand-written JSON.
#include <simdjson.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};

namespace {

template <class N>
void put(std::string& out, N v) {
  char digits[32];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

}  // namespace

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};

  std::string text = "{\"id\":";
  put(text, in.id);
  text += ",\"name\":\"" + in.name + "\",\"values\":[";  // the name needs no escaping
  for (std::size_t k = 0; k < in.values.size(); ++k) {
    if (k > 0) text += ',';
    put(text, in.values[k]);
  }
  text += "]}";

  simdjson::ondemand::parser parser;
  const simdjson::padded_string padded(text);
  simdjson::ondemand::document doc;
  if (parser.iterate(padded).get(doc)) return 1;
  Record out{};
  std::int64_t id = 0;
  std::string_view name;
  simdjson::ondemand::array values;
  if (doc["id"].get(id) || doc["name"].get(name) || doc["values"].get(values)) return 1;
  out.id = static_cast<std::int32_t>(id);
  out.name = name;
  for (auto value : values) {
    double x = 0;
    if (value.get(x)) return 1;
    out.values.push_back(x);
  }
  return out == in ? 0 : 1;
}
