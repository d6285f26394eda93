// The schema-driven decoder of bifrons-inspect (tools/lib/decoder.hpp).
//
// On every golden file, with its golden schema: it reads every byte, and the value is the JSON
// form (docs/schema.md section 10) of the golden C++ value, computed from the value itself
// (value_json.hpp). On every truncation and on single-byte corruptions of every golden file, it
// fails exactly where the library fails, with the same error code and offset, and succeeds
// where the library succeeds. Then the annotated dump, evolution (skipped and missing fields) and
// error paths.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "../golden_cases.hpp"
#include "lib/decoder.hpp"
#include "value_json.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

namespace abstract_shapes {
struct Shape {
  std::int32_t id = 0;
  virtual ~Shape() = default;
  virtual std::int32_t area() const = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
struct Square final : Shape {
  std::int32_t side = 0;
  std::int32_t area() const override { return side * side; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), side);
  }
};
struct Drawing {
  std::vector<std::unique_ptr<Shape>> shapes;
};
}  // namespace abstract_shapes

BIFRONS_REGISTER(abstract_shapes::Square, "inspect.Square");

namespace {

using namespace bifrons::tools;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::byte> bytes_of(const std::string& text) {
  std::vector<std::byte> out(text.size());
  std::transform(text.begin(), text.end(), out.begin(),
                 [](char c) { return std::byte(static_cast<unsigned char>(c)); });
  return out;
}

std::string golden(const std::string& file) { return std::string(BIFRONS_TEST_DATA_DIR) + "/golden/" + file; }

template <class Case>
schema golden_schema() {
  return load_schema_text(read_text(golden(std::string(Case::name) + ".schema.json")));
}

/// "ok" or "<errc name> at <offset>".
std::string outcome(bool ok, bifrons::errc code, std::size_t offset) {
  return ok ? std::string("ok") : std::string(errc_name(code)) + " at " + std::to_string(offset);
}

template <class Case>
class GoldenDecode : public ::testing::Test {};

struct CaseName {
  template <class Case>
  static std::string GetName(int) {
    return Case::name;
  }
};

TYPED_TEST_SUITE(GoldenDecode, golden::schema_case_list<::testing::Types>, CaseName);

TYPED_TEST(GoldenDecode, GivesTheValueOfEveryGoldenFile) {
  const schema s = golden_schema<TypeParam>();
  const auto file = bytes_of(read_text(golden(std::string(TypeParam::name) + ".bin")));
  const decode_result r = decode(s, file);
  ASSERT_TRUE(r.ok) << errc_name(r.code) << " at " << r.offset << " in " << r.path;
  EXPECT_EQ(r.end, file.size());
  const json expected = value_json::of<typename golden::registered_of<TypeParam>::type>(TypeParam::value());
  EXPECT_EQ(r.value, expected) << "decoded:  " << to_text(r.value) << "\nexpected: " << to_text(expected);
}

TYPED_TEST(GoldenDecode, FailsWhereTheLibraryFailsWithItsCodeAndOffset) {
  using T = typename TypeParam::type;
  const schema s = golden_schema<TypeParam>();
  const auto file = bytes_of(read_text(golden(std::string(TypeParam::name) + ".bin")));
  // Small element limits keep the zero-byte elements of corrupted counts cheap on both sides.
  bifrons::read_options limits;
  limits.max_elements = 1 << 16;
  decode_options options;
  options.max_elements = limits.max_elements;
  const auto compare = [&](const std::vector<std::byte>& input, const std::string& what) {
    const auto library = bifrons::try_from_bytes<T>(input, limits);
    const decode_result decoder = decode(s, input, options);
    // The schema says i64 for long (its width on the wire); a host whose long has 32 bits refuses
    // the wider values (docs/schema.md section 2).
    if (sizeof(long) == 4 && !library && library.code() == bifrons::errc::value_out_of_range) return true;
    EXPECT_EQ(outcome(decoder.ok, decoder.code, decoder.offset),
              outcome(library.has_value(), library.code(), library.offset()))
        << what << " (decoder path " << decoder.path << ")";
    return decoder.ok == library.has_value();
  };
  for (std::size_t n = 0; n < file.size(); ++n) {
    if (!compare(std::vector<std::byte>(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(n)),
                 "the first " + std::to_string(n) + " bytes"))
      break;
  }
  const std::size_t positions = std::min<std::size_t>(file.size(), 160);
  for (std::size_t i = 0; i < positions; ++i) {
    for (const unsigned b : {0x00u, 0x01u, 0x7Fu, 0x80u, 0xFFu, static_cast<unsigned>(file[i]) ^ 0x02u}) {
      std::vector<std::byte> corrupted = file;
      corrupted[i] = std::byte(b);
      if (!compare(corrupted, "byte " + std::to_string(i) + " set to " + std::to_string(b))) return;
    }
  }
}

// ---- the annotated dump ------------------------------------------------------------------------

TEST(Annotations, NameEveryPartOfTheAccount) {
  const schema s = golden_schema<golden::account>();
  const auto file = bytes_of(read_text(golden("account.bin")));
  decode_options options;
  options.annotate = true;
  const decode_result r = decode(s, file, options);
  ASSERT_TRUE(r.ok);
  std::vector<std::string> lines;
  for (const annotation& a : r.annotations)
    lines.push_back(std::to_string(a.offset) + "+" + std::to_string(a.length) + " " + a.path + ": " + a.text);
  ASSERT_GE(lines.size(), 12u);
  EXPECT_EQ(std::vector<std::string>(lines.begin(), lines.begin() + 12), (std::vector<std::string>{
                                                                             "0+2 (root): golden::Account: 94 bytes",
                                                                             "2+1 .id: 42",
                                                                             "3+1 .name: length 3",
                                                                             "4+3 .name: \"Ada\"",
                                                                             "7+1 .wallet: golden::Balance: 12 bytes",
                                                                             "8+1 .wallet.currency: length 3",
                                                                             "9+3 .wallet.currency: \"EUR\"",
                                                                             "12+8 .wallet.amount: 1234.5",
                                                                             "20+1 .orders: count 3",
                                                                             "21+1 .orders[0]: golden::Order: 23 bytes",
                                                                             "22+1 .orders[0].id: 1",
                                                                             "23+1 .orders[0].symbol: length 4",
                                                                         }));
  // Every byte of the file is in exactly one annotation.
  std::size_t covered = 0;
  for (const annotation& a : r.annotations) covered += a.length;
  EXPECT_EQ(covered, file.size());
}

// ---- evolution: fields a schema does not know, fields the data lacks ---------------------------

/// The golden account schema with Order's fields changed by `edit`.
schema account_with(const std::function<void(json& order_fields)>& edit) {
  json doc = parse_json(read_text(golden("account.schema.json")));
  for (auto& [name, def] : doc.members()) {
    if (name != "types") continue;
    for (auto& [type, d] : def.members())
      if (type == "golden::Order")
        for (auto& [key, fields] : d.members())
          if (key == "fields") edit(fields);
  }
  return load_schema(doc);
}

TEST(Evolution, FieldsOfANewerWriterAreSkippedBytes) {
  // An older reader, without Order's last field (volume): its 8 bytes are skipped in each order.
  const schema older = account_with([](json& fields) { fields.items().pop_back(); });
  const decode_result r = decode(older, bytes_of(read_text(golden("account.bin"))));
  ASSERT_TRUE(r.ok);
  const json& order = r.value.find("orders")->items()[0];
  EXPECT_EQ(to_text(order),
            R"({"id": 1, "symbol": "AAPL", "side": 0, "price": 189.25, "$skipped": "0000000000002440"})");
}

TEST(Evolution, FieldsAnOlderWriterLackedTakeTheirDefaults) {
  const schema newer = account_with([](json& fields) {
    json venue = json::object();
    venue.set("default", "2a");  // zigzag 21
    venue.set("name", "venue");
    venue.set("type", "i32");
    fields.push(std::move(venue));
  });
  const decode_result r = decode(newer, bytes_of(read_text(golden("account.bin"))));
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(to_text(*r.value.find("orders")->items()[2].find("venue")), "21");
}

// ---- polymorphic pointers and virtual bases (docs/schema.md section 6) ----------------------------

json& member(json& object, std::string_view key) {
  for (auto& [k, v] : object.members())
    if (k == key) return v;
  ADD_FAILURE() << "no member " << key;
  static json none;
  return none;
}

/// A golden schema, edited.
schema golden_schema_with(const std::string& name, const std::function<void(json& doc)>& edit) {
  json doc = parse_json(read_text(golden(name + ".schema.json")));
  edit(doc);
  return load_schema(doc);
}

void erase_member(json& object, std::string_view key) {
  auto& m = object.members();
  const auto size = m.size();
  m.erase(std::remove_if(m.begin(), m.end(), [&](const auto& kv) { return kv.first == key; }), m.end());
  EXPECT_EQ(m.size(), size - 1) << key;
}

TEST(Polymorphic, ObjectsSayTheirRegisteredClassAndVirtualBasesAreWrittenOnce) {
  const auto file = bytes_of(read_text(golden("polymorphic.bin")));
  decode_options options;
  options.annotate = true;
  const decode_result r = decode(golden_schema<golden::polymorphic>(), file, options);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(to_text(*r.value.find("shapes")->items()[0].find("type")), R"("golden.Circle")");
  EXPECT_EQ(r.value.find("shapes")->items()[3].find("type"), nullptr);  // a plain PShape: tag 1
  // The diamond: PRoot inside PLeft only (docs/schema.md section 6).
  EXPECT_EQ(
      to_text(*r.value.find("diamond")),
      R"({"id": 10, "type": "golden.Join", "value": {"golden::PLeft": {"golden::PRoot": {"field0": 1}, "field1": 2}, )"
      R"("golden::PRight": {"field1": 3}, "field2": 4}})");
  std::vector<std::string> lines;
  for (const annotation& a : r.annotations)
    lines.push_back(std::to_string(a.offset) + "+" + std::to_string(a.length) + " " + a.path + ": " + a.text);
  ASSERT_GE(lines.size(), 9u);
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 2, lines.begin() + 9),
            (std::vector<std::string>{
                "3+1 .shapes[0]: new object 1, of a registered class:", "4+2 .shapes[0]: 1 new type name",
                "6+14 .shapes[0]: type 1: \"golden.Circle\"", "20+1 .shapes[0]: of type 1, \"golden.Circle\"",
                "21+1 .shapes[0]: 0 objects inside", "22+1 .shapes[0]*(golden.Circle): golden::PCircle: 3 bytes",
                "23+1 .shapes[0]*(golden.Circle).golden::PShape: golden::PShape: 1 bytes"}));
  std::size_t covered = 0;
  for (const annotation& a : r.annotations) covered += a.length;
  EXPECT_EQ(covered, file.size());
}

