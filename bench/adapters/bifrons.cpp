// bifrons: the library under test. The models are plain aggregates, so there
// is no code per type here.
#include <bifrons/bifrons.hpp>

#include "../harness/harness.hpp"

namespace {

// bifrons refuses shared_ptr and polymorphic pointers with a static_assert (a
// hard error, not a substitution failure), so the unsupported trees are
// excluded here by name.
template <class T>
concept bifrons_supported = !std::is_same_v<T, std::shared_ptr<bench::model::SharedNode>> &&
                            !std::is_same_v<T, std::unique_ptr<bench::model::PolyNode>>;

struct bifrons_adapter {
  static constexpr std::string_view name = "bifrons";

  // The reused buffer keeps its size between calls and is written through the span overload,
  // as docs/ recommend for speed: to_bytes(value, vector&) must resize() the vector, and
  // std::vector::resize zero-fills what we then overwrite (57-65% of memcpy speed on 8 MiB of
  // doubles). It grows when a message does not fit, to the size try_to_bytes reports.
  std::vector<std::byte> buffer;

  template <class T>
    requires bifrons_supported<T>
  bench::bytes_view encode(const T& value) {
    auto written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
    if (!written) {
      buffer.resize(written.offset());
      written = bifrons::try_to_bytes(value, std::span<std::byte>(buffer));
    }
    return std::span<const std::byte>(buffer).first(written.value());
  }

  template <class T>
    requires bifrons_supported<T>
  std::size_t encode_into(const T& value, std::span<std::byte> out) {
    return bifrons::to_bytes(value, out);
  }

  template <class T>
    requires bifrons_supported<T>
  void decode(bench::bytes_view in, T& out) {
    bifrons::from_bytes(in, out);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree") return "bifrons does not support shared_ptr/weak_ptr yet";
    if (family == "poly_tree") return "bifrons does not support polymorphic pointers yet";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(bifrons_adapter);
