// bifrons::schema<T>() (include/bifrons/schema.hpp, docs/schema.md).
//
// The golden schemas: for every case of tests/golden_cases.hpp, the exported text equals the
// committed tests/golden/<name>.schema.json, on every host the tests run on (the cross stages
// run this under qemu: s390x, i686, ppc), so that the schema of a type is the same everywhere.
// If BIFRONS_SCHEMA_OUT names a directory, the schemas this host exports land there.
// Then every rule of docs/schema.md that the golden cases do not reach, on small types.

#include <bifrons/schema.hpp>
#include <bifrons/types/atomic.hpp>
#include <bifrons/types/filesystem.hpp>
#include <bifrons/types/valarray.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <filesystem>
#include <fstream>
#include <ios>
#include <iterator>
#include <queue>
#include <set>
#include <stack>
#include <stdexcept>
#include <string>
#include <valarray>

#include "golden_cases.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

namespace schema_test {

// ---- types of the unit tests -------------------------------------------------------------------

enum class Color : std::int16_t { red = 1 };

struct Inner {
  std::int32_t value = 7;
};

struct Members {
  std::int32_t first_member = 0;
  char symbol[3] = {'a', 'b', 'c'};
  Inner nested;
  std::string text = "abc";
  Color color = Color::red;
  double ratio = 1.5;
};

struct Shape {
  std::uint8_t sides = 3;
};

class Hooked : public Shape {
 public:
  static constexpr std::uint32_t bifrons_version = 2;
  template <class Archive>
  void serialize(Archive& ar, std::uint32_t) {
    ar(bifrons::named("shape", bifrons::base<Shape>(*this)), bifrons::named("id", id_),
       bifrons::named("hash", bifrons::fixed(hash_)), note_);
  }