TEST(Polymorphic, ANameTheSchemaDoesNotRegisterIsAnUnknownType) {
  // An older reader's schema, without golden.Triangle: the first object is of an unknown type.
  const schema older = golden_schema_with("polymorphic_unknown", [](json& doc) {
    erase_member(member(doc, "polymorphic"), "golden.Triangle");
    erase_member(member(doc, "types"), "golden::PTriangle");
  });
  const decode_result r = decode(older, bytes_of(read_text(golden("polymorphic_unknown.bin"))));
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "unknown_type at 3");  // the tag, after the header and the count
  EXPECT_EQ(r.path, ".shapes[0]");
  // It names the type, and says the schema (not "this program") lacks it.
  EXPECT_EQ(r.note,
            "the data holds an object of type \"golden.Triangle\", which the schema does not register "
            "(--unknown-types-null reads such pointers as null)");
}

TEST(Polymorphic, UnderTheNullPolicyUnknownObjectsAndReferencesToThemReadAsNull) {
  const schema older = golden_schema_with("polymorphic_unknown", [](json& doc) {
    erase_member(member(doc, "polymorphic"), "golden.Triangle");
    erase_member(member(doc, "types"), "golden::PTriangle");
  });
  decode_options null_policy;
  null_policy.unknown_types_null = true;
  const auto file = bytes_of(read_text(golden("polymorphic_unknown.bin")));
  const decode_result r = decode(older, file, null_policy);
  ASSERT_TRUE(r.ok) << errc_name(r.code) << " at " << r.offset;
  // The triangle (id 1) and its circle (id 2, counted in its header) are skipped: both
  // references read as null; the square is still object 3.
  EXPECT_EQ(to_text(r.value), R"({"shapes": [null, null, null, {"id": 3, "type": "golden.Square", "value": )"
                              R"({"golden::PShape": {"field0": 3}, "field1": 5}}, {"ref": 3}]})");
  // A skipped envelope (its header at 38) longer than the input: unexpected_end where the
  // enclosing body, here the file, ends, as the library's skip (skip_unknown_object) reports it.
  auto cut = file;
  cut[38] = std::byte{0x7E};
  const decode_result truncated = decode(older, cut, null_policy);
  EXPECT_EQ(outcome(truncated.ok, truncated.code, truncated.offset),
            "unexpected_end at " + std::to_string(file.size()));
}

