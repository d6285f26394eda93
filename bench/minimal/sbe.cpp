// Minimal save+load program: its size is SBE's footprint in an executable
// (the generated C++ is header-only).
#include <cstdint>
#include <string>
#include <vector>

#include "minimalsbe/MessageHeader.h"
#include "minimalsbe/Record.h"

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  std::vector<char> buffer(minimalsbe::MessageHeader::encodedLength() +
                           minimalsbe::Record::computeLength(in.values.size(), in.name.size()));
  minimalsbe::Record message;
  message.wrapAndApplyHeader(buffer.data(), 0, buffer.size()).id(in.id);
  auto& values = message.valuesCount(static_cast<std::uint16_t>(in.values.size()));
  for (const double x : in.values) values.next().value(x);
  message.putName(in.name);

  const minimalsbe::MessageHeader header(buffer.data(), 0, buffer.size(), minimalsbe::Record::sbeSchemaVersion());
  if (header.templateId() != minimalsbe::Record::sbeTemplateId()) return 1;
  minimalsbe::Record parsed;
  parsed.wrapForDecode(buffer.data(), minimalsbe::MessageHeader::encodedLength(), header.blockLength(),
                       header.version(), buffer.size());
  Record out{parsed.id(), {}, {}};
  auto& parsed_values = parsed.values();
  while (parsed_values.hasNext()) out.values.push_back(parsed_values.next().value());
  out.name = parsed.getNameAsString();
  return out == in ? 0 : 1;
}