 private:
  std::int32_t id_ = -1;
  std::uint32_t hash_ = 0x01020304;
  std::string note_;
};

struct Renamed {
  std::int32_t x = 0;
};
enum class RenamedEnum : std::uint8_t {};

struct Clashing1 {
  std::int32_t x = 0;
};
struct Clashing2 {
  std::int32_t y = 0;
};
struct HoldsClash {
  Clashing1 a;
  Clashing2 b;
};

struct Escaped {
  bool flag = false;
};

struct Node {
  std::int32_t value = 0;
  std::unique_ptr<Node> next;
};

struct Pointers {
  std::shared_ptr<std::int32_t> shared;
  std::weak_ptr<std::int32_t> weak;
  const std::int32_t* raw = nullptr;
  std::unique_ptr<std::string> unique;
};

/// A minimal type: written as its number alone (format.md, section 29).
struct Code {
  std::uint16_t value = 0;
  template <class Archive>
  std::uint16_t save_minimal(const Archive&) const {
    return value;
  }
  template <class Archive>
  void load_minimal(const Archive&, const std::uint16_t& v) {
    value = v;
  }
};

/// Types written as another type's bytes, and that other type's twin.
struct WrittenAsOthers {
  Code code;
  std::filesystem::path path;
  std::atomic<std::int32_t> counter{0};
  std::valarray<std::int16_t> samples;
  std::optional<const std::int32_t> limit;
};
struct WrittenAsOthersTwin {
  std::uint16_t code = 0;
  std::string path;
  std::int32_t counter = 0;
  std::vector<std::int16_t> samples;
  std::optional<std::int32_t> limit;
};

struct Viewed {
  std::string_view text;
  std::u16string_view wide;
  std::span<const std::int32_t> numbers;
};

struct Arrays {
  std::vector<std::int32_t> plain;
  std::vector<std::int32_t> varints;
  std::vector<Color> colors;
  std::array<std::uint16_t, 3> fixed_array{};
  template <class Archive>
  void serialize(Archive& ar) {
    ar(plain, bifrons::varint(varints), bifrons::varint(colors), bifrons::varint(fixed_array));
  }
};

struct TickRecord {
  std::int32_t id = 5;
  double price = 0;
};

// Character traits for a string of octets. The standard defines std::char_traits only for the
// character types, and libc++ (since 19) has no std::char_traits<unsigned char>: a string of
// other code units needs traits of its own.
struct octet_traits {
  using char_type = std::uint8_t;
  using int_type = unsigned;
  using off_type = std::streamoff;
  using pos_type = std::streampos;
  using state_type = std::mbstate_t;
  static constexpr void assign(char_type& to, const char_type& from) noexcept { to = from; }
  static constexpr char_type* assign(char_type* p, std::size_t n, char_type c) noexcept {
    for (std::size_t i = 0; i < n; ++i) p[i] = c;
    return p;
  }
  static constexpr bool eq(char_type x, char_type y) noexcept { return x == y; }
  static constexpr bool lt(char_type x, char_type y) noexcept { return x < y; }
  static constexpr int compare(const char_type* x, const char_type* y, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i)
      if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  }
  static constexpr std::size_t length(const char_type* p) noexcept {
    std::size_t n = 0;
    while (p[n] != 0) ++n;
    return n;
  }
  static constexpr const char_type* find(const char_type* p, std::size_t n, const char_type& c) noexcept {
    for (std::size_t i = 0; i < n; ++i)
      if (p[i] == c) return p + i;
    return nullptr;
  }
  static char_type* move(char_type* to, const char_type* from, std::size_t n) noexcept {
    if (n != 0) std::memmove(to, from, n);
    return to;
  }
  static char_type* copy(char_type* to, const char_type* from, std::size_t n) noexcept {
    if (n != 0) std::memcpy(to, from, n);
    return to;
  }
  static constexpr int_type not_eof(int_type c) noexcept { return c == eof() ? 0 : c; }
  static constexpr char_type to_char_type(int_type c) noexcept { return static_cast<char_type>(c); }
  static constexpr int_type to_int_type(char_type c) noexcept { return c; }
  static constexpr bool eq_int_type(int_type x, int_type y) noexcept { return x == y; }
  static constexpr int_type eof() noexcept { return ~0u; }
};

struct Containers {
  std::deque<bool> bools;
  std::vector<bool> bits;
  std::list<std::int8_t> list;
  std::forward_list<std::string> forward;
  std::basic_string<std::uint8_t, octet_traits> raw_bytes;
  std::queue<std::int32_t> queue;
  std::stack<std::int32_t, std::vector<std::int32_t>> stack;
  std::priority_queue<std::int32_t> heap;
  std::unordered_multimap<std::int32_t, std::string> multi;
  std::multiset<std::int32_t> ordered_multi;
  std::unordered_set<std::string> hashed;
  std::pair<std::int32_t, bool> pair;
  std::tuple<> empty_tuple;
  std::optional<std::optional<std::int32_t>> nested_optional;
  std::chrono::time_point<std::chrono::steady_clock, std::chrono::nanoseconds> steady;
  bifrons::deprecated<TickRecord> retired_record;
  bifrons::deprecated<std::variant<std::int32_t, std::string>> retired_variant;
};

struct Figure {
  std::string label;
  virtual ~Figure() = default;
  virtual int corners() const = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("label", label));
  }
};
struct Disc final : Figure {
  std::int32_t radius = 0;
  int corners() const override { return 0; }
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::named("figure", bifrons::base<Figure>(*this)), bifrons::named("radius", radius));
  }
};
struct Figures {
  std::vector<std::shared_ptr<Figure>> figures;
};

/// A hook that names a later field as its base's type is named: the base keeps its position's name.
struct ClashBase {
  std::int32_t v = 0;
};
struct ClashDerived : ClashBase {
  std::int32_t x = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<ClashBase>(*this), bifrons::named("schema_test::ClashBase", x));
  }
};