TEST(Polymorphic, ObjectsInsideThatAnOlderClassDoesNotReadTakeTheirIds) {
  // PTriangle without its corner: the circle inside is skipped, but takes id 2 as the header's
  // count says, so the square is still id 3; a reference to the circle fails with unknown_type.
  const schema older = golden_schema_with("polymorphic_unknown", [](json& doc) {
    member(member(member(doc, "types"), "golden::PTriangle"), "fields").items().pop_back();
  });
  const auto file = bytes_of(read_text(golden("polymorphic_unknown.bin")));
  const decode_result r = decode(older, file);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "unknown_type at 49");
  EXPECT_EQ(r.path, ".shapes[2]");
  EXPECT_EQ(file[49], std::byte{4});  // the reference to id 2
  // Without that reference, the rest reads: the square is still object 3.
  auto without = file;
  without[49] = std::byte{3};
  const decode_result ok = decode(older, without);
  ASSERT_TRUE(ok.ok) << errc_name(ok.code) << " at " << ok.offset;
  EXPECT_EQ(to_text(*ok.value.find("shapes")->items()[3].find("id")), "3");
  EXPECT_EQ(to_text(*ok.value.find("shapes")->items()[0].find("unread")), "1");
  EXPECT_EQ(to_text(*ok.value.find("shapes")->items()[0].find("value")->find("$skipped")), R"("02020006020408")");
}

TEST(Polymorphic, AClassThatDoesNotReachThePointersClassIsRefused) {
  const auto file = bytes_of(read_text(golden("polymorphic.bin")));
  const schema unrelated = golden_schema_with("polymorphic", [](json& doc) {
    erase_member(member(member(doc, "types"), "golden::PCircle"), "bases");
  });
  const decode_result r = decode(unrelated, file);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "invalid_value at 3");
  // A pointer without "polymorphic" refuses tag 2 before its header.
  const schema plain = golden_schema_with("polymorphic", [](json& doc) {
    json& shapes = member(member(member(doc, "types"), "golden::PolySet"), "fields").items()[0];
    erase_member(member(member(shapes, "type"), "element"), "polymorphic");
  });
  const decode_result p = decode(plain, file);
  EXPECT_EQ(outcome(p.ok, p.code, p.offset), "invalid_value at 3");
}

