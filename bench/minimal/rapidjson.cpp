// Minimal save+load program: its size is RapidJSON's footprint.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

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

  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> w(text);
  w.StartObject();
  w.Key("id");
  w.Int(in.id);
  w.Key("name");
  w.String(in.name.data(), static_cast<rapidjson::SizeType>(in.name.size()));
  w.Key("values");
  w.StartArray();
  for (double v : in.values) w.Double(v);
  w.EndArray();
  w.EndObject();

  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.GetString(), text.GetSize());
  if (doc.HasParseError() || !doc.IsObject()) return 1;
  const auto id = doc.FindMember("id");
  const auto name = doc.FindMember("name");
  const auto values = doc.FindMember("values");
  if (id == doc.MemberEnd() || !id->value.IsInt() || name == doc.MemberEnd() || !name->value.IsString() ||
      values == doc.MemberEnd() || !values->value.IsArray()) {
    return 1;
  }
  Record out{id->value.GetInt(), std::string(name->value.GetString(), name->value.GetStringLength()), {}};
  for (const auto& v : values->value.GetArray()) {
    if (!v.IsNumber()) return 1;
    out.values.push_back(v.GetDouble());
  }
  return out == in ? 0 : 1;
}
