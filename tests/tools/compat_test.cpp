// The breaking-change checker of bifrons-compat (tools/lib/checker.hpp): every row of
// docs/evolution.md, as a pair of C++ types (before in namespace v1, after in v2), their schemas
// exported with bifrons::schema<T>() and compared. Each test names its row and pins the findings:
// verdict, rule and field path.

#include <bifrons/schema.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <forward_list>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "lib/checker.hpp"

namespace v1 {
struct Point {
  std::int32_t x = 0;
  std::int32_t y = 0;
};
struct Item {
  std::int32_t id = 0;
  std::string note;
  std::int32_t qty = 0;
};
struct Pair {
  std::int32_t a = 0;
  std::string b;
};
struct Same {
  std::int32_t a = 0;
  std::int32_t b = 0;
};
struct Location {
  std::int32_t x = 0;
};
enum class Side : std::int32_t { buy };
struct Animal {
  std::string name;
  std::uint16_t legs = 0;
};
struct Tick {
  std::int32_t id = 0;
  double price = 0;
};
struct Trade {
  std::int32_t id = 0;
  std::int16_t venue = 0;
  std::int32_t qty = 0;
};
struct Inner {
  std::int16_t a = 0;
};
struct Outer {
  Inner inner;
  std::int32_t tail = 0;
};
struct Node {
  std::int32_t value = 0;
  const Node* next = nullptr;
};
}  // namespace v1

namespace v2 {
using v1::Animal;
using v1::Inner;
struct Point {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t z = 0;
};
struct Location {
  std::int32_t x = 0;
};
enum class Side : std::int32_t { buy };
struct Tick {
  std::int32_t id = 0;
  double price = 0;
  std::uint16_t venue = 0;
};
struct Outer {
  struct Inner {
    std::int16_t a = 0;
    std::int16_t b = 0;
  } inner;
  std::int32_t tail = 0;
};
struct Node {
  std::int32_t value = 0;
  const Node* next = nullptr;
};
}  // namespace v2

template <>
inline constexpr bool bifrons::enable_record<v1::Tick> = true;
template <>
inline constexpr bool bifrons::enable_record<v2::Tick> = true;
template <>
inline constexpr bool bifrons::enable_record<v1::Trade> = true;
template <>
inline constexpr bool bifrons::enable_record<v1::Inner> = true;
template <>
inline constexpr bool bifrons::enable_record<v1::Outer> = true;
template <>
inline constexpr bool bifrons::enable_record<v2::Outer::Inner> = true;
template <>
inline constexpr bool bifrons::enable_record<v2::Outer> = true;
template <>
inline constexpr bool bifrons::enable_identity<v2::Node> = true;
template <>
inline constexpr std::string_view bifrons::schema_name<v2::Outer::Inner> = "Inner";

namespace {

using namespace bifrons::tools;

std::string strip_versions(std::string text) {
  for (const std::string_view prefix : {"v1::", "v2::", "(anonymous)::"}) {
    for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at))
      text.erase(at, prefix.size());
  }
  return text;
}

/// "verdict rule path" of each finding of the change Old -> New, joined with "; ".
template <class Old, class New>
std::string findings() {
  const schema o = load_schema_text(strip_versions(bifrons::schema<Old>()));
  const schema n = load_schema_text(strip_versions(bifrons::schema<New>()));
  std::string out;
  for (const finding& f : check(o, n))
    out += (out.empty() ? "" : "; ") + std::string(verdict_name(f.verdict)) + " " + f.rule + " " + f.path;
  return out;
}

/// A struct with one field `v` of type T (the field whose type changes).
template <class T>
struct Holder {
  T v{};
};

template <class Old, class New>
std::string field_change() {
  return findings<Holder<Old>, Holder<New>>();
}

// Holder<T> is named by its template argument; the checker sees a rename of the holder, so the
// field-change tests use this name instead.
}  // namespace

template <class T>
inline constexpr std::string_view bifrons::schema_name<Holder<T>> = "Holder";