TEST(Polymorphic, APointerToAnAbstractClassHoldsOnlyRegisteredClasses) {
  using namespace abstract_shapes;
  const schema s = load_schema_text(bifrons::schema<Drawing, Square>());
  EXPECT_TRUE(s.at("abstract_shapes::Shape").abstract);
  ASSERT_EQ(s.at("abstract_shapes::Shape").fields.size(), 1u);  // from the Square's base subobject
  Drawing d;
  d.shapes.push_back(std::make_unique<Square>());
  d.shapes[0]->id = 7;
  auto bytes = bifrons::to_bytes(d);
  const decode_result r = decode(s, bytes);
  ASSERT_TRUE(r.ok) << errc_name(r.code) << " at " << r.offset;
  EXPECT_EQ(to_text(r.value), R"({"shapes": [{"id": 1, "type": "inspect.Square", "value": )"
                              R"({"abstract_shapes::Shape": {"field0": 7}, "field1": 0}}]})");
  // Tag 1 would create a Shape.
  const std::vector<std::byte> tag1{std::byte{0x08}, std::byte{0x01}, std::byte{0x01}, std::byte{0x02},
                                    std::byte{0x00}};
  const decode_result refused = decode(s, tag1);
  const auto library = bifrons::try_from_bytes<Drawing>(tag1);
  EXPECT_EQ(outcome(refused.ok, refused.code, refused.offset), "invalid_value at 2");
  EXPECT_EQ(outcome(refused.ok, refused.code, refused.offset),
            outcome(library.has_value(), library.code(), library.offset()));
}

// ---- typed files: the frame picks the schema -----------------------------------------------------

TEST(Framed, TheFrameNamesTheSchemaToReadWith) {
  std::vector<schema> schemas;
  for (const std::string name : {"integers", "account", "vector_int32"})
    schemas.push_back(load_schema_text(read_text(golden(name + ".schema.json"))));
  std::size_t chosen = 99;
  const auto account = bytes_of(read_text(golden("framed/account.bin")));
  ASSERT_TRUE(is_framed(account));
  decode_options options;
  options.annotate = true;
  const decode_result r = decode_framed(schemas, account, options, chosen);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(chosen, 1u);
  EXPECT_EQ(r.value, value_json::of(golden::account::value()));
  EXPECT_EQ(r.end, account.size());
  ASSERT_GE(r.annotations.size(), 4u);
  EXPECT_EQ(r.annotations[2].text, "type golden::Account");
  EXPECT_EQ(r.annotations[3].offset, 21u);  // the value's header, after 21 bytes of frame
  EXPECT_EQ(r.annotations[3].text, "golden::Account: 94 bytes");

  const auto points = bytes_of(read_text(golden("framed/map_points.bin")));
  const decode_result none = decode_framed(schemas, points, {}, chosen);
  EXPECT_EQ(outcome(none.ok, none.code, none.offset), "type_mismatch at 5");
  EXPECT_FALSE(is_framed(bytes_of(read_text(golden("account.bin")))));
  // A value error counts from the frame's first byte, as from_framed reports it.
  auto broken = bytes_of(read_text(golden("framed/vector_int32.bin")));
  broken[19] = std::byte{3};
  const decode_result bad = decode_framed(schemas, broken, {}, chosen);
  EXPECT_EQ(outcome(bad.ok, bad.code, bad.offset), "count_exceeds_input at 19");
}

// ---- errors ------------------------------------------------------------------------------------

TEST(Errors, NameTheCodeTheOffsetAndTheFieldPath) {
  const schema s = golden_schema<golden::account>();
  auto file = bytes_of(read_text(golden("account.bin")));
  // A truncated file fails where the input ends: the root's header announces more bytes than there are.
  const decode_result truncated = decode(s, std::vector<std::byte>(file.begin(), file.begin() + 50));
  EXPECT_EQ(outcome(truncated.ok, truncated.code, truncated.offset), "unexpected_end at 50");
  EXPECT_EQ(truncated.path, "(root)");
  // The length of the second order's symbol (at 47) made 127: more than its envelope holds.
  file[47] = std::byte{0x7F};
  const decode_result r = decode(s, file);
  const auto library = bifrons::try_from_bytes<golden::Account>(file);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), outcome(false, library.code(), library.offset()));
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "count_exceeds_input at 47");
  EXPECT_EQ(r.path, ".orders[1].symbol");
  EXPECT_EQ(errc_from_name("invalid_stride"), bifrons::errc::invalid_stride);
  EXPECT_EQ(errc_from_name("no_such_error"), std::nullopt);
}

TEST(Errors, TrailingBytesAfterTheValue) {
  const schema s = load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": "u32", "types": {}})");
  const std::vector<std::byte> bytes{std::byte{1}, std::byte{2}};
  const decode_result r = decode(s, bytes);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "trailing_bytes at 1");
  decode_options stream;
  stream.allow_trailing = true;
  const decode_result first = decode(s, bytes, stream);
  EXPECT_TRUE(first.ok);
  EXPECT_EQ(first.end, 1u);
}

