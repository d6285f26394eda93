// Minimal save+load program: its size is FlatBuffers' footprint in an
// executable (the FlatBuffers runtime used here is header-only).
#include <cstdint>
#include <string>
#include <vector>

#include "minimal_generated.h"

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(minimalfb::CreateRecord(builder, in.id, builder.CreateString(in.name), builder.CreateVector(in.values)));

  flatbuffers::Verifier verifier(builder.GetBufferPointer(), builder.GetSize());
  if (!minimalfb::VerifyRecordBuffer(verifier)) return 1;
  const minimalfb::Record* record = minimalfb::GetRecord(builder.GetBufferPointer());
  const Record out{record->id(), record->name()->str(), {record->values()->begin(), record->values()->end()}};
  return out == in ? 0 : 1;
}
