// SPDX-License-Identifier: MIT
// bifrons::to_json (include/bifrons/json.hpp): the JSON bifrons-inspect prints.
//
// On every golden value, to_json equals what the inspector's path gives for the committed golden
// schema and bytes (tests/golden): the schema text loaded, the bytes decoded, the value printed
// with indent 2. On classes of every kind (named fields, C arrays, maps, variants, shared and
// polymorphic pointers), it equals the inspector's path on schema<T>() and to_bytes(value), and
// for small values it equals literal text written from docs/schema.md, section 10. Then its
// options and its failures: values that cannot be written, limits, unknown registered classes.

#include <bifrons/json.hpp>
#include <bifrons/polymorphic.hpp>
#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "golden_cases.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

namespace json_cases {

struct Point {
  std::int32_t x = 0;
  std::int32_t y = 0;
};

/// A hook with named fields, a C array and a map.
class Grid {
 public:
  Grid() = default;
  Grid(std::string title, std::map<std::string, std::int32_t> counts)
      : title_(std::move(title)), counts_(std::move(counts)) {
    for (std::size_t i = 0; i < 3; ++i) cells_[i] = static_cast<std::uint8_t>(i * 10);
  }

 private:
  friend bifrons::access;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("title", title_), bifrons::named("cells", cells_), bifrons::named("counts", counts_));
  }
  std::string title_;
  std::uint8_t cells_[3] = {};
  std::map<std::string, std::int32_t> counts_;
};

struct Shared {
  std::shared_ptr<Point> first;
  std::shared_ptr<Point> second;
  std::optional<std::optional<std::int32_t>> maybe;
  std::variant<std::int32_t, std::string> either;
};

struct Shape {
  std::int32_t id = 0;
  virtual ~Shape() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("id", id));
  }
};
struct Circle final : Shape {
  std::int32_t radius = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), bifrons::named("radius", radius));
  }
};
struct Square final : Shape {
  std::int32_t side = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), bifrons::named("side", side));
  }
};
struct Drawing {
  std::vector<std::unique_ptr<Shape>> shapes;
};

struct Node {
  std::int32_t value = 0;
  std::unique_ptr<Node> next;
};

struct Key {
  std::int32_t a = 0;
  std::string b;
  friend auto operator<=>(const Key&, const Key&) = default;
};

/// Sets and maps whose keys the decoder compares by their JSON form (docs/schema.md section 9).
struct Keyed {
  std::set<Key> structs;
  std::map<std::map<std::int32_t, std::int32_t>, std::int32_t> maps;
  std::set<std::optional<std::int32_t>> optionals;
  std::set<std::optional<std::optional<std::int32_t>>> nested_optionals;
  std::set<std::variant<std::int32_t, std::string>> variants;
  std::set<double> floats;
};

template <template <class> class Link>
struct Parent;
/// A child that points back at its parent, which is still being read.
template <template <class> class Link>
struct Child {
  std::int32_t n = 0;
  Link<Parent<Link>> parent;
};
template <template <class> class Link>
struct Parent {
  std::vector<std::shared_ptr<Child<Link>>> kids;
};

struct Back;
/// Meets its Back first through a weak_ptr; the Back's shared_ptr to it is then a link up to an
/// object still being read, which owns no cycle (the pair owns the Back).
struct Front {
  std::weak_ptr<Back> back;
};
struct Back {
  std::shared_ptr<Front> front;
};

struct Observer {
  Point* watched = nullptr;  // a raw pointer the value does not own: not written faithfully
};

}  // namespace json_cases

BIFRONS_REGISTER(json_cases::Circle, "json.Circle");
BIFRONS_REGISTER(json_cases::Square, "json.Square");