TEST(Keys, StringsThatSpellNanAreEqualFloatNansAreNot) {
  const schema strings = load_schema_text(
      R"({"bifrons_schema": 1, "format": 1, "root": {"key": {"kind": "string", "unit": "char"}, "kind": "set"}, "types": {}})");
  const std::vector<std::byte> twice{std::byte{2}, std::byte{3},   std::byte{'n'}, std::byte{'a'}, std::byte{'n'},
                                     std::byte{3}, std::byte{'n'}, std::byte{'a'}, std::byte{'n'}};
  const auto library = bifrons::try_from_bytes<std::set<std::string>>(twice);
  const decode_result r = decode(strings, twice);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), outcome(library.has_value(), library.code(), library.offset()));
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "duplicate_key at 5");
  // In a tuple key too, next to a float.
  const schema pairs = load_schema_text(
      R"({"bifrons_schema": 1, "format": 1, "root": {"key": {"elements": ["f32", {"kind": "string", "unit": "char"}], )"
      R"("kind": "tuple"}, "kind": "set"}, "types": {}})");
  std::vector<std::byte> two_pairs{std::byte{2}};
  for (int i = 0; i < 2; ++i)
    for (const unsigned b : {0x00u, 0x00u, 0x80u, 0x3Fu, 0x03u, 0x6Eu, 0x61u, 0x6Eu}) two_pairs.push_back(std::byte(b));
  const decode_result p = decode(pairs, two_pairs);
  EXPECT_EQ(outcome(p.ok, p.code, p.offset), "duplicate_key at 9");
  EXPECT_EQ(outcome(p.ok, p.code, p.offset),
            outcome(false, bifrons::try_from_bytes<std::set<std::tuple<float, std::string>>>(two_pairs).code(),
                    bifrons::try_from_bytes<std::set<std::tuple<float, std::string>>>(two_pairs).offset()));
}

TEST(Values, FloatsAndStringsHaveOneJsonForm) {
  EXPECT_EQ(to_text(float_json(1.0)), "1.0");
  EXPECT_EQ(to_text(float_json(-0.0)), "-0.0");
  EXPECT_EQ(to_text(float_json(0.1f)), "0.1");
  EXPECT_EQ(to_text(float_json(1e300)), "1e+300");
  EXPECT_EQ(to_text(float_json(std::bit_cast<double>(std::uint64_t{0x7FF8000000000000u}))), "\"nan\"");
  EXPECT_EQ(to_text(float_json(std::bit_cast<float>(std::uint32_t{0xFFC00000u}))), "\"nan:ffc00000\"");
  const schema s =
      load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": {"elements": [{"kind": "string", "unit": "char"},)"
                       R"( {"kind": "string", "unit": "u16"}], "kind": "tuple"}, "types": {}})");
  // "\xff" is not UTF-8; a lone surrogate is not UTF-16.
  const std::vector<std::byte> bytes{std::byte{1}, std::byte{0xFF}, std::byte{1}, std::byte{0x00}, std::byte{0xD8}};
  EXPECT_EQ(to_text(decode(s, bytes).value), R"([{"units": [255]}, {"units": [55296]}])");
}

// ---- hostile schemas and data: bounded memory, depth and work -----------------------------------

/// A schema document of a root and the definitions, compact JSON.
std::string document(const std::string& root, const std::string& types) {
  return R"({"bifrons_schema": 1, "format": 1, "root": )" + root + R"(, "types": {)" + types + "}}";
}

/// The message of the schema_error that loading `text` throws ("" if it loads).
std::string refusal(const std::string& text) {
  try {
    load_schema_text(text);
  } catch (const schema_error& e) {
    return e.what();
  }
  return "";
}

std::vector<std::byte> hex_bytes(std::initializer_list<unsigned> list) {
  std::vector<std::byte> out;
  for (const unsigned b : list) out.push_back(std::byte(b));
  return out;
}

void append_varint(std::vector<std::byte>& out, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(std::byte(static_cast<unsigned>(v & 0x7F) | 0x80u));
  out.push_back(std::byte(static_cast<unsigned>(v)));
}

