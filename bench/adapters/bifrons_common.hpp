// The bifrons adapter, shared by bench_bifrons (bifrons.cpp: the models as
// plain structs) and bench_bifrons_record (bifrons_record.cpp: the same code,
// with the models declared records first). Each .cpp includes this header,
// makes its declarations, and derives its adapter with its own name.
#pragma once

#include <bifrons/bifrons.hpp>

#include <algorithm>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../harness/harness.hpp"

// The polymorphic tree: its classes have virtual functions, so they are not aggregates and
// need hooks (free functions, found by ADL); every level's class is registered under a short
// stable name. base<PolyNode> in the hook relates each level to PolyNode.
namespace bench::model {
template <class Archive>
void serialize(Archive& ar, PolyNode& n) {
  ar(n.value, n.left, n.right);
}
template <class Archive, int Level>
void serialize(Archive& ar, PolyLevel<Level>& n) {
  ar(bifrons::base<PolyNode>(n));
}
}  // namespace bench::model

BIFRONS_REGISTER(bench::model::PolyLevel<0>, "L0");
BIFRONS_REGISTER(bench::model::PolyLevel<1>, "L1");
BIFRONS_REGISTER(bench::model::PolyLevel<2>, "L2");
BIFRONS_REGISTER(bench::model::PolyLevel<3>, "L3");
BIFRONS_REGISTER(bench::model::PolyLevel<4>, "L4");
BIFRONS_REGISTER(bench::model::PolyLevel<5>, "L5");
BIFRONS_REGISTER(bench::model::PolyLevel<6>, "L6");
BIFRONS_REGISTER(bench::model::PolyLevel<7>, "L7");
BIFRONS_REGISTER(bench::model::PolyLevel<8>, "L8");
BIFRONS_REGISTER(bench::model::PolyLevel<9>, "L9");
static_assert(bench::model::max_tree_depth == 9, "register every PolyLevel<> above");

namespace bench_bifrons {


struct adapter_base {
  // The reused buffer keeps its size between calls and is written through the span overload,
  // the way the other adapters write into their reused buffers. It grows when a message does
  // not fit, to size_bound(value) (docs/api.md: what a reused buffer is sized by), so that later
  // writes take the one-pass path; grown only to the size try_to_bytes reports, every write of a
  // message smaller than its bound went through scratch space and a copy. (to_bytes(value,
  // vector&) appends without zero-filling since issue 10, but then the vector must be cleared
  // before each message.)
  std::vector<std::byte> buffer;

  template <class T>
  bench::bytes_view encode(const T& value) {
    auto written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
    if (!written) {
      buffer.resize(std::max(written.offset(), bifrons::size_bound(value)));
      written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
    }
    return std::span<const std::byte>(buffer).first(written.value());
  }

  template <class T>
  std::size_t encode_into(const T& value, std::span<std::byte> out) {
    return bifrons::to_bytes(value, out);
  }

  template <class T>
  void decode(bench::bytes_view in, T& out) {
    bifrons::from_bytes(in, out);
  }

  static std::string_view unsupported_reason(std::string_view) { return {}; }
};

}  // namespace bench_bifrons