namespace {

using bifrons::detail::inspect::decode;
using bifrons::detail::inspect::decode_result;
using bifrons::detail::inspect::load_schema_text;
using bifrons::detail::inspect::to_text;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// What bifrons-inspect prints (less its final newline) for a schema text and bytes.
std::string inspected(const std::string& schema_text, std::span<const std::byte> bytes) {
  const decode_result r = decode(load_schema_text(schema_text), bytes);
  EXPECT_TRUE(r.ok) << "the inspector failed at byte " << r.offset << " in " << r.path;
  return to_text(r.value, 2);
}

template <class Case, class Registered>
struct golden_to_json;
template <class Case, class... Registered>
struct golden_to_json<Case, std::tuple<Registered...>> {
  static std::string run() { return bifrons::to_json<Registered...>(Case::value()); }
};

template <class Case>
class GoldenJson : public ::testing::Test {};

struct CaseName {
  template <class Case>
  static std::string GetName(int) {
    return Case::name;
  }
};

TYPED_TEST_SUITE(GoldenJson, golden::schema_case_list<::testing::Types>, CaseName);

TYPED_TEST(GoldenJson, IsWhatTheInspectorPrintsForTheGoldenFile) {
  const std::string base = std::string(BIFRONS_TEST_DATA_DIR) + "/golden/" + TypeParam::name;
  const std::string bytes = read_text(base + ".bin");
  const std::string expected = inspected(read_text(base + ".schema.json"),
                                         std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
  EXPECT_EQ((golden_to_json<TypeParam, typename golden::registered_of<TypeParam>::type>::run()), expected);
}

/// to_json<Registered...>(value) against the inspector on schema<T, Registered...>() and
/// to_bytes(value).
template <class... Registered, class T>
void expect_inspector_agrees(const T& value) {
  const std::vector<std::byte> bytes = bifrons::to_bytes(value);
  EXPECT_EQ(bifrons::to_json<Registered...>(value), inspected(bifrons::schema<T, Registered...>(), bytes));
}

TEST(ToJson, StructsAreObjectsOfTheirFields) {
  EXPECT_EQ(bifrons::to_json(json_cases::Point{3, -4}), "{\n  \"x\": 3,\n  \"y\": -4\n}");
  expect_inspector_agrees(json_cases::Point{3, -4});
  // An indent is taken as at most 16 spaces (level * indent could overflow an int), and a
  // negative one as 0.
  EXPECT_EQ(bifrons::to_json(json_cases::Point{3, -4}, {.indent = INT_MAX}),
            bifrons::to_json(json_cases::Point{3, -4}, {.indent = 16}));
  EXPECT_EQ(bifrons::to_json(json_cases::Point{3, -4}, {.indent = -5}), "{\"x\": 3, \"y\": -4}");
}

TEST(ToJson, NamedFieldsCArraysAndMaps) {
  const json_cases::Grid grid("g", {{"a", 1}, {"b", -2}});
  EXPECT_EQ(bifrons::to_json(grid, {.indent = 0}),
            "{\"title\": \"g\", \"cells\": [0, 10, 20], \"counts\": [[\"a\", 1], [\"b\", -2]]}");
  expect_inspector_agrees(grid);
}

TEST(ToJson, SharedPointersOptionalsAndVariants) {
  json_cases::Shared v;
  v.first = std::make_shared<json_cases::Point>(json_cases::Point{1, 2});
  v.second = v.first;
  v.maybe.emplace(std::nullopt);
  v.either = std::string("two");
  EXPECT_EQ(bifrons::to_json(v, {.indent = 0}),
            "{\"first\": {\"id\": 1, \"value\": {\"x\": 1, \"y\": 2}}, \"second\": {\"ref\": 1}, "
            "\"maybe\": {\"some\": null}, \"either\": {\"index\": 1, \"value\": \"two\"}}");
  expect_inspector_agrees(v);
}

TEST(ToJson, PolymorphicObjectsNameTheirRegisteredClass) {
  json_cases::Drawing d;
  auto circle = std::make_unique<json_cases::Circle>();
  circle->id = 1;
  circle->radius = 5;
  auto square = std::make_unique<json_cases::Square>();
  square->id = 2;
  square->side = 3;
  d.shapes.push_back(std::move(circle));
  d.shapes.push_back(nullptr);
  d.shapes.push_back(std::move(square));
  // The base, a hook field without a name, is named after its type.
  EXPECT_EQ((bifrons::to_json<json_cases::Circle, json_cases::Square>(d, {.indent = 0})),
            "{\"shapes\": [{\"id\": 1, \"type\": \"json.Circle\", \"value\": {\"json_cases::Shape\": {\"id\": 1}, "
            "\"radius\": 5}}, null, {\"id\": 2, \"type\": \"json.Square\", \"value\": {\"json_cases::Shape\": "
            "{\"id\": 2}, \"side\": 3}}]}");
  expect_inspector_agrees<json_cases::Circle, json_cases::Square>(d);
}

TEST(ToJson, AClassNotListedIsAnUnknownTypeOrNullUnderThatPolicy) {
  json_cases::Drawing d;
  d.shapes.push_back(std::make_unique<json_cases::Square>());
  const auto failed = bifrons::try_to_json<json_cases::Circle>(d);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.code(), bifrons::errc::unknown_type);
  EXPECT_NE(failed.message().find("\"json.Square\", which the schema does not register (list its class in "
                                  "to_json<Registered...>"),
            std::string::npos)
      << failed.message();
  bifrons::json_options options{.indent = 0};
  options.limits.unknown_types = bifrons::unknown_type_policy::null;
  EXPECT_EQ(bifrons::to_json<json_cases::Circle>(d, options), "{\"shapes\": [null]}");
}

TEST(ToJson, IndentAndAscii) {
  const std::tuple<std::string, std::vector<std::int32_t>> v{"\xC3\xA9\"", {}};
  EXPECT_EQ(bifrons::to_json(v, {.indent = 4}), "[\n    \"\xC3\xA9\\\"\",\n    []\n]");
  EXPECT_EQ(bifrons::to_json(v, {.indent = 0, .ascii = true}), "[\"\\u00e9\\\"\", []]");
}

TEST(ToJson, SetsAndMapsOfCompositeKeys) {
  json_cases::Keyed v;
  v.structs = {{2, ""}, {1, "x"}};
  v.maps = {{{}, 4}, {{{1, 2}}, 3}};
  v.optionals = {std::nullopt, 5};
  v.nested_optionals = {std::nullopt, std::optional<std::int32_t>(), 6};
  v.variants = {7, std::string("s")};
  v.floats = {-0.5, 2.0};
  EXPECT_EQ(bifrons::to_json(v, {.indent = 0}),
            "{\"structs\": [{\"a\": 1, \"b\": \"x\"}, {\"a\": 2, \"b\": \"\"}], "
            "\"maps\": [[[], 4], [[[1, 2]], 3]], \"optionals\": [null, 5], "
            "\"nested_optionals\": [null, {\"some\": null}, {\"some\": 6}], "
            "\"variants\": [{\"index\": 0, \"value\": 7}, {\"index\": 1, \"value\": \"s\"}], "
            "\"floats\": [-0.5, 2.0]}");
  expect_inspector_agrees(v);
}

template <template <class> class Link>
bifrons::result<std::string> family_json() {
  auto parent = std::make_shared<json_cases::Parent<Link>>();
  auto child = std::make_shared<json_cases::Child<Link>>();
  child->n = 9;
  child->parent = parent;
  parent->kids.push_back(child);
  auto text = bifrons::try_to_json(parent, {.indent = 0});
  parent->kids.clear();  // breaks a cycle of shared_ptr: no leak
  return text;
}

TEST(ToJson, AWeakLinkBackIsAReferenceAndACycleOfOwnersIsRefused) {
  const auto weak = family_json<std::weak_ptr>();
  ASSERT_TRUE(weak) << weak.message();
  EXPECT_EQ(*weak,
            "{\"id\": 1, \"value\": {\"kids\": [{\"id\": 2, \"value\": {\"n\": 9, \"parent\": {\"ref\": 1}}}]}}");
  EXPECT_EQ(family_json<std::shared_ptr>().code(), bifrons::errc::ownership_cycle);
}

TEST(ToJson, ASharedLinkUpUnderAWeakPointer) {
  auto front = std::make_shared<json_cases::Front>();
  auto back = std::make_shared<json_cases::Back>();
  front->back = back;
  back->front = front;
  const std::pair<std::shared_ptr<json_cases::Front>, std::shared_ptr<json_cases::Back>> v{front, back};
  EXPECT_EQ(bifrons::to_json(v, {.indent = 0}),
            "[{\"id\": 1, \"value\": {\"back\": {\"id\": 2, \"value\": {\"front\": {\"ref\": 1}}}}}, {\"ref\": 2}]");
  expect_inspector_agrees(v);
}

TEST(ToJson, AValueOfNoBytes) {
  EXPECT_EQ(bifrons::to_json(std::tuple<>{}), "[]");
  EXPECT_EQ(bifrons::to_json(std::make_tuple(std::tuple<>{}, std::monostate{}), {.indent = 0}), "[[], null]");
}

TEST(ToJson, FloatsHaveTheirOneJsonForm) {
  const std::tuple<double, float, double> v{0.1, -0.0f, std::numeric_limits<double>::infinity()};
  EXPECT_EQ(bifrons::to_json(v, {.indent = 0}), "[0.1, -0.0, \"inf\"]");
}

TEST(ToJson, AValueThatCannotBeWrittenFailsWithTheWritersCode) {
  json_cases::Point p;
  const json_cases::Observer o{&p};
  const auto r = bifrons::try_to_json(o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), bifrons::errc::unwritten_pointee);
  EXPECT_THROW((void)bifrons::to_json(o), bifrons::error);
}

TEST(ToJson, KeepsTheReadLimitsAndNamesTheFieldAtFault) {
  json_cases::Node head;
  json_cases::Node* tail = &head;
  for (int i = 0; i < 10; ++i) {
    tail->next = std::make_unique<json_cases::Node>();
    tail = tail->next.get();
  }
  EXPECT_TRUE(bifrons::try_to_json(head));
  bifrons::json_options options;
  options.limits.max_depth = 4;
  const auto deep = bifrons::try_to_json(head, options);
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.code(), bifrons::errc::depth_limit_exceeded);
  EXPECT_EQ(deep.path().substr(0, 7), ".next*.") << deep.path();
  options = {};
  options.limits.max_alloc_bytes = 1000;
  EXPECT_EQ(bifrons::try_to_json(std::vector<std::int32_t>(1000)).code(), bifrons::errc::ok);
  EXPECT_EQ(bifrons::try_to_json(std::vector<std::int32_t>(1000), options).code(),
            bifrons::errc::allocation_limit_exceeded);
}

}  // namespace
