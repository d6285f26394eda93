// Minimal save+load program: its size is Cap'n Proto's footprint in an
// executable (libcapnp and libkj linked statically, as a header-only library
// is).
#include <capnp/message.h>
#include <capnp/serialize.h>

#include <cstdint>
#include <string>
#include <vector>

#include "minimal.capnp.h"

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  capnp::MallocMessageBuilder message;
  auto record = message.initRoot<minimalcp::Record>();
  record.setId(in.id);
  record.setName(capnp::Text::Reader(in.name.c_str(), in.name.size()));
  record.setValues(kj::ArrayPtr<const double>(in.values.data(), in.values.size()));
  const kj::Array<capnp::word> bytes = capnp::messageToFlatArray(message);

  capnp::FlatArrayMessageReader reader(bytes);
  const auto parsed = reader.getRoot<minimalcp::Record>();
  Record out{parsed.getId(), parsed.getName().cStr(), {}};
  for (const double x : parsed.getValues()) out.values.push_back(x);
  return out == in ? 0 : 1;
}