/// Made only by its hook (no default constructor, not copyable): its schema comes from the
/// object the hook makes from no fields, whose fields hold what the hook's locals start with.
class Ring final : public Figure {
 public:
  Ring(std::string l, std::int32_t inner, std::int32_t outer) : inner_(inner), outer_(outer) { label = std::move(l); }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;
  int corners() const override { return 0; }
  template <class Ar>
  void save(Ar& ar) const {
    ar(bifrons::named("label", label), bifrons::named("inner", inner_), bifrons::named("outer", outer_));
  }
  template <class Ar>
  static Ring load_and_construct(Ar& ar) {
    std::string l;
    std::int32_t inner = 1, outer = 2;
    ar(bifrons::named("label", l), inner, outer);
    return Ring(std::move(l), inner, outer);
  }

 private:
  const std::int32_t inner_, outer_;
};
/// Refuses the values its locals start with.
struct Positive {
  explicit Positive(std::int32_t v) : value(v) {}
  std::int32_t value;
  template <class Ar>
  void save(Ar& ar) const {
    ar(value);
  }
  template <class Ar>
  static Positive load_and_construct(Ar& ar) {
    std::int32_t v = 0;
    ar(v);
    if (v <= 0) throw std::invalid_argument("not positive");
    return Positive(v);
  }
};

}  // namespace schema_test

BIFRONS_REGISTER(schema_test::Disc, "schema_test.Disc");
BIFRONS_REGISTER(schema_test::Ring, "schema_test.Ring", schema_test::Figure);

template <>
inline constexpr std::string_view bifrons::schema_name<schema_test::Renamed> = "app.Renamed";
template <>
inline constexpr std::string_view bifrons::schema_name<schema_test::RenamedEnum> = "app.RenamedEnum";
template <>
inline constexpr std::string_view bifrons::schema_name<schema_test::Clashing1> = "app.Same";
template <>
inline constexpr std::string_view bifrons::schema_name<schema_test::Clashing2> = "app.Same";
template <>
inline constexpr std::string_view bifrons::schema_name<schema_test::Escaped> = "caf\xC3\xA9\"\\";
template <>
inline constexpr bool bifrons::enable_identity<schema_test::Inner> = true;
template <>
inline constexpr bool bifrons::enable_record<schema_test::TickRecord> = true;