namespace {

// ---- structs --------------------------------------------------------------------------------------

TEST(EvolutionRows, AppendAFieldAtTheEndOfAStruct) {
  EXPECT_EQ((findings<v1::Point, v2::Point>()), "compatible append-field Point.z");
}

TEST(EvolutionRows, RemoveTheLastField) {
  EXPECT_EQ((findings<v2::Point, v1::Point>()), "compatible remove-last-field Point.z");
}

struct ItemRetired {
  std::int32_t id = 0;
  bifrons::deprecated<std::string> note;
  std::int32_t qty = 0;
};
struct ItemWithoutNote {
  std::int32_t id = 0;
  std::int32_t qty = 0;
};

TEST(EvolutionRows, RetireAFieldInTheMiddleWithDeprecated) {
  EXPECT_EQ((findings<v1::Item, ItemRetired>()),
            "compatible rename ItemRetired; compatible retire-field ItemRetired.note");
}

TEST(EvolutionRows, RemoveAFieldInTheMiddleOutright) {
  EXPECT_EQ((findings<v1::Item, ItemWithoutNote>()),
            "compatible rename ItemWithoutNote; breaking remove-field ItemWithoutNote.note");
}

TEST(EvolutionRows, InsertAFieldInTheMiddle) {
  EXPECT_EQ((findings<ItemWithoutNote, v1::Item>()), "compatible rename Item; breaking insert-field Item.note");
}

struct PairReordered {
  std::string b;
  std::int32_t a = 0;
};
struct SameReordered {
  std::int32_t b = 0;
  std::int32_t a = 0;
};

TEST(EvolutionRows, ReorderFields) {
  EXPECT_EQ((findings<v1::Pair, PairReordered>()),
            "compatible rename PairReordered; breaking reorder-fields PairReordered");
  // Fields of one type swapped read each other's values: no error at all.
  EXPECT_EQ((findings<v1::Same, SameReordered>()),
            "compatible rename SameReordered; silent reorder-fields SameReordered");
}

struct PointRenamedField {
  std::int32_t x = 0;
  std::int32_t why = 0;
};

TEST(EvolutionRows, RenameAFieldOrAType) {
  EXPECT_EQ((findings<v1::Point, PointRenamedField>()),
            "compatible rename PointRenamedField; compatible rename PointRenamedField.why");
  EXPECT_EQ((findings<v1::Point, v1::Location>().substr(0, 28)), "compatible rename Location; ");
}

TEST(EvolutionRows, RenameTheRootTypeOfTypedFiles) {
  const schema o = load_schema_text(strip_versions(bifrons::schema<v1::Point>()));
  const schema n = load_schema_text(strip_versions(bifrons::schema<PointRenamedField>()));
  const std::vector<finding> framed = check(o, n, {.framed = true});
  ASSERT_FALSE(framed.empty());
  EXPECT_EQ(framed[0].rule, "framed-rename");
  EXPECT_EQ(framed[0].verdict, verdict::breaking);
  EXPECT_EQ(worst(check(o, n)), verdict::compatible);  // unframed data holds no name
}

struct PointDefaults {
  std::int32_t x = 5;
  std::int32_t y = 0;
};

TEST(EvolutionRows, ChangeAFieldsDefault) {
  EXPECT_EQ((findings<v1::Point, PointDefaults>()),
            "compatible rename PointDefaults; compatible change-default PointDefaults.x");
}

// ---- integers, floating point, enums ------------------------------------------------------------

TEST(EvolutionRows, WidenAnIntegerSameSignedness) {
  EXPECT_EQ((field_change<std::int16_t, std::int32_t>()), "compatible widen-integer Holder.v");
  EXPECT_EQ((field_change<std::optional<std::uint8_t>, std::optional<std::uint64_t>>()),
            "compatible widen-integer Holder.v?");
  EXPECT_EQ((field_change<std::set<std::int32_t>, std::set<std::int64_t>>()), "compatible widen-integer Holder.v[]");
}

TEST(EvolutionRows, WidenOrNarrowTheElementTypeOfAnArithmeticArray) {
  EXPECT_EQ((field_change<std::vector<std::int16_t>, std::vector<std::int32_t>>()),
            "breaking resize-array-element Holder.v[]");
  EXPECT_EQ((field_change<std::u16string, std::u32string>()), "breaking resize-array-element Holder.v[]");
  EXPECT_EQ((field_change<std::array<std::int64_t, 2>, std::array<std::int32_t, 2>>()),
            "breaking resize-array-element Holder.v[]");
}

TEST(EvolutionRows, NarrowAnIntegerSameSignedness) {
  EXPECT_EQ((field_change<std::uint64_t, std::uint32_t>()), "compatible narrow-integer Holder.v");
}

TEST(EvolutionRows, ChangeSignedness) {
  EXPECT_EQ((field_change<std::int32_t, std::uint32_t>()), "silent change-signedness Holder.v");
  EXPECT_EQ((field_change<std::vector<std::int32_t>, std::vector<std::uint32_t>>()),
            "silent change-signedness Holder.v[]");
}

TEST(EvolutionRows, FloatToDouble) {
  EXPECT_EQ((field_change<float, double>()), "breaking float-double Holder.v");
  EXPECT_EQ((field_change<double, float>()), "breaking float-double Holder.v");
}

TEST(EvolutionRows, IntegerToEnumWithTheSameUnderlyingType) {
  EXPECT_EQ((field_change<std::int32_t, v1::Side>()), "compatible integer-enum Holder.v");
  EXPECT_EQ((field_change<v1::Side, std::int32_t>()), "compatible integer-enum Holder.v");
  // In arrays, integers are a raw block and enums a varint each.
  EXPECT_EQ((field_change<std::vector<std::int32_t>, std::vector<v1::Side>>()), "breaking integer-enum Holder.v");
}

enum Legacy : std::uint32_t { legacy_a };
enum class Scoped : std::uint32_t { a };

TEST(EvolutionRows, GiveAnUnscopedEnumAFixedUnderlyingType) {
  // An unscoped enum without a fixed type cannot be serialized (and has no schema); once it has
  // one, its schema is that of any enum with that underlying type.
  EXPECT_EQ((field_change<Legacy, Scoped>()), "compatible rename Holder.v");
}

TEST(EvolutionRows, BoolToUnsignedInteger) {
  EXPECT_EQ((field_change<bool, std::uint8_t>()), "compatible bool-unsigned Holder.v");
  EXPECT_EQ((field_change<bool, std::int32_t>()), "silent bool-unsigned Holder.v");
}

// ---- containers ---------------------------------------------------------------------------------

TEST(EvolutionRows, VectorDequeListForwardList) {
  EXPECT_EQ((field_change<std::vector<std::string>, std::deque<std::string>>()), "");
  EXPECT_EQ((field_change<std::list<std::int32_t>, std::forward_list<std::int32_t>>()), "");
}

TEST(EvolutionRows, StringToVectorOfCharOrBytes) {
  EXPECT_EQ((field_change<std::string, std::vector<char>>()), "compatible string-bytes Holder.v");
  EXPECT_EQ((field_change<std::string, std::vector<std::uint8_t>>()), "compatible string-bytes Holder.v");
  EXPECT_EQ((field_change<std::vector<std::byte>, std::string>()), "compatible string-bytes Holder.v");
}

TEST(EvolutionRows, StringToStringView) {
  EXPECT_EQ((field_change<std::string, std::string_view>()), "compatible string-view Holder.v");
}

TEST(EvolutionRows, VectorToSpanOfConst) {
  EXPECT_EQ((field_change<std::vector<std::int32_t>, std::span<const std::int32_t>>()),
            "compatible span-view Holder.v");
}

TEST(EvolutionRows, SetToMultisetMapToMultimap) {
  EXPECT_EQ((field_change<std::set<std::int32_t>, std::multiset<std::int32_t>>()), "compatible set-multiset Holder.v");
  EXPECT_EQ((field_change<std::map<std::int32_t, bool>, std::multimap<std::int32_t, bool>>()),
            "compatible set-multiset Holder.v");
}

TEST(EvolutionRows, MultisetToSetMultimapToMap) {
  EXPECT_EQ((field_change<std::multiset<std::int32_t>, std::set<std::int32_t>>()), "compatible multiset-set Holder.v");
  EXPECT_EQ((field_change<std::multimap<std::int32_t, bool>, std::map<std::int32_t, bool>>()),
            "compatible multiset-set Holder.v");
}

TEST(EvolutionRows, OrderedToUnordered) {
  EXPECT_EQ((field_change<std::map<std::string, std::int32_t>, std::unordered_map<std::string, std::int32_t>>()), "");
}

TEST(EvolutionRows, MapToVectorOfPairs) {
  EXPECT_EQ((field_change<std::map<std::int32_t, std::string>, std::vector<std::pair<std::int32_t, std::string>>>()),
            "compatible map-pairs Holder.v");
}

// ---- optionals and pointers ---------------------------------------------------------------------

TEST(EvolutionRows, TToOptionalT) {
  EXPECT_EQ((field_change<std::int32_t, std::optional<std::int32_t>>()), "breaking optional-wrap Holder.v");
  EXPECT_EQ((field_change<std::optional<v1::Point>, v1::Point>()), "breaking optional-wrap Holder.v");
}

TEST(EvolutionRows, OptionalToUniquePtr) {
  EXPECT_EQ((field_change<std::optional<std::string>, std::unique_ptr<std::string>>()),
            "compatible optional-unique Holder.v");
}

TEST(EvolutionRows, UniquePtrToSharedPtr) {
  EXPECT_EQ((field_change<std::unique_ptr<std::int32_t>, std::shared_ptr<std::int32_t>>()),
            "compatible unique-shared Holder.v");
}

TEST(EvolutionRows, SharedPtrToWeakPtr) {
  EXPECT_EQ((field_change<std::shared_ptr<std::int32_t>, std::weak_ptr<std::int32_t>>()),
            "compatible shared-weak Holder.v");
}

std::int32_t referenced = 0;
struct HoldsRaw {
  std::int32_t target = 0;
  const std::int32_t* ref = nullptr;
};
struct HoldsReference {
  std::int32_t target = 0;
  std::reference_wrapper<const std::int32_t> ref{referenced};
};

TEST(EvolutionRows, RawPointerToReferenceWrapper) {
  EXPECT_EQ((findings<HoldsRaw, HoldsReference>()),
            "compatible rename HoldsReference; compatible raw-reference HoldsReference.ref");
}

struct OwningHook {
  std::int32_t* p = nullptr;
  OwningHook() = default;
  OwningHook(const OwningHook&) = delete;
  OwningHook& operator=(const OwningHook&) = delete;
  ~OwningHook() { delete p; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("p", bifrons::owning(p)));
  }
};
struct UniqueMember {
  std::unique_ptr<std::int32_t> p;
};

