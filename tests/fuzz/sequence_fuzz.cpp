// Fuzz harness: try_from_bytes of sequences: strings of every character type, vector (also of
// bool, of blocks of every width, of vectors), deque, list, forward_list, std::array, bitset and
// the container adapters, and the sequence types of the golden files. Types without structs,
// sets or maps, records or priority_queue are canonical: a value read re-encodes to its input.
// Properties: fuzz_support.hpp.

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <forward_list>
#include <list>
#include <queue>
#include <stack>
#include <string>
#include <tuple>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

namespace {

using Strings = std::tuple<std::string, std::u8string, std::u16string, std::u32string, std::wstring,
                           std::basic_string<signed char>, std::vector<char>, std::vector<std::uint8_t>>;

struct strings {
  static constexpr const char* name = "strings";
  using type = Strings;
  static constexpr bool canonical = true;
  static std::vector<type> samples() {
    return {{"abc", u8"\u00E9t\u00E9", u"A\U0001F600", U"\U0010FFFF", L"\u20ACx", {}, {'x', '\0'}, {0, 255}}, {}};
  }
};

using Blocks = std::tuple<std::vector<std::int8_t>, std::vector<std::int16_t>, std::vector<std::uint32_t>,
                          std::vector<std::int64_t>, std::vector<float>, std::vector<double>, std::vector<char16_t>,
                          std::vector<char32_t>, std::vector<wchar_t>, std::vector<std::byte>, std::vector<long>,
                          std::vector<unsigned long long>, std::deque<std::uint16_t>, std::forward_list<std::int32_t>,
                          std::list<double>, std::array<std::int32_t, 2>, std::array<bool, 3>>;

struct blocks {
  static constexpr const char* name = "blocks";
  using type = Blocks;
  static constexpr bool canonical = true;
  static std::vector<type> samples() {
    return {{{-1, 1},
             {-300},
             {0xFFFFFFFFu, 0},
             {-1, 1LL << 40},
             {0.5f},
             {-0.0, 1e300},
             {u'x'},
             {U'\U0010FFFF'},
             {L'w'},
             {std::byte{7}},
             {-5L, 5L},
             {~0ULL},
             {1, 2, 3},
             {4, 5},
             {6.5},
             {{-7, 7}},
             {{true, false, true}}},
            {}};
  }
};

using Nested = std::tuple<std::vector<std::vector<std::int32_t>>, std::vector<std::string>, std::deque<std::string>,
                          std::list<std::vector<std::uint8_t>>, std::forward_list<std::string>,
                          std::array<std::string, 2>, std::vector<std::array<std::int16_t, 3>>,
                          std::vector<std::vector<bool>>, std::vector<bool>, std::deque<bool>, std::vector<fuzz::Kind>,
                          std::vector<std::u16string>, std::bitset<130>, std::bitset<7>>;

struct nested {
  static constexpr const char* name = "nested";
  using type = Nested;
  static constexpr bool canonical = true;
  static std::vector<type> samples() {
    return {{{{1, 2}, {}, {-3}},
             {"a", "", "bc"},
             {"d"},
             {{1, 2}, {}},
             {"f", "g"},
             {{"h", "i"}},
             {{{1, 2, 3}}, {{-1, -2, -3}}},
             {{true}, {}, {false, true, false, true, false, true, false, true, true}},
             {true, true, false},
             {false, true},
             {fuzz::Kind::alpha, fuzz::Kind::gamma},
             {u"u16", u""},
             std::bitset<130>().set(0).set(129),
             std::bitset<7>(0x55)},
            {}};
  }
};

using Adapters = std::tuple<std::queue<std::int32_t>, std::stack<std::string>, std::priority_queue<std::int32_t>,
                            std::queue<std::string, std::list<std::string>>, std::stack<double, std::vector<double>>>;

struct adapters {
  static constexpr const char* name = "adapters";
  using type = Adapters;
  static std::vector<type> samples() {
    type t;
    std::get<0>(t).push(1);
    std::get<0>(t).push(-2);
    std::get<1>(t).push("top");
    for (int v : {5, 1, 9, 3, 9}) std::get<2>(t).push(v);
    std::get<3>(t).push("q");
    std::get<4>(t).push(0.25);
    return {t, {}};
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

BIFRONS_FUZZ_CASES(strings, blocks, nested, adapters, golden_case<golden::sequences, false>,
                   golden_case<golden::vector_double, true>, golden_case<golden::vector_int32, true>,
                   golden_case<golden::vector_long, true>, golden_case<golden::blocks, true>,
                   golden_case<golden::vector_bool, true>, golden_case<golden::array_bitset, true>,
                   golden_case<golden::body_8192, false>)