namespace {

using namespace schema_test;
using bifrons::detail::json::value;

std::string golden_dir() { return std::string(BIFRONS_TEST_DATA_DIR) + "/golden"; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The schema of T (and the registered classes Registered...) as a JSON value (built again: the
/// text is checked by the golden schemas).
template <class T, class... Registered>
value document() {
  bifrons::detail::schema_builder builder;
  value root = builder.describe<T>();
  (builder.describe_registered<Registered>(), ...);
  return builder.document(std::move(root));
}

const value& at(const value& v, std::string_view key) {
  static const value none;
  const value* found = v.find(key);
  EXPECT_NE(found, nullptr) << "no member " << key;
  return found ? *found : none;
}

std::string one_line(const value& v) {
  std::string out;
  bifrons::detail::json::write(out, v, 0, true);
  return out;
}

/// The fields of the named type, one line each: name, type, default and flags.
std::vector<std::string> fields_of(const value& doc, std::string_view type) {
  std::vector<std::string> out;
  for (const value& f : at(at(at(doc, "types"), type), "fields").items()) out.push_back(one_line(f));
  return out;
}

// ---- classes made only by load_and_construct ----------------------------------------------------

TEST(SchemaTypes, AClassMadeOnlyByItsHookIsDescribedFromTheObjectItMakesFromNoFields) {
  // Registered and reached through a pointer to its base, as bifrons_schema_check REGISTERED
  // describes it: the fields its save writes, with the defaults its hook's locals start with.
  const value doc = document<Figures, Ring>();
  EXPECT_EQ(fields_of(doc, "schema_test::Ring"),
            (std::vector<std::string>{
                R"({"default": "00", "name": "label", "type": {"kind": "string", "unit": "char"}})",
                R"({"default": "02", "name": "inner", "type": "i32"})",
                R"({"default": "04", "name": "outer", "type": "i32"})"}));
  // And a value of it reads back through that schema's root.
  Figures f;
  f.figures.push_back(std::make_shared<Ring>("r", 5, 9));
  const auto back = bifrons::from_bytes<Figures>(bifrons::to_bytes(f));
  const auto* ring = dynamic_cast<const Ring*>(back.figures.at(0).get());
  ASSERT_NE(ring, nullptr);
  EXPECT_EQ(ring->label, "r");
}

TEST(SchemaTypes, ABaseIsNamedAfterItsTypeUnlessAnotherFieldHasThatName) {
  // (The review's case: the base named after its type clashed with a later field of that name,
  // and the schema, with two fields of one name, was refused by every tool that loads it.)
  EXPECT_EQ(fields_of(document<ClashDerived>(), "schema_test::ClashDerived"),
            (std::vector<std::string>{
                R"({"base": true, "default": "0200", "name": "field0", "type": "schema_test::ClashBase"})",
                R"({"default": "00", "name": "schema_test::ClashBase", "type": "i32"})"}));
}

TEST(SchemaTypes, AHookThatRefusesItsDefaultsMakesNoSchema) {
  try {
    (void)bifrons::schema<std::optional<Positive>>();
    ADD_FAILURE() << "schema<T>() described a class whose hook refused its defaults";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("makes schema_test::Positive, which has no default constructor"),
              std::string::npos)
        << e.what();
  }
}

// ---- golden schemas ------------------------------------------------------------------------------

template <class Case>
class GoldenSchema : public ::testing::Test {};

struct CaseName {
  template <class Case>
  static std::string GetName(int) {
    return Case::name;
  }
};

TYPED_TEST_SUITE(GoldenSchema, golden::schema_case_list<::testing::Types>, CaseName);

TYPED_TEST(GoldenSchema, ExportEqualsTheCommittedSchema) {
  const std::string exported = []<class... Registered>(std::tuple<Registered...>*) {
    return bifrons::schema<typename TypeParam::type, Registered...>();
  }(static_cast<typename golden::registered_of<TypeParam>::type*>(nullptr));
  if (const char* out_dir = std::getenv("BIFRONS_SCHEMA_OUT"); out_dir != nullptr && *out_dir != '\0') {
    std::ofstream out(std::string(out_dir) + "/" + TypeParam::name + ".schema.json", std::ios::binary);
    out << exported;
  }
  EXPECT_EQ(exported, read_text(golden_dir() + "/" + TypeParam::name + ".schema.json"));
}

template <class... Cases>
struct case_files {
  static std::set<std::string> get() { return {std::string(Cases::name) + ".schema.json" ...}; }
};

TEST(GoldenSchemaFiles, OneSchemaPerCase) {
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(golden_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 12 && name.substr(name.size() - 12) == ".schema.json") on_disk.insert(name);
  }
  EXPECT_EQ(on_disk, golden::schema_case_list<case_files>::get());
}

// ---- names -----------------------------------------------------------------------------------------

TEST(SchemaNames, AggregateMembersByReflectionWithDefaultsFromInitializers) {
  const value doc = document<Members>();
  EXPECT_EQ(one_line(at(doc, "root")), "\"schema_test::Members\"");
  EXPECT_EQ(fields_of(doc, "schema_test::Members"),
            (std::vector<std::string>{
                R"({"default": "00", "name": "first_member", "type": "i32"})",
                R"({"default": "616263", "name": "symbol", "type": {"element": "char", "kind": "array", "size": 3}})",
                R"({"default": "020e", "name": "nested", "type": "schema_test::Inner"})",
                R"({"default": "03616263", "name": "text", "type": {"kind": "string", "unit": "char"}})",
                R"({"default": "02", "name": "color", "type": "schema_test::Color"})",
                R"({"default": "000000000000f83f", "name": "ratio", "type": "f64"})",
            }));
  EXPECT_EQ(one_line(at(at(doc, "types"), "schema_test::Color")), R"({"kind": "enum", "underlying": "i16"})");
  // enable_identity: by-value objects take ids.
  EXPECT_EQ(one_line(at(at(doc, "types"), "schema_test::Inner")),
            R"({"fields": [{"default": "0e", "name": "value", "type": "i32"}], "identity": true, "kind": "struct"})");
}

TEST(SchemaNames, HookFieldsNamedOrPositional) {
  const value doc = document<Hooked>();
  EXPECT_EQ(fields_of(doc, "schema_test::Hooked"),
            (std::vector<std::string>{
                R"({"base": true, "default": "0203", "name": "shape", "type": "schema_test::Shape"})",
                R"({"default": "01", "name": "id", "type": "i32"})",
                R"({"default": "04030201", "name": "hash", "type": {"kind": "fixed", "of": "u32"}})",
                R"({"default": "00", "name": "field3", "type": {"kind": "string", "unit": "char"}})",
            }));
  const value& hooked = at(at(doc, "types"), "schema_test::Hooked");
  EXPECT_EQ(one_line(at(hooked, "version")), "2");
  EXPECT_EQ(one_line(at(hooked, "hook")), "true");
  EXPECT_EQ(hooked.find("identity"), nullptr);
}

TEST(SchemaNames, SchemaNameOverridesTheCppName) {
  const value doc = document<std::pair<Renamed, RenamedEnum>>();
  EXPECT_EQ(one_line(at(doc, "root")), R"({"elements": ["app.Renamed", "app.RenamedEnum"], "kind": "tuple"})");
  EXPECT_NE(at(doc, "types").find("app.Renamed"), nullptr);
  EXPECT_NE(at(doc, "types").find("app.RenamedEnum"), nullptr);
}

TEST(SchemaNames, TwoTypesOfOneNameAreRefused) {
  try {
    (void)bifrons::schema<HoldsClash>();
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("\"app.Same\""), std::string::npos) << e.what();
  }
}