TEST(EvolutionRows, OwningToUniquePtr) {
  EXPECT_EQ((findings<OwningHook, UniqueMember>()),
            "compatible rename UniqueMember; compatible hook-aggregate UniqueMember; compatible owning-unique "
            "UniqueMember.p");
}

struct Nodes {
  std::vector<v1::Node> nodes;
};
struct NodesWithIdentity {
  std::vector<v2::Node> nodes;
};
struct PlainNode {
  std::int32_t value = 0;
};
struct PlainNodeWithIdentity {
  std::int32_t value = 0;
};
}  // namespace
template <>
inline constexpr bool bifrons::enable_identity<PlainNodeWithIdentity> = true;
namespace {

TEST(EvolutionRows, AddOrRemoveEnableIdentity) {
  EXPECT_EQ((findings<Nodes, NodesWithIdentity>()),
            "compatible rename NodesWithIdentity; breaking identity NodesWithIdentity.nodes[]");
  // Without pointers in the message, no id can shift.
  EXPECT_EQ((findings<PlainNode, PlainNodeWithIdentity>()),
            "compatible rename PlainNodeWithIdentity; compatible identity PlainNodeWithIdentity");
}

TEST(EvolutionRows, ChangeAPointersPointeeType) {
  EXPECT_EQ((field_change<std::unique_ptr<std::int32_t>, std::unique_ptr<std::string>>()),
            "breaking change-type Holder.v*");
}

struct Dog {
  std::string name;
  std::uint16_t legs = 0;
  bool good = false;
};
struct DogWithBase : v1::Animal {
  bool good = false;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("animal", bifrons::base<v1::Animal>(*this)), bifrons::named("good", good));
  }
};
struct WrappedX {
  v1::Location location;
};
struct PlainX {
  std::int32_t location = 0;
};