// Finding 8 of the security review: array<array<u8, 2^32>, 2^32> as a record field made the width
// 2^64, which wrapped to 0, and a one-byte file 00 then read past the end of its input.
TEST(HostileSchemas, AWidthOrSizeThatWouldOverflowIsRefusedNamingTheField) {
  const std::string wide = R"({"kind": "array", "size": 4294967296, "element": {"kind": "array", )"
                           R"("size": 4294967296, "element": "u8"}})";
  const std::string record = document(R"("R")", R"("R": {"kind": "record", "size": 0, "fields": [{"name": "a", )"
                                                R"("offset": 0, "width": 0, "default": "", "type": )" +
                                                    wide + "}]}");
  const std::string why = refusal(record);
  EXPECT_NE(why.find(R"(types["R"]: field "a")"), std::string::npos) << why;
  EXPECT_NE(why.find("array<array<u8, 4294967296>, 4294967296> is wider than 4294967296 bytes"), std::string::npos)
      << why;
  // A struct field whose smallest value would take 2^66 bytes: its size wrapped in the count
  // checks (a count of 1 passed them).
  const std::string huge = R"({"kind": "array", "size": 4294967296, "element": {"kind": "array", )"
                           R"("size": 4294967296, "element": "u32"}})";
  const std::string in_struct =
      document(R"("S")", R"("S": {"kind": "struct", "fields": [{"name": "b", "default": "", "type": )" + huge + "}]}");
  EXPECT_NE(refusal(in_struct).find(R"(types["S"]: field "b": array<array<u32, 4294967296>, 4294967296> takes more)"),
            std::string::npos)
      << refusal(in_struct);
  const std::string root = document(R"({"kind": "sequence", "element": )" + huge + "}", "");
  EXPECT_NE(refusal(root).find("schema: root: array<array<u32, 4294967296>, 4294967296> takes more"), std::string::npos)
      << refusal(root);
  // The widths of real records still load, up to the limit.
  EXPECT_EQ(refusal(document(R"("R")", R"("R": {"kind": "record", "size": 4, "fields": [{"name": "a", "offset": 0, )"
                                       R"("width": 4, "default": "00000000", "type": {"kind": "array", "size": 2, )"
                                       R"("element": "u16"}}]})")),
            "");
}

TEST(HostileSchemas, JsonTextThatDoesNotParseIsAJsonErrorAtItsByte) {
  const auto error_of = [](const std::string& text) {
    try {
      (void)parse_json(text);
    } catch (const json_error& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  EXPECT_EQ(error_of("[1, x]"), "unexpected character at byte 4");
  EXPECT_EQ(error_of("-"), "malformed number at byte 1");
  EXPECT_EQ(error_of("\"\\q\""), "unknown escape at byte 3");
  EXPECT_EQ(error_of("[1] 2"), "text after the JSON value at byte 4");
  EXPECT_EQ(error_of(R"({"a": 1, "a": 2})"), "duplicate key \"a\" at byte 13");
  EXPECT_EQ(error_of(std::string(600, '[')), "JSON nested too deeply at byte 513");
  // Escapes: upper-case hex digits, a backslash, and a high surrogate without its low half,
  // which stays one code point (the next escape is read on its own).
  EXPECT_EQ(parse_json(R"("\u00C9\\")").text(), "\xC3\x89\\");
  EXPECT_EQ(parse_json(R"("\uD83D\u0041")").text().substr(3), "A");
}

TEST(HostileSchemas, NestingIsBoundedAndSharedRecordsAreMeasuredOnce) {
  // Type expressions nested 65 deep: the tools recurse on them.
  std::string deep = R"("u8")";
  for (std::size_t i = 0; i < max_schema_nesting; ++i) deep = R"({"kind": "optional", "of": )" + deep + "}";
  EXPECT_NE(refusal(document(deep, "")).find("nest more than 64 deep"), std::string::npos)
      << refusal(document(deep, ""));
  // 63 structs, each holding the next inside 62 nested optionals, and data that fills them all:
  // the recursion, 4,000 levels deep, ran out of stack under AddressSanitizer. It stops at 1,024
  // levels of the value.
  std::string structs = R"("S0": {"kind": "struct", "fields": [{"name": "x", "type": "u8", "default": "00"}]})";
  std::vector<std::byte> data{std::byte{2}, std::byte{0}};
  for (int k = 1; k <= 63; ++k) {
    std::string t = R"("S)" + std::to_string(k - 1) + R"(")";
    for (int i = 0; i < 62; ++i) t = R"({"kind": "optional", "of": )" + t + "}";
    structs += R"(, "S)" + std::to_string(k) + R"(": {"kind": "struct", "fields": [{"name": "f", "type": )" + t +
               R"(, "default": "00"}]})";
    std::vector<std::byte> body(62, std::byte{1});
    body.insert(body.end(), data.begin(), data.end());
    data.clear();
    append_varint(data, body.size() << 1);
    data.insert(data.end(), body.begin(), body.end());
  }
  const decode_result deep_value = decode(load_schema_text(document(R"("S63")", structs)), data);
  EXPECT_EQ(deep_value.code, bifrons::errc::depth_limit_exceeded);
  // Records of two fields of the previous record, 40 levels, all of width 0: measured once each
  // (the check of records that hold themselves walked 2^40 paths).
  std::string records = R"("R0": {"kind": "record", "size": 0, "fields": []})";
  for (int k = 1; k <= 40; ++k) {
    const std::string prev = "R" + std::to_string(k - 1);
    records += R"(, "R)" + std::to_string(k) +
               R"(": {"kind": "record", "size": 0, "fields": [{"name": "a", "type": ")" + prev +
               R"(", "offset": 0, "width": 0, "default": ""}, {"name": "b", "type": ")" + prev +
               R"(", "offset": 0, "width": 0, "default": ""}]})";
  }
  const schema dag = load_schema_text(document(R"("R40")", records));
  // Its value has 2^40 empty records, each charged to the budget: refused.
  decode_options small;
  small.max_alloc_bytes = 1 << 20;
  const decode_result r = decode(dag, hex_bytes({0x00}), small);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "allocation_limit_exceeded at 1");
  // Records nested 65 deep are refused.
  std::string chain = R"("R0": {"kind": "record", "size": 1, "fields": [{"name": "a", "type": "u8", "offset": 0, )"
                      R"("width": 1, "default": "00"}]})";
  for (std::size_t k = 1; k <= max_schema_nesting; ++k)
    chain += R"(, "R)" + std::to_string(k) + R"(": {"kind": "record", "size": 1, "fields": [{"name": "a", "type": "R)" +
             std::to_string(k - 1) + R"(", "offset": 0, "width": 1, "default": "00"}]})";
  EXPECT_NE(refusal(document(R"("R64")", chain)).find("records nest more than 64 deep"), std::string::npos);
}