TEST(SchemaNames, CompilersSpellNamesAlike) {
  using bifrons::detail::normalize_type_name;
  const auto normalized = [](std::string_view in) {
    std::string out(normalize_type_name(in, nullptr), '\0');
    normalize_type_name(in, out.data());
    return out;
  };
  EXPECT_EQ(normalized("app::W<std::__cxx11::basic_string<char> >"), "app::W<std::basic_string<char>>");
  EXPECT_EQ(normalized("std::__1::vector<int>"), "std::vector<int>");
  EXPECT_EQ(normalized("{anonymous}::A"), "(anonymous)::A");
  EXPECT_EQ(normalized("(anonymous namespace)::A"), "(anonymous)::A");
  EXPECT_EQ(bifrons::detail::derived_type_name<golden::Account>.view(), "golden::Account");
  // clang with libc++ prints its strings' preferred names; with or without the inline namespace.
  EXPECT_EQ(normalized("app::W<std::string, std::u8string_view>"),
            "app::W<std::basic_string<char>, std::basic_string_view<char8_t>>");
  EXPECT_EQ(normalized("std::__1::wstring"), "std::basic_string<wchar_t>");
  // Only whole names: not a longer identifier, nor a name in another namespace.
  EXPECT_EQ(normalized("std::strings"), "std::strings");
  EXPECT_EQ(normalized("app::std::string"), "app::std::string");
  EXPECT_EQ(normalized("mystd::string"), "mystd::string");
  // Whatever the standard library, a template of strings is named alike.
  EXPECT_EQ((bifrons::detail::derived_type_name<std::pair<std::string, std::u16string_view>>.view()),
            "std::pair<std::basic_string<char>, std::basic_string_view<char16_t>>");
}

