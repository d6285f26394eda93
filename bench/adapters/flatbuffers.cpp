// FlatBuffers, trusting its input: GetRoot and convert (see flatbuffers_common.hpp).
#include "flatbuffers_common.hpp"

namespace {

struct flatbuffers_adapter : bench_flatbuffers::adapter_base<false> {
  static constexpr std::string_view name = "flatbuffers";
};

}  // namespace

BENCH_ADAPTER(flatbuffers_adapter);