TEST(EvolutionRows, TToAStructWrappingTFieldsMovedIntoABase) {
  EXPECT_EQ((findings<PlainX, WrappedX>()), "compatible rename WrappedX; breaking wrap-struct WrappedX.location");
  const std::string moved = findings<Dog, DogWithBase>();
  EXPECT_NE(moved.find("breaking change-type DogWithBase.animal"), std::string::npos) << moved;
}

struct PointHook {
  std::int32_t x = 0;
  std::int32_t y = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("x", x), bifrons::named("y", y));
  }
};

TEST(EvolutionRows, AggregateToAClassWithAHook) {
  EXPECT_EQ((findings<v1::Point, PointHook>()), "compatible rename PointHook; compatible hook-aggregate PointHook");
}

struct Versioned1 {
  static constexpr std::uint32_t bifrons_version = 1;
  std::int32_t x = 0;
};
struct Versioned2 {
  static constexpr std::uint32_t bifrons_version = 2;
  std::int32_t x = 0;
};

TEST(EvolutionRows, AddAClassVersion) {
  EXPECT_EQ((findings<v1::Location, Versioned1>()), "compatible rename Versioned1; compatible add-version Versioned1");
}

struct Refusing1 {
  static constexpr std::uint32_t bifrons_version = 1;
  static constexpr bool bifrons_refuse_newer = true;
  std::int32_t x = 0;
};

TEST(EvolutionRows, BumpTheClassVersion) {
  // Silent unless the old class refuses newer data (docs/evolution.md): old programs read version 2
  // as their own, and read it wrong if the bump changed what a field means.
  EXPECT_EQ((findings<Versioned1, Versioned2>()), "compatible rename Versioned2; silent bump-version Versioned2");
  EXPECT_EQ((findings<Refusing1, Versioned2>()), "compatible rename Versioned2; compatible bump-version Versioned2");
  EXPECT_NE(bifrons::schema<Refusing1>().find("\"refuse_newer\": true"), std::string::npos);
  EXPECT_EQ(bifrons::schema<Versioned1>().find("refuse_newer"), std::string::npos);
}

TEST(EvolutionRows, AddAlternativesAtTheEndOfAVariant) {
  EXPECT_EQ((field_change<std::variant<std::int32_t, std::string>, std::variant<std::int32_t, std::string, bool>>()),
            "compatible append-alternative Holder.v");
}

TEST(EvolutionRows, InsertRemoveOrReorderVariantAlternatives) {
  EXPECT_EQ((field_change<std::variant<std::int32_t, std::string>, std::variant<std::string, std::int32_t>>()),
            "breaking change-alternatives Holder.v");
}

TEST(EvolutionRows, ChangeAnArraySize) {
  EXPECT_EQ((field_change<std::array<std::string, 2>, std::array<std::string, 3>>()), "breaking array-size Holder.v");
}

TEST(EvolutionRows, AddOrRemoveATupleElement) {
  EXPECT_EQ((field_change<std::pair<std::int32_t, bool>, std::tuple<std::int32_t, bool, bool>>()),
            "breaking tuple-elements Holder.v");
}

TEST(EvolutionRows, ChangeADurationsPeriod) {
  EXPECT_EQ((field_change<std::chrono::milliseconds, std::chrono::microseconds>()), "silent duration-period Holder.v");
  // The clock is not written either.
  EXPECT_EQ((field_change<std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds>,
                          std::chrono::time_point<std::chrono::steady_clock, std::chrono::seconds>>()),
            "silent time-point-clock Holder.v");
}

