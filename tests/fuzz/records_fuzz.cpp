// Fuzz harness: try_from_bytes of records (bifrons/record.hpp): alone, in blocks (vector, deque,
// list, forward_list, std::array, C arrays) read field by field and by memcpy, nested records,
// records inside structs, maps, optionals and variants, and the golden records cases.
// Properties: fuzz_support.hpp.

#include <array>
#include <cstdint>
#include <deque>
#include <forward_list>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

namespace {

using fuzz::Kind;
using fuzz::Pixel;
using fuzz::Sample;

/// A record nesting records and arrays of them, with a bool, an enum and a char array.
struct Frame {
  std::uint32_t seq = 0;
  Pixel fill;
  Pixel border[2];
  std::array<golden::RecPoint, 2> span{};
  bool visible = false;
  Kind kind = Kind::none;
  char code[3] = {};
  double scale = 0;
  bool operator==(const Frame&) const = default;
};

/// A struct holding records among varint fields.
struct Scene {
  std::string title;
  std::vector<Frame> frames;
  Frame current;
  std::deque<Pixel> palette;
  std::int64_t tail = 0;
  bool operator==(const Scene&) const = default;
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_record<Frame> = true;

namespace {

Frame frame(std::uint32_t seq) {
  Frame f;
  f.seq = seq;
  f.fill = {1, 2, 3, 4};
  f.border[1] = {5, 6, 7, 8};
  f.span = {{{-1, 1}, {2, -2}}};
  f.visible = true;
  f.kind = Kind::gamma;
  f.code[0] = 'F';
  f.scale = 0.75;
  return f;
}

using Blocks =
    std::tuple<std::vector<Sample>, std::deque<Frame>, std::list<golden::RecTen>, std::forward_list<Pixel>,
               std::array<Sample, 2>, std::vector<std::vector<golden::RecPoint>>, std::map<std::int32_t, Frame>,
               std::optional<Sample>, std::variant<Pixel, golden::RecTick, std::vector<golden::RecTrade>>, Frame,
               std::vector<golden::RecNone>>;

struct blocks {
  static constexpr const char* name = "blocks";
  using type = Blocks;
  static std::vector<type> samples() {
    return {{{{1, 0.5, 2, true, Kind::alpha}, {-1, -0.5, 0, false, Kind::gamma}},
             {frame(1), frame(2)},
             {golden::RecTen{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}},
             {{1, 2, 3, 4}},
             {{{3, 1.5, 4, true, Kind::beta}, {}}},
             {{{1, 2}}, {}},
             {{7, frame(7)}},
             Sample{9, 9.5, 9, false, Kind::none},
             golden::RecTick{5, -5.5},
             frame(3),
             std::vector<golden::RecNone>(2)},
            {}};
  }
};

struct scene {
  static constexpr const char* name = "Scene";
  using type = Scene;
  static std::vector<type> samples() { return {{"scene", {frame(1), frame(2)}, frame(3), {{9, 8, 7, 6}}, -1}, {}}; }
};

template <class Golden>
struct golden_case {
  static constexpr const char* name = Golden::name;
  using type = typename Golden::type;
  static constexpr std::array golden{Golden::name};
  static std::vector<type> samples() { return {Golden::value(), type{}}; }
};

}  // namespace

BIFRONS_FUZZ_CASES(blocks, scene, golden_case<golden::records>, golden_case<golden::record_book>)
