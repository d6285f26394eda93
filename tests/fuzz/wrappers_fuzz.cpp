// Fuzz harness: try_from_bytes of optional, variant, tuple, pair, monostate, complex, chrono and
// integers and floats at their edges, nested in each other, and the golden cases of these types.
// Properties: fuzz_support.hpp.

#include <array>
#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

namespace {

using fuzz::Kind;
using fuzz::Point;

/// No structs, sets or maps: every value has one encoding, which a read must give back.
using Plain =
    std::tuple<std::optional<std::optional<std::int32_t>>, std::optional<std::vector<std::string>>,
               std::variant<std::int8_t, std::uint64_t, double, std::string, std::vector<std::int32_t>,
                            std::optional<std::string>, std::monostate>,
               std::variant<std::monostate, std::tuple<std::int32_t, std::string>, std::pair<std::string, std::string>>,
               std::tuple<std::tuple<>, std::tuple<std::int32_t>, std::tuple<std::string, std::tuple<bool, char>>>,
               std::pair<std::optional<Kind>, std::variant<bool, std::byte>>, std::optional<std::monostate>,
               std::variant<std::chrono::seconds, std::complex<double>>,
               std::chrono::time_point<std::chrono::system_clock, std::chrono::microseconds>,
               std::chrono::duration<double, std::milli>, std::complex<float>, std::optional<fuzz::Level>>;

struct plain {
  static constexpr const char* name = "plain";
  using type = Plain;
  static constexpr bool canonical = true;
  static std::vector<type> samples() {
    type a{std::optional<std::int32_t>{-1},
           std::vector<std::string>{"x", ""},
           std::string("alt"),
           std::pair<std::string, std::string>{"p", "q"},
           {{}, {7}, {"s", {true, 'c'}}},
           {Kind::beta, std::byte{9}},
           std::monostate{},
           std::complex<double>(1.0, -1.0),
           std::chrono::time_point<std::chrono::system_clock, std::chrono::microseconds>(
               std::chrono::microseconds(1'700'000'000'000'000)),
           std::chrono::duration<double, std::milli>(2.5),
           {0.5f, 1.5f},
           fuzz::level_low};
    type b{};
    std::get<0>(b) = std::optional<std::int32_t>{};
    std::get<2>(b) = std::monostate{};
    return {a, b};
  }
};

/// With structs inside: not canonical (an envelope may hold bytes a reader skips).
using WithStructs = std::tuple<std::optional<Point>, std::variant<Point, std::vector<Point>, std::optional<Point>>,
                               std::pair<Point, std::optional<std::tuple<Point, std::string>>>,
                               std::vector<std::variant<std::int32_t, Point, fuzz::Sample>>>;

struct with_structs {
  static constexpr const char* name = "with_structs";
  using type = WithStructs;
  static std::vector<type> samples() {
    return {{Point{1, 2},
             std::vector<Point>{{3, 4}},
             {{5, 6}, std::tuple<Point, std::string>{{7, 8}, "t"}},
             {1, Point{9, 10}, fuzz::Sample{1, 2.0, 3, true, Kind::alpha}}},
            {}};
  }
};

template <class Golden, bool Canonical>
struct golden_case {
  static constexpr const char* name = Golden::name;
  using type = typename Golden::type;
  static constexpr bool canonical = Canonical;
  static constexpr std::array golden{Golden::name};
  static std::vector<type> samples() { return {Golden::value(), type{}}; }
};

}  // namespace

BIFRONS_FUZZ_CASES(plain, with_structs, golden_case<golden::optional_variant, false>,
                   golden_case<golden::tuple_pair, true>, golden_case<golden::complex_chrono, true>,
                   golden_case<golden::empties, false>, golden_case<golden::integers, true>,
                   golden_case<golden::floats, true>)