struct FixedHook {
  std::uint32_t v = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("v", bifrons::fixed(v)));
  }
};
struct PlainHook {
  std::uint32_t v = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("v", v));
  }
};

TEST(EvolutionRows, FixedToPlain) {
  EXPECT_EQ((findings<PlainHook, FixedHook>()), "compatible rename FixedHook; breaking fixed-plain FixedHook.v");
}

// ---- records ------------------------------------------------------------------------------------

struct TickWithoutPrice {
  std::int32_t id = 0;
};
struct TradeWithoutVenue {
  std::int32_t id = 0;
  std::int32_t qty = 0;
};
struct TickWide {
  std::int32_t id = 0;
  double price = 0;
  std::uint32_t venue = 0;
};
struct TickSide {
  v1::Side id{};
  double price = 0;
};
struct TickStruct {
  std::int32_t id = 0;
  double price = 0;
};
}  // namespace
template <>
inline constexpr bool bifrons::enable_record<TickWithoutPrice> = true;
template <>
inline constexpr bool bifrons::enable_record<TradeWithoutVenue> = true;
template <>
inline constexpr bool bifrons::enable_record<TickWide> = true;
template <>
inline constexpr bool bifrons::enable_record<TickSide> = true;
namespace {

TEST(EvolutionRows, AppendAFieldAtTheEndOfARecord) {
  EXPECT_EQ((findings<std::vector<v1::Tick>, std::vector<v2::Tick>>()),
            "compatible record-append-field sequence<Tick>[].venue");
}

TEST(EvolutionRows, RemoveTheLastFieldOfARecord) {
  EXPECT_EQ((findings<v1::Tick, TickWithoutPrice>()),
            "compatible rename TickWithoutPrice; compatible record-remove-last-field TickWithoutPrice.price");
}

TEST(EvolutionRows, RemoveInsertOrReorderFieldsInTheMiddleOfARecord) {
  EXPECT_EQ((findings<v1::Trade, TradeWithoutVenue>()),
            "compatible rename TradeWithoutVenue; breaking record-middle-fields TradeWithoutVenue.venue");
}

TEST(EvolutionRows, ChangeTheTypeOrWidthOfAFieldOfARecord) {
  // Even the last field: an old reader would take its low bytes.
  EXPECT_EQ((findings<v2::Tick, TickWide>()), "compatible rename TickWide; breaking record-field-type TickWide.venue");
}

TEST(EvolutionRows, IntegerToEnumInARecord) {
  EXPECT_EQ((findings<v1::Tick, TickSide>()), "compatible rename TickSide; compatible record-integer-enum TickSide.id");
}

TEST(EvolutionRows, StructToRecord) { EXPECT_EQ((findings<TickStruct, v1::Tick>()), "breaking struct-record Tick"); }

struct BookBefore {
  std::string name;
};
struct BookAfter {
  std::string name;
  std::vector<v1::Tick> ticks;
};

TEST(EvolutionRows, AddAFieldOfARecordTypeToAStruct) {
  EXPECT_EQ((findings<BookBefore, BookAfter>()),
            "compatible rename BookAfter; compatible append-field BookAfter.ticks");
}

TEST(EvolutionRows, AppendAFieldToARecordNestedInAnotherRecord) {
  EXPECT_EQ((findings<v1::Outer, v2::Outer>()), "breaking record-nested-append Outer.inner.b");
}

TEST(EvolutionRows, SequencesOfRecords) { EXPECT_EQ((field_change<std::vector<v1::Tick>, std::list<v1::Tick>>()), ""); }

TEST(EvolutionRows, VectorOfRecordsToSpan) {
  EXPECT_EQ((field_change<std::vector<v1::Tick>, std::span<const v1::Tick>>()), "compatible span-view Holder.v");
}

TEST(EvolutionRows, ArrayOfRecordsToVector) {
  EXPECT_EQ((field_change<std::array<v1::Tick, 2>, std::vector<v1::Tick>>()), "breaking array-vector Holder.v");
}

}  // namespace

// ---- polymorphism and virtual bases (docs/schema.md section 6) -------------------------------------

namespace shapes {
struct Shape {
  std::int32_t id = 0;
  virtual ~Shape() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
struct Circle final : Shape {
  std::int32_t radius = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), radius);
  }
};
struct Drawing {
  std::vector<std::unique_ptr<Shape>> shapes;
};
}  // namespace shapes

BIFRONS_REGISTER(shapes::Circle, "compat.Circle");

namespace v1 {
struct Plain {
  std::int32_t id = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
struct Root {
  std::int32_t root = 0;
};
struct Left : Root {
  std::int32_t left = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), left);
  }
};
struct Right : Root {
  std::int32_t right = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), right);
  }
};
struct Join : Left, Right {
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Left>(*this), bifrons::base<Right>(*this));
  }
};
struct Grown {
  std::int32_t a = 1;
};
struct OnGrown : Grown {
  std::int32_t own = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Grown>(*this), own);
  }
};
struct HoldsGrown {
  OnGrown derived;
  Grown member;
  Grown set{7};
};
}  // namespace v1