// ---- the canonical text ---------------------------------------------------------------------------

TEST(SchemaText, IsPythonsCanonicalJson) {
  // json.dumps({"a": [], "b": {}, "c": ["x", 1]}, indent=2, sort_keys=True) + "\n"
  value v = value::object();
  value& c = v.set("c", value::array());
  c.push("x");
  c.push(value::integer(1));
  v.set("b", value::object());
  v.set("a", value::array());
  EXPECT_EQ(bifrons::detail::json::canonical(v),
            "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    \"x\",\n    1\n  ]\n}\n");
  // ensure_ascii: non-ASCII as \u escapes (a pair for U+1F600), quotes and backslashes escaped.
  std::string s;
  bifrons::detail::json::write_string(s, "caf\xC3\xA9 \xF0\x9F\x98\x80 \"\\\n\x7F", true);
  EXPECT_EQ(s, R"("caf\u00e9 \ud83d\ude00 \"\\\n\u007f")");
  EXPECT_NE(bifrons::schema<Escaped>().find(R"("caf\u00e9\"\\")"), std::string::npos);
}

// ---- type expressions -----------------------------------------------------------------------------

TEST(SchemaTypes, VarintOverridesAndViews) {
  const value arrays = document<Arrays>();
  EXPECT_EQ(
      fields_of(arrays, "schema_test::Arrays"),
      (std::vector<std::string>{
          R"({"default": "00", "name": "field0", "type": {"element": "i32", "kind": "sequence"}})",
          R"({"default": "00", "name": "field1", "type": {"element": "i32", "kind": "sequence", "varint": true}})",
                // An array of enums is element by element already: varint() changes nothing.
          R"({"default": "00", "name": "field2", "type": {"element": "schema_test::Color", "kind": "sequence"}})",
          R"({"default": "000000", "name": "field3", "type": {"element": "u16", "kind": "array", "size": 3, "varint": true}})",
      }));
  const value viewed = document<Viewed>();
  EXPECT_EQ(fields_of(viewed, "schema_test::Viewed"),
            (std::vector<std::string>{
                R"({"default": "00", "name": "text", "type": {"kind": "string", "unit": "char", "view": true}})",
                R"({"default": "00", "name": "wide", "type": {"kind": "string", "unit": "u16", "view": true}})",
                R"({"default": "00", "name": "numbers", "type": {"element": "i32", "kind": "sequence", "view": true}})",
            }));
}

TEST(SchemaTypes, MinimalTypesPathsAtomicsValarraysAndConstAreTheTypesTheyAreWrittenAs) {
  const std::vector<std::string> fields = fields_of(document<WrittenAsOthers>(), "schema_test::WrittenAsOthers");
  EXPECT_EQ(fields, fields_of(document<WrittenAsOthersTwin>(), "schema_test::WrittenAsOthersTwin"));
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0], R"({"default": "00", "name": "code", "type": "u16"})");
  // The two structs encode alike, as their schemas say.
  WrittenAsOthers value;
  value.code.value = 300;
  value.path = "a/b";
  value.counter = -7;
  value.samples = {1, -2};
  value.limit.emplace(9);
  EXPECT_EQ(bifrons::to_bytes(value), bifrons::to_bytes(WrittenAsOthersTwin{300, "a/b", -7, {1, -2}, 9}));
}

TEST(SchemaTypes, PointersByRoleAndRecursiveTypesOnce) {
  const value doc = document<Pointers>();
  EXPECT_EQ(
      fields_of(doc, "schema_test::Pointers"),
      (std::vector<std::string>{
          R"({"default": "00", "name": "shared", "type": {"kind": "pointer", "role": "shared", "to": "i32"}})",
          R"({"default": "00", "name": "weak", "type": {"kind": "pointer", "role": "weak", "to": "i32"}})",
          R"({"default": "00", "name": "raw", "type": {"kind": "pointer", "role": "raw", "to": "i32"}})",
          R"({"default": "00", "name": "unique", "type": {"kind": "pointer", "role": "unique", "to": {"kind": "string", "unit": "char"}}})",
      }));
  const value node = document<Node>();
  EXPECT_EQ(at(node, "types").members().size(), 1u);
  EXPECT_EQ(
      fields_of(node, "schema_test::Node")[1],
      R"({"default": "00", "name": "next", "type": {"kind": "pointer", "role": "unique", "to": "schema_test::Node"}})");
}

