// Fuzz harness: try_from_bytes of associative containers: set, multiset, map, multimap and their
// unordered forms, nested, with struct and record values, and the golden maps_sets case.
// Ordered containers are compared by their bytes, unordered ones by value (their bytes follow the
// hash table's order). Properties: fuzz_support.hpp.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

namespace {

using fuzz::Kind;
using fuzz::Point;

using Ordered = std::tuple<std::map<std::string, std::int32_t>, std::set<std::int64_t>,
                           std::multimap<std::int32_t, std::optional<std::string>>, std::multiset<std::string>,
                           std::map<std::pair<std::int32_t, std::string>, std::set<std::string>>,
                           std::set<std::vector<std::uint8_t>>, std::map<Kind, Point>,
                           std::map<std::int16_t, std::map<std::int16_t, std::string>>, std::set<Point>,
                           std::map<std::string, fuzz::Sample>, std::map<std::uint8_t, std::vector<fuzz::Pixel>>>;

struct ordered {
  static constexpr const char* name = "ordered";
  using type = Ordered;
  static std::vector<type> samples() {
    return {{{{"a", 1}, {"b", -1}},
             {-5, 0, 1LL << 40},
             {{1, "x"}, {1, std::nullopt}, {-1, "y"}},
             {"m", "m", "n"},
             {{{1, "k"}, {"s", "t"}}, {{1, "l"}, {}}},
             {{1, 2}, {}},
             {{Kind::alpha, {1, 2}}, {Kind::gamma, {3, 4}}},
             {{1, {{2, "two"}}}, {-1, {}}},
             {{0, 0}, {1, -1}},
             {{"s", {1, 0.5, 2, true, Kind::beta}}},
             {{7, {{1, 2, 3, 4}}}}},
            {}};
  }
};

using Unordered = std::tuple<std::unordered_map<std::int32_t, std::string>, std::unordered_set<std::string>,
                             std::unordered_multimap<std::string, std::int32_t>, std::unordered_multiset<std::int64_t>,
                             std::unordered_map<std::string, std::unordered_set<std::int32_t>>,
                             std::unordered_map<std::uint64_t, std::vector<std::string>>,
                             std::map<std::string, std::unordered_set<std::string>>>;

struct unordered {
  static constexpr const char* name = "unordered";
  using type = Unordered;
  static bool same(const type& a, const type& b) { return a == b; }
  static std::vector<type> samples() {
    return {{{{1, "one"}, {-2, "minus two"}},
             {"a", "b", "c"},
             {{"k", 1}, {"k", 2}, {"j", 3}},
             {5, 5, -5},
             {{"s", {1, 2}}, {"t", {}}},
             {{1ULL << 63, {"x", ""}}},
             {{"u", {"v", "w"}}}},
            {}};
  }
};

struct maps_sets {
  static constexpr const char* name = "maps_sets";
  using type = golden::maps_sets::type;
  static constexpr std::array golden{golden::maps_sets::name};
  static bool same(const type& a, const type& b) { return fuzz::same_parts(a, b); }
  static std::vector<type> samples() { return {golden::maps_sets::value(), type{}}; }
};

}  // namespace

BIFRONS_FUZZ_CASES(ordered, unordered, maps_sets)