namespace v2 {
struct Plain {
  std::int32_t id = 0;
  virtual ~Plain() = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(id);
  }
};
using v1::Root;
struct Left : virtual Root {
  std::int32_t left = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), left);
  }
};
struct Right : virtual Root {
  std::int32_t right = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Root>(*this), right);
  }
};
struct Join : Left, Right {
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Left>(*this), bifrons::base<Right>(*this));
  }
};
struct Grown {
  std::int32_t a = 1;
  std::int32_t b = 2;
};
struct OnGrown : Grown {
  std::int32_t own = 0;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Grown>(*this), own);
  }
};
struct HoldsGrown {
  OnGrown derived;
  Grown member;
  Grown set{8};  // a member initializer that changed as the type grew
};
}  // namespace v2

namespace {

std::string joined(const std::vector<finding>& findings) {
  std::string out;
  for (const finding& f : findings)
    out += (out.empty() ? "" : "; ") + std::string(verdict_name(f.verdict)) + " " + f.rule + " " + f.path;
  return out;
}

TEST(EvolutionRows, AddOrRemoveARegisteredClass) {
  const schema without = load_schema_text(bifrons::schema<shapes::Drawing>());
  const schema with = load_schema_text(bifrons::schema<shapes::Drawing, shapes::Circle>());
  EXPECT_EQ(with.polymorphic.at("compat.Circle"), "shapes::Circle");
  EXPECT_EQ(with.at("shapes::Circle").bases, std::vector<std::string>{"shapes::Shape"});
  // Old programs fail on its objects by default (unknown_type); under unknown_type_policy::null
  // they read them as null.
  EXPECT_EQ(joined(check(without, with)), R"(breaking add-registered polymorphic["compat.Circle"])");
  check_options null_policy;
  null_policy.old_readers_null = true;
  EXPECT_EQ(joined(check(without, with, null_policy)), R"(compatible add-registered polymorphic["compat.Circle"])");
  EXPECT_EQ(joined(check(with, without)), R"(breaking remove-registered polymorphic["compat.Circle"])");
  EXPECT_EQ(joined(check(with, with)), "");
}

TEST(EvolutionRows, RenameARegisteredType) {
  std::string text = bifrons::schema<shapes::Drawing, shapes::Circle>();
  const schema before = load_schema_text(text);
  text.replace(text.find("compat.Circle"), 13, "compat.Round");
  EXPECT_EQ(joined(check(before, load_schema_text(text))),
            R"(breaking rename-registered polymorphic["compat.Circle"])");
}

TEST(EvolutionRows, ChangeTheRegisteredRelationsOfARegisteredClass) {
  const schema before = load_schema_text(bifrons::schema<shapes::Drawing, shapes::Circle>());
  schema after = before;
  after.types.at("shapes::Circle").bases.clear();
  EXPECT_EQ(joined(check(before, after)), R"(breaking registered-bases polymorphic["compat.Circle"])");
  EXPECT_EQ(joined(check(after, before)), "");
}

TEST(EvolutionRows, MakeAClassPolymorphic) {
  EXPECT_EQ((field_change<std::unique_ptr<v1::Plain>, std::unique_ptr<v2::Plain>>()),
            "compatible make-polymorphic Holder.v");
  // Back: objects of registered classes (tag 2) no longer read.
  const schema with = load_schema_text(bifrons::schema<shapes::Drawing, shapes::Circle>());
  schema plain = with;
  plain.types.at("shapes::Drawing").fields[0].type.args[0].polymorphic = false;
  plain.polymorphic.clear();
  plain.types.at("shapes::Circle").bases.clear();
  EXPECT_EQ(joined(check(with, plain)),
            "breaking make-polymorphic shapes::Drawing.shapes[]; "
            R"(breaking remove-registered polymorphic["compat.Circle"])");
}

TEST(EvolutionRows, MakeAClassAbstract) {
  const schema before = load_schema_text(bifrons::schema<shapes::Drawing, shapes::Circle>());
  schema after = before;
  after.types.at("shapes::Shape").abstract = true;
  EXPECT_EQ(joined(check(before, after)), "breaking make-abstract shapes::Drawing.shapes[]*");
  EXPECT_EQ(joined(check(after, before)), "compatible make-abstract shapes::Drawing.shapes[]*");
}

TEST(EvolutionRows, MakeABaseClassVirtual) {
  // Where the base appears once, the bytes stay; in a diamond it is written once instead of twice.
  EXPECT_EQ((findings<v1::Left, v2::Left>()), "compatible virtual-base Left.Root");
  EXPECT_EQ((findings<v1::Join, v2::Join>()),
            "breaking virtual-base Join.Left.Root; breaking virtual-base Join.Right.Root");
}

TEST(EvolutionRows, AStructThatGrowsIsReportedOnceNotAsTheDefaultOfEveryFieldOfItsType) {
  // Appending to Grown changes the bytes of every Grown's default, of the base and of members:
  // only the append is reported, and a default that changed otherwise still is.
  EXPECT_EQ((findings<v1::HoldsGrown, v2::HoldsGrown>()),
            "compatible append-field HoldsGrown.derived.Grown.b; compatible change-default HoldsGrown.set");
}

TEST(EvolutionRows, ABaseNamedByPositionInAnOlderSchemaIsNotARename) {
  // Exporters before this one named a hook's base fields field0, field1, ...; a snapshot taken
  // then, checked against today's schema of the same program, finds nothing.
  const std::string today = strip_versions(bifrons::schema<v1::Left>());
  std::string older = today;
  const std::string named = R"("name": "Root")";
  const std::size_t at = older.find(named);
  ASSERT_NE(at, std::string::npos) << today;
  older.replace(at, named.size(), R"("name": "field0")");
  EXPECT_EQ(joined(check(load_schema_text(older), load_schema_text(today))), "");
  // A real rename of a base field (a hook that names it) is still reported.
  std::string renamed = today;
  renamed.replace(renamed.find(named), named.size(), R"("name": "root_part")");
  EXPECT_EQ(joined(check(load_schema_text(renamed), load_schema_text(today))), "compatible rename Left.Root");
}

// ---- the checker's bookkeeping ------------------------------------------------------------------

TEST(Checker, EveryRuleHasARowAndTheWorstVerdictWins) {
  for (const rule_info& r : rules()) EXPECT_FALSE(r.row.empty()) << r.id;
  std::vector<finding> f{{verdict::compatible, "", "", ""}, {verdict::breaking, "", "", ""}};
  EXPECT_EQ(worst(f), verdict::breaking);
  f.push_back({verdict::silent, "", "", ""});
  EXPECT_EQ(worst(f), verdict::silent);
  EXPECT_EQ(worst({}), verdict::compatible);
}

TEST(Checker, RefusesDocumentsThatAreNotSchemas) {
  EXPECT_THROW(load_schema_text(R"({"bifrons_schema": 2, "format": 1, "root": "i32", "types": {}})"), schema_error);
  EXPECT_THROW(load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": "Nope", "types": {}})"), schema_error);
  EXPECT_THROW(load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": {"kind": "vector"}, "types": {}})"),
               schema_error);
  EXPECT_THROW(load_schema_text("{"), json_error);
  // A record that contains itself has no width (it used to recurse until the stack ran out).
  EXPECT_THROW(load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": "R", "types": {"R": {"kind": "record",)"
                                R"( "size": 1, "fields": [{"name": "r", "type": "R", "offset": 0, "width": 1,)"
                                R"( "default": "00"}]}}})"),
               schema_error);
  // fixed() takes integers and enums, not floats or structs.
  EXPECT_THROW(load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": {"kind": "fixed", "of": "f64"},)"
                                R"( "types": {}})"),
               schema_error);
  EXPECT_THROW(load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": {"kind": "fixed", "of": "S"},)"
                                R"( "types": {"S": {"kind": "struct", "fields": []}}})"),
               schema_error);
  EXPECT_NO_THROW(load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": {"kind": "fixed", "of": "E"},)"
                                   R"( "types": {"E": {"kind": "enum", "underlying": "u16"}}})"));
  // Two fields of one name.
  EXPECT_THROW(load_schema_text(R"({"bifrons_schema": 1, "format": 1, "root": "S", "types": {"S": {"kind": "struct",)"
                                R"( "fields": [{"name": "a", "type": "i32", "default": "00"}, {"name": "a",)"
                                R"( "type": "i32", "default": "00"}]}}})"),
               schema_error);
}

