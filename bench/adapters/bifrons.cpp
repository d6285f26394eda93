// bifrons: the library under test. The models are plain aggregates, so there
// is no code per type here; the adapter is in bifrons_common.hpp (shared with
// bifrons_record.cpp).
#include "bifrons_common.hpp"

namespace {

struct bifrons_adapter : bench_bifrons::adapter_base {
  static constexpr std::string_view name = "bifrons";
};

}  // namespace

BENCH_ADAPTER(bifrons_adapter);