TEST(SchemaTypes, PolymorphicPointersAndTheRegisteredClassesTheProgramNames) {
  // golden::PolySet: pointers to golden::PShape etc.; the registered classes it names.
  const value doc = document<golden::PolySet, golden::PCircle, golden::PLabel, golden::PJoin>();
  EXPECT_EQ(
      one_line(at(doc, "polymorphic")),
      R"({"golden.Circle": "golden::PCircle", "golden.Join": "golden::PJoin", "golden.Label": "golden::PLabel"})");
  EXPECT_EQ(fields_of(doc, "golden::PolySet")[2],
            R"({"default": "00", "name": "label_as_shape", "type": {"kind": "pointer", "polymorphic": true, )"
            R"("role": "shared", "to": "golden::PShape"}})");
  EXPECT_EQ(one_line(at(at(at(doc, "types"), "golden::PLabel"), "bases")), R"(["golden::PNamed", "golden::PShape"])");
  // The diamond reaches its virtual base through both sides; the sides are not registered.
  EXPECT_EQ(one_line(at(at(at(doc, "types"), "golden::PJoin"), "bases")),
            R"(["golden::PLeft", "golden::PRight", "golden::PRoot"])");
  EXPECT_EQ(at(at(doc, "types"), "golden::PLeft").find("bases"), nullptr);
  EXPECT_EQ(fields_of(doc, "golden::PLeft")[0],
            R"({"base": true, "default": "0200", "name": "golden::PRoot", "type": "golden::PRoot", "virtual": true})");
  // Without registered classes, no "polymorphic" member: PolySet reaches no registered class.
  EXPECT_EQ(document<golden::PolySet>().find("polymorphic"), nullptr);
}

TEST(SchemaTypes, AnAbstractClassTakesItsFieldsFromADerivedClass) {
  // golden::PolySet has no abstract class; schema_test::Figure is one, Disc derives from it.
  const value alone = document<Figures>();
  EXPECT_EQ(one_line(at(at(alone, "types"), "schema_test::Figure")),
            R"({"abstract": true, "fields": [], "hook": true, "kind": "struct"})");
  const value with_disc = document<Figures, Disc>();
  EXPECT_EQ(one_line(at(at(with_disc, "types"), "schema_test::Figure")),
            R"({"abstract": true, "fields": [{"default": "00", "name": "label", "type": {"kind": "string", "unit": )"
            R"("char"}}], "hook": true, "kind": "struct"})");
  EXPECT_EQ(one_line(at(with_disc, "polymorphic")), R"({"schema_test.Disc": "schema_test::Disc"})");
}

TEST(SchemaTypes, AClassThatIsNotRegisteredIsRefused) {
  try {
    (void)bifrons::schema<golden::PolySet, golden::PRight>();
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("golden::PRight"), std::string::npos) << e.what();
  }
}