// ---- the checker's cost (finding 11 of the security review) --------------------------------------

/// A chain of `levels` nested structs: S_k has the fields of `per_level`, each of type S_k-1
/// ("P" stands for it) or another; S_0 holds one field of type `leaf`.
std::string chain(int levels, const std::vector<std::string>& per_level, const std::string& leaf = "i32") {
  std::string types = R"("S0": {"kind": "struct", "fields": [{"name": "x", "type": ")" + leaf +
                      R"(", "default": "00"}]})";
  for (int k = 1; k <= levels; ++k) {
    std::string fields;
    for (std::size_t i = 0; i < per_level.size(); ++i) {
      const std::string t = per_level[i] == "P" ? "S" + std::to_string(k - 1) : per_level[i];
      fields += std::string(i ? ", " : "") + R"({"name": "f)" + std::to_string(i) + R"(", "type": ")" + t +
                R"(", "default": "00"})";
    }
    types += R"(, "S)" + std::to_string(k) + R"(": {"kind": "struct", "fields": [)" + fields + "]}";
  }
  return R"({"bifrons_schema": 1, "format": 1, "root": "S)" + std::to_string(levels) + R"(", "types": {)" + types +
         "}}";
}

/// The comparisons check() makes between the chain and itself.
std::uint64_t comparisons_of(const std::string& text) {
  const schema s = load_schema_text(text);
  std::uint64_t n = 0;
  check_options options;
  options.comparisons = &n;
  EXPECT_EQ(joined(check(s, s, options)), "");
  return n;
}