// Finding 9: with the golden record_book schema, 7 bytes held 64 Mi records of stride 0, which
// took 5.6 GB: the decoder kept no budget.
TEST(HostileData, RecordsOfStrideZeroAreChargedToTheBudget) {
  const schema s = golden_schema<golden::record_book>();
  // 65,536 records of stride 0 under a budget of 1 MiB (a few hundred bytes each): refused at
  // their count.
  decode_options small;
  small.max_alloc_bytes = 1 << 20;
  const decode_result refused = decode(s, hex_bytes({0x0A, 0x00, 0x80, 0x80, 0x04, 0x00}), small);
  ASSERT_EQ(outcome(refused.ok, refused.code, refused.offset), "allocation_limit_exceeded at 2");
  EXPECT_EQ(refused.path, ".ticks");
  // The review's 7 bytes, with the default budget (the library's default, 256 MiB): refused where
  // the library refuses them.
  const auto review = hex_bytes({0x0C, 0x00, 0x80, 0x80, 0x80, 0x20, 0x00});
  const decode_result r = decode(s, review);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "allocation_limit_exceeded at 2");
  const auto library = bifrons::try_from_bytes<golden::RecBook>(review);
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), outcome(false, library.code(), library.offset()));
  EXPECT_EQ(decode_options{}.max_alloc_bytes, bifrons::read_options{}.max_alloc_bytes);
  // Within the budget they read, each record at its defaults.
  const decode_result few = decode(s, hex_bytes({0x06, 0x00, 0x03, 0x00}), small);
  ASSERT_TRUE(few.ok) << errc_name(few.code) << " at " << few.offset;
  EXPECT_EQ(to_text(*few.value.find("ticks")), R"([{"id": 0, "price": 0.0}, {"id": 0, "price": 0.0}, )"
                                               R"({"id": 0, "price": 0.0}])");
}

TEST(HostileData, ElementsThatTakeNoInputAreChargedEachAndOutputStaysWithinTheBudget) {
  // A fixed array of 2^32 arrays of 2^32 monostates: no input byte, 2^64 values.
  const schema s = load_schema_text(document(R"({"kind": "array", "size": 4294967296, "element": {"kind": "array", )"
                                             R"("size": 4294967296, "element": "monostate"}})",
                                             ""));
  const decode_result r = decode(s, {});
  EXPECT_EQ(outcome(r.ok, r.code, r.offset), "allocation_limit_exceeded at 0");
  // What a value prints as is charged too: a vector of 1,000 empty tuples prints within its budget.
  const schema tuples = load_schema_text(document(R"({"kind": "sequence", "element": {"kind": "tuple", )"
                                                  R"("elements": []}})",
                                                  ""));
  decode_options options;
  options.max_alloc_bytes = 1 << 20;
  const decode_result ok = decode(tuples, hex_bytes({0xE8, 0x07}), options);
  ASSERT_TRUE(ok.ok);
  EXPECT_LE(to_text(ok.value, 2).size(), options.max_alloc_bytes);
  options.max_alloc_bytes = 1000;
  EXPECT_EQ(outcome(decode(tuples, hex_bytes({0xE8, 0x07}), options).ok,
                    decode(tuples, hex_bytes({0xE8, 0x07}), options).code,
                    decode(tuples, hex_bytes({0xE8, 0x07}), options).offset),
            "allocation_limit_exceeded at 0");
}

