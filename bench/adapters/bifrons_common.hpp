// The bifrons adapter, shared by bench_bifrons (bifrons.cpp: the models as
// plain structs) and bench_bifrons_record (bifrons_record.cpp: the same code,
// with the models declared records first). Each .cpp includes this header,
// makes its declarations, and derives its adapter with its own name.
#pragma once

#include <bifrons/bifrons.hpp>

#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../harness/harness.hpp"

namespace bench_bifrons {

// bifrons refuses polymorphic pointers with a static_assert (a hard error, not
// a substitution failure), so the polymorphic tree is excluded here by name.
template <class T>
concept supported = !std::is_same_v<T, std::unique_ptr<bench::model::PolyNode>>;

struct adapter_base {
  // The reused buffer keeps its size between calls and is written through the span overload,
  // as docs/ recommend for speed: to_bytes(value, vector&) must resize() the vector, and
  // std::vector::resize zero-fills what we then overwrite (57-65% of memcpy speed on 8 MiB of
  // doubles). It grows when a message does not fit, to the size try_to_bytes reports.
  std::vector<std::byte> buffer;

  template <class T>
    requires supported<T>
  bench::bytes_view encode(const T& value) {
    auto written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
    if (!written) {
      buffer.resize(written.offset());
      written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
    }
    return std::span<const std::byte>(buffer).first(written.value());
  }

  template <class T>
    requires supported<T>
  std::size_t encode_into(const T& value, std::span<std::byte> out) {
    return bifrons::to_bytes(value, out);
  }

  template <class T>
    requires supported<T>
  void decode(bench::bytes_view in, T& out) {
    bifrons::from_bytes(in, out);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "poly_tree") return "bifrons does not support polymorphic pointers yet";
    return {};
  }
};

}  // namespace bench_bifrons
