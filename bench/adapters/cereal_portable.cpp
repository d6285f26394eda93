// cereal, portable binary archive: the binary archive plus an endianness flag
// byte up front, byte-swapping on load when the writer's order differs (never
// here: both ends are this host, which is what portable users pay on a
// same-endian link).
// The serialize functions, stream buffers and adapter are in cereal_common.hpp
// (shared with the binary archive); see there for why the streams are custom
// streambufs kept across calls.
#include <cereal/archives/portable_binary.hpp>  // before cereal_common.hpp (polymorphic bindings)

#include "cereal_common.hpp"

namespace {

struct cereal_portable_adapter
    : bench_cereal::adapter<cereal::PortableBinaryOutputArchive, cereal::PortableBinaryInputArchive> {
  static constexpr std::string_view name = "cereal_portable";
};

}  // namespace

BENCH_ADAPTER(cereal_portable_adapter);