// Finding 10: the duplicate check compared each key with every earlier one (40,000 keys of a
// set<u32>, 103 KB, took 8.8 s). Now a key is found among the earlier ones in O(log n).
TEST(HostileData, DuplicateKeysAreFoundInLogarithmicTime) {
  const schema s = load_schema_text(document(R"({"kind": "set", "key": "u32"})", ""));
  const auto keys = [](std::uint64_t n) {
    std::vector<std::byte> out;
    append_varint(out, n);
    for (std::uint64_t i = 0; i < n; ++i) append_varint(out, i);
    return out;
  };
  const decode_result some = decode(s, keys(4000));
  ASSERT_TRUE(some.ok);
  // A balanced tree (a red-black tree is at most 2 log2(n) high): 2 x (12 + 1) comparisons per
  // key, not 2,000 on average. Bounded at twice that: libc++'s debug hardening mode compares
  // more to check the ordering (37 per key here).
  ASSERT_LE(some.key_comparisons, 4000u * 52);
  const decode_result many = decode(s, keys(40000));
  ASSERT_TRUE(many.ok);
  EXPECT_EQ(many.value.items().size(), 40000u);
  EXPECT_LE(many.key_comparisons, 40000u * 64);
  // Still the same duplicates, at the same element: the last key repeats the first.
  std::vector<std::byte> twice = keys(40000);
  twice.back() = std::byte{0};
  twice[twice.size() - 2] = std::byte{0};
  twice[twice.size() - 3] = std::byte{0};
  twice.resize(twice.size() - 2);
  const decode_result dup = decode(s, twice);
  const auto library = bifrons::try_from_bytes<std::set<std::uint32_t>>(twice);
  EXPECT_EQ(outcome(dup.ok, dup.code, dup.offset), outcome(false, library.code(), library.offset()));
  EXPECT_EQ(dup.code, bifrons::errc::duplicate_key);
  // -0.0 equals 0.0 in a key, as in the library's std::set<double>; inside structs and maps too.
  const schema doubles = load_schema_text(document(R"({"kind": "set", "key": {"kind": "tuple", "elements": )"
                                                   R"(["f64", {"kind": "map", "key": "i8", "value": "f32"}]}})",
                                                   ""));
  const auto zero = hex_bytes({0x02,                                            // two keys
                               0,    0, 0, 0, 0, 0, 0, 0x80, 0x01, 0x02, 0, 0, 0, 0x80,  // -0.0, {1: -0.0}
                               0,    0, 0, 0, 0, 0, 0, 0x00, 0x01, 0x02, 0, 0, 0, 0x00});  // 0.0, {1: 0.0}
  const decode_result z = decode(doubles, zero);
  const auto library_z = bifrons::try_from_bytes<std::set<std::tuple<double, std::map<std::int8_t, float>>>>(zero);
  EXPECT_EQ(outcome(z.ok, z.code, z.offset), "duplicate_key at 15");
  EXPECT_EQ(outcome(z.ok, z.code, z.offset), outcome(false, library_z.code(), library_z.offset()));
}

// Finding 12: T_k { a: T_k-1 = "00", b: T_k-1 = "00" } read from one empty envelope expanded
// into 2^k values (136 MB printed at k = 20): the defaults are charged to the same budget.
TEST(HostileSchemas, DefaultsThatDoubleAtEveryLevelAreChargedToTheBudget) {
  const auto doubling = [](int levels) {
    std::string types = R"("T0": {"kind": "struct", "fields": []})";
    for (int k = 1; k <= levels; ++k) {
      const std::string prev = "T" + std::to_string(k - 1);
      types += R"(, "T)" + std::to_string(k) + R"(": {"kind": "struct", "fields": [{"name": "a", "type": ")" + prev +
               R"(", "default": "00"}, {"name": "b", "type": ")" + prev + R"(", "default": "00"}]})";
    }
    return load_schema_text(document(R"("T)" + std::to_string(levels) + R"(")", types));
  };
  decode_options small;
  small.max_alloc_bytes = 64 << 10;
  const decode_result twelve = decode(doubling(12), hex_bytes({0x00}), small);
  ASSERT_EQ(outcome(twelve.ok, twelve.code, twelve.offset), "allocation_limit_exceeded at 1");
  // The review's K = 40, with the default budget: refused, at the first missing field.
  const decode_result forty = decode(doubling(40), hex_bytes({0x00}));
  EXPECT_EQ(outcome(forty.ok, forty.code, forty.offset), "allocation_limit_exceeded at 1");
  EXPECT_EQ(forty.path, ".a");
  // A few levels fit, and print within the budget.
  const decode_result three = decode(doubling(3), hex_bytes({0x00}), small);
  ASSERT_TRUE(three.ok);
  EXPECT_EQ(to_text(three.value), R"({"a": {"a": {"a": {}, "b": {}}, "b": {"a": {}, "b": {}}}, )"
                                  R"("b": {"a": {"a": {}, "b": {}}, "b": {"a": {}, "b": {}}}})");
}

TEST(HostileData, AnnotationsAreChargedToTheBudget) {
  const schema s = load_schema_text(document(R"({"kind": "sequence", "element": "u8"})", ""));
  std::vector<std::byte> bytes;
  append_varint(bytes, 1000);
  bytes.resize(bytes.size() + 1000, std::byte{7});
  decode_options options;
  options.annotate = true;
  options.max_alloc_bytes = 400 << 10;
  const decode_result r = decode(s, bytes, options);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.annotations.size(), 1001u);
  options.max_alloc_bytes = 200 << 10;  // enough for the values, not for an annotation of each
  const decode_result refused = decode(s, bytes, options);
  EXPECT_EQ(refused.code, bifrons::errc::allocation_limit_exceeded);
  options.annotate = false;
  EXPECT_TRUE(decode(s, bytes, options).ok);
}

}  // namespace
