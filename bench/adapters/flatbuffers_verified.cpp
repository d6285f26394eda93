// FlatBuffers with the Verifier run before reading, as for untrusted input
// (see flatbuffers_common.hpp).
#include "flatbuffers_common.hpp"

namespace {

struct flatbuffers_verified_adapter : bench_flatbuffers::adapter_base<true> {
  static constexpr std::string_view name = "flatbuffers_verified";
};

}  // namespace

BENCH_ADAPTER(flatbuffers_verified_adapter);