TEST(SchemaTypes, ContainersAdaptersAndRetiredValues) {
  const value doc = document<Containers>();
  EXPECT_EQ(
      fields_of(doc, "schema_test::Containers"),
      (std::vector<std::string>{
          R"({"default": "00", "name": "bools", "type": {"element": "bool", "kind": "sequence"}})",
          R"({"default": "00", "name": "bits", "type": {"kind": "bitvector"}})",
          R"({"default": "00", "name": "list", "type": {"element": "i8", "kind": "sequence"}})",
          R"({"default": "00", "name": "forward", "type": {"element": {"kind": "string", "unit": "char"}, "kind": "sequence"}})",
          R"({"default": "00", "name": "raw_bytes", "type": {"element": "u8", "kind": "sequence"}})",
          R"({"default": "00", "name": "queue", "type": {"element": "i32", "kind": "sequence"}})",
          R"({"default": "00", "name": "stack", "type": {"element": "i32", "kind": "sequence"}})",
          R"({"default": "00", "name": "heap", "type": {"element": "i32", "kind": "sequence"}})",
          R"({"default": "00", "name": "multi", "type": {"key": "i32", "kind": "map", "multi": true, "value": {"kind": "string", "unit": "char"}}})",
          R"({"default": "00", "name": "ordered_multi", "type": {"key": "i32", "kind": "set", "multi": true}})",
          R"({"default": "00", "name": "hashed", "type": {"key": {"kind": "string", "unit": "char"}, "kind": "set"}})",
          R"({"default": "0000", "name": "pair", "type": {"elements": ["i32", "bool"], "kind": "tuple"}})",
          R"({"default": "", "name": "empty_tuple", "type": {"elements": [], "kind": "tuple"}})",
          R"({"default": "00", "name": "nested_optional", "type": {"kind": "optional", "of": {"kind": "optional", "of": "i32"}}})",
          R"({"default": "00", "name": "steady", "type": {"clock": "steady", "duration": {"kind": "duration", "period": "1/1000000000", "rep": "i64"}, "kind": "time_point"}})",
                // A record's T{} in full (its member initializer 5), a variant's first alternative.
          R"({"default": "18050000000000000000000000", "name": "retired_record", "type": {"kind": "deprecated", "of": "schema_test::TickRecord", "writes": "18050000000000000000000000"}})",
          R"({"default": "0000", "name": "retired_variant", "type": {"kind": "deprecated", "of": {"alternatives": ["i32", {"kind": "string", "unit": "char"}], "kind": "variant"}, "writes": "0000"}})",
      }));
  EXPECT_EQ(one_line(at(at(doc, "types"), "schema_test::TickRecord")),
            R"({"fields": [{"default": "05000000", "name": "id", "offset": 0, "type": "i32", "width": 4}, )"
            R"({"default": "0000000000000000", "name": "price", "offset": 4, "type": "f64", "width": 8}], )"
            R"("kind": "record", "size": 12})");
}

TEST(SchemaTypes, Spelling) {
  using bifrons::detail::spelling;
  const value doc = document<Containers>();
  const value& types = at(doc, "types");
  std::vector<std::string> spelled;
  for (const value& f : at(at(types, "schema_test::Containers"), "fields").items())
    spelled.push_back(spelling(at(f, "type")));
  EXPECT_EQ(spelled, (std::vector<std::string>{
                         "sequence<bool>", "bitvector", "sequence<i8>", "sequence<string<char>>", "sequence<u8>",
                         "sequence<i32>", "sequence<i32>", "sequence<i32>", "multimap<i32, string<char>>",
                         "multiset<i32>", "set<string<char>>", "tuple<i32, bool>", "tuple<>", "optional<optional<i32>>",
                         "time_point<steady, duration<i64, 1/1000000000>>", "deprecated<schema_test::TickRecord>",
                         "deprecated<variant<i32, string<char>>>"}));
  const value viewed = document<Viewed>();
  EXPECT_EQ(spelling(at(at(at(at(viewed, "types"), "schema_test::Viewed"), "fields").items()[2], "type")), "span<i32>");
  EXPECT_EQ(spelling(at(document<std::array<std::uint16_t, 3>>(), "root")), "array<u16, 3>");
  EXPECT_EQ(spelling(at(document<std::map<std::string, std::weak_ptr<Node>>>(), "root")),
            "map<string<char>, weak<schema_test::Node>>");
}

}  // namespace