// Every struct field was tried (survives) and then compared, each walking its whole subtree
// again: 2^depth comparisons (24 levels took 22 s). Each pair of types is now compared once.
TEST(Checker, WorkGrowsLinearlyWithTheNestingOfStructs) {
  for (const std::vector<std::string>& level :
       {std::vector<std::string>{"P", "i32"}, std::vector<std::string>{"P", "P"}, std::vector<std::string>{"P"}}) {
    const std::uint64_t at8 = comparisons_of(chain(8, level));
    const std::uint64_t at16 = comparisons_of(chain(16, level));
    // Twice the levels, about twice the work (a constant more per level), not 2^8 times.
    ASSERT_LE(at16, 2 * at8 + 16) << level.size() << " fields per level: " << at8 << " then " << at16;
    const std::uint64_t at60 = comparisons_of(chain(60, level));
    EXPECT_LE(at60, 8 * at8) << at8 << " then " << at60;
  }
}

// A base made virtual asks whether any struct meets it twice (a diamond), which walked every path
// of base fields of every struct: beside a chain of structs with two base fields each, 2^k paths
// (40 levels never ended).
TEST(Checker, DiamondsAreFoundWithoutWalkingEveryPath) {
  const auto schema_text = [](int levels, bool made_virtual) {
    std::string types = R"("B0": {"kind": "struct", "fields": [{"name": "x", "type": "i32", "default": "00"}]})";
    for (int k = 1; k <= levels; ++k) {
      const std::string below = "B" + std::to_string(k - 1);
      types += R"(, "B)" + std::to_string(k) + R"(": {"kind": "struct", "fields": [{"name": "a", "type": ")" + below +
               R"(", "default": "00", "base": true}, {"name": "b", "type": ")" + below +
               R"(", "default": "00", "base": true}]})";
    }
    const std::string v = made_virtual ? R"(, "virtual": true)" : "";
    types += R"(, "X": {"kind": "struct", "fields": [{"name": "x", "type": "i32", "default": "00"}]})";
    types += R"(, "R": {"kind": "struct", "fields": [{"name": "x", "type": "X", "default": "00", "base": true)" + v +
             R"(}, {"name": "c", "type": "B)" + std::to_string(levels) + R"(", "default": "00", "base": true}]})";
    return R"({"bifrons_schema": 1, "format": 1, "root": "R", "types": {)" + types + "}}";
  };
  const std::vector<finding> found = check(load_schema_text(schema_text(40, false)),
                                           load_schema_text(schema_text(40, true)));
  ASSERT_EQ(found.size(), 1u) << joined(found);
  EXPECT_EQ(found[0].rule, "virtual-base");
  EXPECT_EQ(worst(found), verdict::compatible);  // X is met once: no diamond
}

TEST(Checker, DeepChainsStillReportTheirDifferencesOnce) {
  // The leaf of 60 levels of two fields each widened: one finding, at the first path reaching it.
  const schema before = load_schema_text(chain(60, {"P", "P"}, "i32"));
  const schema after = load_schema_text(chain(60, {"P", "P"}, "i64"));
  const std::vector<finding> found = check(before, after);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "widen-integer");
  std::string path = "S60";
  for (int i = 0; i < 60; ++i) path += ".f0";
  EXPECT_EQ(found[0].path, path + ".x");
  // A field inserted in the middle, deep down: found as an insertion, not as changes of type.
  std::string inserted = chain(30, {"P", "i32"});
  const std::string s0 = R"({"name": "x", "type": "i32", "default": "00"})";
  inserted.replace(inserted.find(s0), s0.size(),
                   R"({"name": "w", "type": "f64", "default": "0000000000000000"}, )" + s0);
  // (x became the second field of S0: its old readers read w's bytes as x.)
  const std::vector<finding> shifted = check(load_schema_text(chain(30, {"P", "i32"})), load_schema_text(inserted));
  ASSERT_FALSE(shifted.empty());
  EXPECT_EQ(worst(shifted), verdict::breaking);
}

TEST(Checker, NamedTypesNestedBeyondTheLimitEndTheCheckWithAnError) {
  // 300 distinct structs, each holding the next: the checker's recursion stops at 256.
  const schema s = load_schema_text(chain(300, {"P"}));
  EXPECT_THROW(check(s, s), schema_error);
  const schema within = load_schema_text(chain(200, {"P"}));
  EXPECT_EQ(joined(check(within, within)), "");
  // 255 structs, each holding the next inside an optional nested 62 deep: the recursion, 16,000
  // levels deep, ran out of stack (a crash). It stops at 512 levels.
  std::string deep = chain(255, {"P"});
  for (int k = 255; k >= 1; --k) {
    const std::string from = R"("type": "S)" + std::to_string(k - 1) + R"(")";
    std::string wrapped = R"("S)" + std::to_string(k - 1) + R"(")";
    for (int i = 0; i < 62; ++i) wrapped = R"({"kind": "optional", "of": )" + wrapped + "}";
    deep.replace(deep.find(from), from.size(), R"("type": )" + wrapped);
  }
  const schema nested = load_schema_text(deep);
  EXPECT_THROW(check(nested, nested), schema_error);
}

}  // namespace
