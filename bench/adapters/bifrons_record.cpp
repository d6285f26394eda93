// bifrons with the fixed-width models declared records (bifrons/record.hpp):
// IntegerClass, Order and Balance. Everything else is bench_bifrons' adapter
// (bifrons_common.hpp), so the two executables differ only in these three
// declarations. A record has its own, fixed-width encoding: this adapter's
// bytes differ from bench_bifrons', and its round trips compare values, as
// every adapter's do.
#include <bifrons/bifrons.hpp>
#include <bifrons/record.hpp>

#include "../harness/models.hpp"

template <>
inline constexpr bool bifrons::enable_record<bench::model::IntegerClass> = true;
template <>
inline constexpr bool bifrons::enable_record<bench::model::Order> = true;
template <>
inline constexpr bool bifrons::enable_record<bench::model::Balance> = true;

#include "bifrons_common.hpp"

namespace {

struct bifrons_record_adapter : bench_bifrons::adapter_base {
  static constexpr std::string_view name = "bifrons_record";
};

}  // namespace

BENCH_ADAPTER(bifrons_record_adapter);
