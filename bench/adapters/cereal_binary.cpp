// cereal, binary archive: raw host-endian bytes, sizes as 64-bit integers.
// The serialize functions, stream buffers and adapter are in cereal_common.hpp
// (shared with the portable archive); see there for why the streams are
// custom streambufs kept across calls.
#include <cereal/archives/binary.hpp>  // before cereal_common.hpp (polymorphic bindings)

#include "cereal_common.hpp"

namespace {

struct cereal_binary_adapter : bench_cereal::adapter<cereal::BinaryOutputArchive, cereal::BinaryInputArchive> {
  static constexpr std::string_view name = "cereal_binary";
};

}  // namespace

BENCH_ADAPTER(cereal_binary_adapter);
