// User classes (detail/hooks.hpp, detail/reflection.hpp, detail/struct_codec.hpp, access.hpp): aggregates by
// reflection, member and free serialize, save/load, class versions, base<Base>, deprecated<T>, and the struct
// envelope varint((body_length << 1) | has_version) [varint(version)] fields; private hooks through
// bifrons::access, load_and_construct, minimal types, refusing newer versions, what hooks throw, and the hooks
// of a type one cannot edit.
#include <bifrons/core.hpp>
#include <bifrons/pointers.hpp>
#include <bifrons/types/memory.hpp>
#include <bifrons/types/optional.hpp>
#include <bifrons/types/variant.hpp>

#include <array>
#include <bitset>
#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "types/test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

// ---- aggregates --------------------------------------------------------------------------------------

struct Empty {
  friend bool operator==(const Empty&, const Empty&) = default;
};

struct Two {
  int x = 0;
  std::string s;
  friend bool operator==(const Two&, const Two&) = default;
};

struct WithDefaults {
  int a = 5;
  std::string s = "d";
  std::vector<int> v = {1, 2};
  std::optional<double> o = 0.5;
  friend bool operator==(const WithDefaults&, const WithDefaults&) = default;
};

struct Inner {
  int a = 0;
  int b = 0;
  friend bool operator==(const Inner&, const Inner&) = default;
};
struct Outer {
  Inner inner;
  int z = 0;
  std::vector<Inner> more;
  friend bool operator==(const Outer&, const Outer&) = default;
};

TEST(Aggregate, EnvelopeBytes) {
  EXPECT_EQ(hex_of(Empty{}), "00");
  // body: zigzag(1) = 02, "ab" = 02 61 62 -> 4 bytes, header 4 << 1 = 08.
  EXPECT_EQ(hex_of(Two{1, "ab"}), "08 02 02 61 62");
  // Inner{1, 2} = 04 02 04; Outer body = 3 + 06 + 00 = 5 bytes -> header 0a.
  EXPECT_EQ(hex_of(Outer{{1, 2}, 3, {}}), "0a 04 02 04 06 00");
  EXPECT_EQ(hex_of(WithDefaults{}), "2a 0a 01 64 02 01 00 00 00 02 00 00 00 01 00 00 00 00 00 00 e0 3f");
}

TEST(Aggregate, RoundTrips) {
  EXPECT_EQ(round_trip(Empty{}), Empty{});
  EXPECT_EQ(round_trip(Two{-7, "seven"}), (Two{-7, "seven"}));
  const Outer o{{1, -2}, 3, {{4, 5}, {}, {-6, 7}}};
  EXPECT_EQ(round_trip(o), o);
  const WithDefaults w{-1, "", {}, std::nullopt};
  EXPECT_EQ(round_trip(w), w);
  const std::map<std::string, std::vector<Outer>> nested{{"k", {o, Outer{}}}};
  EXPECT_EQ(round_trip(nested), nested);
}

TEST(Aggregate, MissingFieldsKeepTheirDefaultMemberInitializers) {
  // An empty envelope: every field missing.
  EXPECT_EQ(bifrons::from_bytes<WithDefaults>(B({0x00})), WithDefaults{});
  // Only `a` present.
  WithDefaults expected;
  expected.a = 1;
  EXPECT_EQ(bifrons::from_bytes<WithDefaults>(B({0x02, 0x02})), expected);
  // Read into an existing object with other values: the missing fields are reset.
  WithDefaults existing{9, "stale", {9}, 9.0};
  bifrons::from_bytes(B({0x02, 0x02}), existing);
  EXPECT_EQ(existing, expected);
}

struct Many {
  std::int8_t a0 = 0;
  std::uint8_t a1 = 0;
  std::int16_t a2 = 0;
  std::uint16_t a3 = 0;
  std::int32_t a4 = 0;
  std::uint32_t a5 = 0;
  std::int64_t a6 = 0;
  std::uint64_t a7 = 0;
  bool a8 = false;
  char a9 = 0;
  float a10 = 0;
  double a11 = 0;
  std::string a12;
  std::vector<int> a13;
  std::optional<std::string> a14;
  std::variant<int, std::string> a15;
  std::complex<double> a16;
  std::bitset<5> a17;
  std::array<int, 2> a18{};
  std::pair<int, std::string> a19;
  Inner a20;
  std::map<int, int> a21;
  friend bool operator==(const Many&, const Many&) = default;
};

TEST(Aggregate, ManyMembersOfManyKinds) {
  const Many m{-1,          2,       -3,     4,        -5,     6,       -7,  8,
               true,        'c',     1.5f,   -2.5,     "s",    {1, 2},  "o", std::string("v"),
               {1.0, -1.0}, 0b10101, {3, 4}, {5, "p"}, {6, 7}, {{8, 9}}};
  EXPECT_EQ(round_trip(m), m);
  EXPECT_EQ(round_trip(Many{}), Many{});
}

struct WithCArrays {
  int numbers[3] = {};
  char tag[2] = {};
  std::string names[2];
};

TEST(Aggregate, CArrayMembersByReflection) {
  const WithCArrays w{{1, -1, 2}, {'a', 'b'}, {"x", ""}};
  // body: 01 00 00 00 ff ff ff ff 02 00 00 00 | 61 62 | 01 78 00 -> 17 bytes, header 22.
  EXPECT_EQ(hex_of(w), "22 01 00 00 00 ff ff ff ff 02 00 00 00 61 62 01 78 00");
  const WithCArrays back = round_trip(w);
  EXPECT_EQ(back.numbers[1], -1);
  EXPECT_EQ(back.tag[1], 'b');
  EXPECT_EQ(back.names[0], "x");
}

struct MoveOnlyMembers {
  std::unique_ptr<int> p;
  std::vector<std::unique_ptr<std::string>> v;
};

TEST(Aggregate, MoveOnlyMembers) {
  MoveOnlyMembers m;
  m.p = std::make_unique<int>(4);
  m.v.push_back(std::make_unique<std::string>("z"));
  const MoveOnlyMembers back = round_trip(m);
  ASSERT_TRUE(back.p && back.v.size() == 1 && back.v[0]);
  EXPECT_EQ(*back.p, 4);
  EXPECT_EQ(*back.v[0], "z");
}

// ---- member serialize, free serialize, save/load ------------------------------------------------------

class Account {
 public:
  Account() = default;
  Account(int id, std::string name) : id_(id), name_(std::move(name)) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id_, name_);
  }
  friend bool operator==(const Account&, const Account&) = default;

 private:
  int id_ = 0;
  std::string name_;
};

namespace lib {
class Temperature {
 public:
  Temperature() = default;
  explicit Temperature(double c) : celsius_(c) {}
  double celsius() const { return celsius_; }
  double& celsius_ref() { return celsius_; }

 private:
  double celsius_ = 0;
};
template <class Archive>
void serialize(Archive& ar, Temperature& t) {
  ar(t.celsius_ref());
}

/// Free save/load: keeps the sum of its values in step on load.
class Totals {
 public:
  Totals() = default;
  explicit Totals(std::vector<int> v) : values(std::move(v)), sum(std::accumulate(values.begin(), values.end(), 0)) {}
  std::vector<int> values;
  int sum = 0;  // derived, not serialized
};
template <class Archive>
void save(Archive& ar, const Totals& t) {
  ar(t.values);
}
template <class Archive>
void load(Archive& ar, Totals& t) {
  ar(t.values);
  t.sum = std::accumulate(t.values.begin(), t.values.end(), 0);
}
}  // namespace lib

/// Member save/load that checks an invariant on load.
class Range {
 public:
  Range() = default;
  Range(int lo, int hi) : lo_(lo), hi_(hi) {}
  template <class Archive>
  void save(Archive& ar) const {
    ar(lo_, hi_ - lo_);  // stores the length rather than the end
  }
  template <class Archive>
  void load(Archive& ar) {
    int length = 0;
    ar(lo_, length);
    if (length < 0) throw bifrons::error(errc::invalid_value, 0);
    hi_ = lo_ + length;
  }
  int lo() const { return lo_; }
  int hi() const { return hi_; }

 private:
  int lo_ = 0, hi_ = 0;
};

TEST(Hooks, MemberSerializeHasTheAggregateBytes) {
  EXPECT_EQ(bifrons::to_bytes(Account{1, "ab"}), bifrons::to_bytes(Two{1, "ab"}));
  EXPECT_EQ(round_trip(Account{-5, "name"}), (Account{-5, "name"}));
}

TEST(Hooks, FreeSerializeFoundByAdl) {
  EXPECT_EQ(hex_of(lib::Temperature{1.0}), "10 00 00 00 00 00 00 f0 3f");
  EXPECT_EQ(round_trip(lib::Temperature{-40.5}).celsius(), -40.5);
}

TEST(Hooks, FreeSaveLoad) {
  const lib::Totals t({1, 2, 3});
  EXPECT_EQ(hex_of(t), "1a 03 01 00 00 00 02 00 00 00 03 00 00 00");
  const lib::Totals back = round_trip(t);
  EXPECT_EQ(back.values, t.values);
  EXPECT_EQ(back.sum, 6);
}

TEST(Hooks, MemberSaveLoad) {
  // body: zigzag(10) = 14, zigzag(5) = 0a -> header 04.
  EXPECT_EQ(hex_of(Range{10, 15}), "04 14 0a");
  const Range back = round_trip(Range{-3, 7});
  EXPECT_EQ(back.lo(), -3);
  EXPECT_EQ(back.hi(), 7);
  auto bad = bifrons::try_from_bytes<Range>(B({0x04, 0x14, 0x01}));  // length -1
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.code(), errc::invalid_value);
}

// ---- is_loading / is_saving ---------------------------------------------------------------------------

struct Observer {
  int value = 0;
  inline static int saving_calls = 0;
  inline static int loading_calls = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    static_assert(Archive::is_loading != Archive::is_saving);
    constexpr bool loading = Archive::is_loading;  // usable in constant expressions
    if constexpr (loading)
      ++loading_calls;
    else
      ++saving_calls;
    ar(value);
  }
};

TEST(Hooks, ArchiveTellsLoadingFromSaving) {
  Observer::saving_calls = Observer::loading_calls = 0;
  const bytes b = bifrons::to_bytes(Observer{3});
  EXPECT_GE(Observer::saving_calls, 1);
  EXPECT_EQ(Observer::loading_calls, 0);
  const int saves = Observer::saving_calls;
  EXPECT_EQ(bifrons::from_bytes<Observer>(b).value, 3);
  EXPECT_EQ(Observer::loading_calls, 1);
  EXPECT_EQ(Observer::saving_calls, saves);
  (void)bifrons::serialized_size(Observer{});
  EXPECT_EQ(Observer::saving_calls, saves + 1);
}

// ---- a hook reports a domain error ------------------------------------------------------------------

/// A bounded inventory: the count may not exceed the capacity.
class Inventory {
 public:
  template <class Archive>
  void serialize(Archive& ar) {
    ar(capacity_, count_);
    if constexpr (Archive::is_loading) {
      if (count_ > capacity_) ar.fail(errc::invalid_value);
    }
    ar(tail_);
  }
  int capacity_ = 0;
  int count_ = 0;
  int tail_ = 7;
};

TEST(Hooks, FailReportsADomainErrorAtTheCurrentByte) {
  Inventory ok;
  ok.capacity_ = 4;
  ok.count_ = 3;
  ok.tail_ = 9;
  EXPECT_EQ(round_trip(ok).tail_, 9);

  Inventory bad = ok;
  bad.count_ = 5;
  const bytes b = bifrons::to_bytes(bad);  // 06 08 0a 12: header, capacity, count, tail
  ASSERT_EQ(b.size(), 4u);
  const auto r = bifrons::try_from_bytes<Inventory>(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::invalid_value);
  EXPECT_EQ(r.offset(), 3u);  // after the count, where the hook noticed
  try {
    (void)bifrons::from_bytes<Inventory>(b);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_value);
    EXPECT_EQ(e.offset(), 3u);
  }
}

// ---- class versions ------------------------------------------------------------------------------------

/// Three releases of one class: V1 has `a`; V2 adds `b`, written only from version 2 on.
template <std::uint32_t V>
struct Doc {
  static constexpr std::uint32_t bifrons_version = V;
  int a = 0;
  std::string b = "default-b";
  std::uint32_t seen = 999;  // the version the last load saw; not serialized
  template <class Archive>
  void serialize(Archive& ar, std::uint32_t version) {
    if constexpr (Archive::is_loading)
      seen = version;
    else
      EXPECT_EQ(version, V);  // writing: the class's own version
    ar(a);
    if (version >= 2) ar(b);
  }
};

/// No version at all.
struct Unversioned {
  int a = 0;
};

TEST(Versions, VersionTravelsInTheEnvelope) {
  // body: version 01, a = zigzag(5) = 0a -> 2 bytes, header (2 << 1) | 1 = 05.
  EXPECT_EQ(hex_of(Doc<1>{5}), "05 01 0a");
  // body: 02 0a 01 78 -> 4 bytes, header 09.
  EXPECT_EQ(hex_of(Doc<2>{5, "x"}), "09 02 0a 01 78");
  // Version 0 is still written when declared.
  EXPECT_EQ(hex_of(Doc<0>{5}), "05 00 0a");
}

TEST(Versions, HookSeesTheVersionOfTheData) {
  const Doc<2> from_old = bifrons::from_bytes<Doc<2>>(bifrons::to_bytes(Doc<1>{5}));
  EXPECT_EQ(from_old.seen, 1u);
  EXPECT_EQ(from_old.a, 5);
  EXPECT_EQ(from_old.b, "default-b");

  const Doc<2> current = bifrons::from_bytes<Doc<2>>(bifrons::to_bytes(Doc<2>{6, "x"}));
  EXPECT_EQ(current.seen, 2u);
  EXPECT_EQ(current.b, "x");

  const Doc<2> unversioned = bifrons::from_bytes<Doc<2>>(bifrons::to_bytes(Unversioned{7}));
  EXPECT_EQ(unversioned.seen, 0u);
  EXPECT_EQ(unversioned.a, 7);

  // A reader without a version ignores the one in the data, and skips the fields it lacks.
  EXPECT_EQ(bifrons::from_bytes<Unversioned>(bifrons::to_bytes(Doc<2>{8, "x"})).a, 8);
  // A newer writer's data read by an older version of the class.
  const Doc<3> newer{9, "y"};
  const Doc<2> older = bifrons::from_bytes<Doc<2>>(bifrons::to_bytes(newer));
  EXPECT_EQ(older.seen, 3u);
  EXPECT_EQ(older.b, "y");
}

TEST(Versions, OlderVersionReadIntoExistingObjectResetsWhatItLacks) {
  Doc<2> existing{1, "stale"};
  bifrons::from_bytes(bifrons::to_bytes(Doc<1>{5}), existing);
  EXPECT_EQ(existing.a, 5);
  EXPECT_EQ(existing.b, "default-b");
  EXPECT_EQ(existing.seen, 1u);
}

TEST(Versions, VersionMustFitThirtyTwoBits) {
  // body: varint(2^32) = 80 80 80 80 10, a = 0a -> 6 bytes, header (6 << 1) | 1 = 0d.
  EXPECT_TRUE(fails_with<Doc<2>>(B({0x0d, 0x80, 0x80, 0x80, 0x80, 0x10, 0x0a}), errc::value_out_of_range, 1));
  auto max_version = bifrons::try_from_bytes<Doc<2>>(B({0x0d, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a}));
  ASSERT_TRUE(max_version);
  EXPECT_EQ(max_version->seen, 0xffffffffu);
  EXPECT_EQ(max_version->a, 5);
}

/// Versioned member save/load.
struct Gauge {
  static constexpr std::uint32_t bifrons_version = 2;
  double value = 0;
  std::uint32_t loaded_version = 999;
  template <class Archive>
  void save(Archive& ar, std::uint32_t version) const {
    EXPECT_EQ(version, 2u);
    ar(value);
  }
  template <class Archive>
  void load(Archive& ar, std::uint32_t version) {
    loaded_version = version;
    ar(value);
  }
};

namespace lib {
/// Versioned free save/load and free serialize.
struct Money {
  static constexpr std::uint32_t bifrons_version = 4;
  std::int64_t cents = 0;
  std::uint32_t loaded_version = 999;
};
template <class Archive>
void save(Archive& ar, const Money& m, std::uint32_t version) {
  EXPECT_EQ(version, 4u);
  ar(m.cents);
}
template <class Archive>
void load(Archive& ar, Money& m, std::uint32_t version) {
  m.loaded_version = version;
  ar(m.cents);
}

struct Point3 {
  static constexpr std::uint32_t bifrons_version = 7;
  int x = 0, y = 0, z = 0;
  std::uint32_t loaded_version = 999;
};
template <class Archive>
void serialize(Archive& ar, Point3& p, std::uint32_t version) {
  if constexpr (Archive::is_loading) p.loaded_version = version;
  ar(p.x, p.y, p.z);
}
}  // namespace lib

TEST(Versions, VersionedSaveLoadAndFreeHooks) {
  EXPECT_EQ(hex_of(Gauge{1.0}), "13 02 00 00 00 00 00 00 f0 3f");
  const Gauge g = round_trip(Gauge{2.5});
  EXPECT_EQ(g.value, 2.5);
  EXPECT_EQ(g.loaded_version, 2u);

  EXPECT_EQ(hex_of(lib::Money{-1}), "05 04 01");
  const lib::Money m = round_trip(lib::Money{-12345});
  EXPECT_EQ(m.cents, -12345);
  EXPECT_EQ(m.loaded_version, 4u);

  EXPECT_EQ(hex_of(lib::Point3{1, 2, 3}), "09 07 02 04 06");
  const lib::Point3 p = round_trip(lib::Point3{-1, 0, 1});
  EXPECT_EQ(p.x, -1);
  EXPECT_EQ(p.z, 1);
  EXPECT_EQ(p.loaded_version, 7u);
}

// ---- base<Base> --------------------------------------------------------------------------------------------

struct Shape {
  int id = 0;  // an aggregate base: serialized by reflection inside its own envelope
};

class Circle : public Shape {
 public:
  Circle() = default;
  Circle(int id, int r) : Shape{id}, radius(r) {}
  int radius = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Shape>(*this), radius);
  }
};

TEST(Base, IsANestedEnvelope) {
  // Shape{1} = 02 02; radius zigzag(2) = 04 -> body 3 bytes, header 06.
  EXPECT_EQ(hex_of(Circle{1, 2}), "06 02 02 04");
  const Circle c = round_trip(Circle{-9, 40});
  EXPECT_EQ(c.id, -9);
  EXPECT_EQ(c.radius, 40);
}

/// The base grew a field: a Circle written with the old base still reads, and vice versa.
struct ShapeV2 {
  int id = 0;
  std::string label = "none";
};
struct CircleV2 : ShapeV2 {
  int radius = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<ShapeV2>(*this), radius);
  }
};

TEST(Base, BaseCanGrowIndependently) {
  const CircleV2 from_old = bifrons::from_bytes<CircleV2>(bifrons::to_bytes(Circle{3, 4}));
  EXPECT_EQ(from_old.id, 3);
  EXPECT_EQ(from_old.label, "none");
  EXPECT_EQ(from_old.radius, 4);
  CircleV2 newer;
  newer.id = 5;
  newer.label = "big";
  newer.radius = 6;
  const Circle from_new = bifrons::from_bytes<Circle>(bifrons::to_bytes(newer));
  EXPECT_EQ(from_new.id, 5);
  EXPECT_EQ(from_new.radius, 6);
}

struct Named {
  std::string name;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(name);
  }
};
struct Tagged {
  std::vector<std::string> tags;
};

/// Two bases, saved through save() const (base<> of a const object) and loaded through load().
class Item : public Named, public Tagged {
 public:
  int count = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(bifrons::base<Named>(*this), bifrons::base<Tagged>(*this), count);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(bifrons::base<Named>(*this), bifrons::base<Tagged>(*this), count);
  }
};

TEST(Base, MultipleBases) {
  Item item;
  item.name = "n";
  item.tags = {"a"};
  item.count = 1;
  // Named: 04 01 6e; Tagged: 06 01 01 61; count: 02 -> body 8 bytes, header 10.
  EXPECT_EQ(hex_of(item), "10 04 01 6e 06 01 01 61 02");
  const Item back = round_trip(item);
  EXPECT_EQ(back.name, "n");
  EXPECT_EQ(back.tags, (std::vector<std::string>{"a"}));
  EXPECT_EQ(back.count, 1);
}

// ---- evolution through envelopes -----------------------------------------------------------------------

struct RecordV1 {
  int id = 0;
  std::string name;
};
struct RecordV2 {
  int id = 0;
  std::string name;
  std::vector<int> scores = {100};
  std::optional<std::string> note;
};

TEST(Evolution, OldReaderSkipsNewFieldsNewReaderDefaultsMissingOnes) {
  const std::vector<RecordV2> written{{1, "a", {1, 2}, "n"}, {2, "b", {}, std::nullopt}};
  const auto old_read = bifrons::from_bytes<std::vector<RecordV1>>(bifrons::to_bytes(written));
  ASSERT_EQ(old_read.size(), 2u);
  EXPECT_EQ(old_read[1].id, 2);
  EXPECT_EQ(old_read[1].name, "b");

  const auto new_read = bifrons::from_bytes<std::vector<RecordV2>>(bifrons::to_bytes(std::vector<RecordV1>{{3, "c"}}));
  ASSERT_EQ(new_read.size(), 1u);
  EXPECT_EQ(new_read[0].id, 3);
  EXPECT_EQ(new_read[0].scores, (std::vector<int>{100}));
  EXPECT_FALSE(new_read[0].note.has_value());
}

TEST(Evolution, EnvelopeErrors) {
  // The header promises 4 bytes, 2 follow: reported where the input ends.
  EXPECT_TRUE(fails_with<Two>(B({0x08, 0x02, 0x00}), errc::unexpected_end, 3, 2));
  // A field that starts inside the body must end inside it: the string's count says 2, the body has 1 more byte.
  EXPECT_TRUE(fails_with<Two>(B({0x06, 0x02, 0x02, 0x61, 0x62}), errc::count_exceeds_input, 2, 1));
  // A malformed header.
  EXPECT_TRUE(fails_with<Two>(B({0x80, 0x00}), errc::malformed_varint, 0));
}

// ---- deprecated<T> ------------------------------------------------------------------------------------------

struct Retired {
  int keep = 0;
  bifrons::deprecated<std::string> old_name;
  bifrons::deprecated<Inner> old_struct;
  bifrons::deprecated<double> old_ratio;
  int also_keep = 0;
};

struct BeforeRetirement {
  int keep = 0;
  std::string old_name;
  Inner old_struct;
  double old_ratio = 0;
  int also_keep = 0;
};

TEST(Deprecated, WritesDefaultsAndDiscardsWhatItReads) {
  // keep 02 | "" 00 | empty envelope 00 | 0.0 as 8 bytes | also_keep 04 -> 12 bytes, header 18.
  EXPECT_EQ(hex_of(Retired{1, {}, {}, {}, 2}), "18 02 00 00 00 00 00 00 00 00 00 00 04");
  const Retired r = bifrons::from_bytes<Retired>(bifrons::to_bytes(BeforeRetirement{1, "gone", {3, 4}, 0.5, 2}));
  EXPECT_EQ(r.keep, 1);
  EXPECT_EQ(r.also_keep, 2);
  const BeforeRetirement b = bifrons::from_bytes<BeforeRetirement>(bifrons::to_bytes(Retired{7, {}, {}, {}, 8}));
  EXPECT_EQ(b.keep, 7);
  EXPECT_EQ(b.old_name, "");
  EXPECT_EQ(b.old_struct, Inner{});
  EXPECT_EQ(b.also_keep, 8);
}

TEST(Deprecated, DiscardedValuesAreStillChecked) {
  // A deprecated bool field still refuses a byte other than 0/1.
  struct WithOldFlag {
    bifrons::deprecated<bool> flag;
  };
  EXPECT_TRUE(fails_with<WithOldFlag>(B({0x02, 0x02}), errc::invalid_value, 1));
}

// ---- bifrons::named: a field's name for the schema, nothing on the wire --------------------------

class NamedFields {
 public:
  NamedFields() = default;
  NamedFields(std::int32_t id, std::uint32_t hash, double ratio, std::string note)
      : id_(id), hash_(hash), ratio_(ratio), note_(std::move(note)) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("id", id_), bifrons::named("hash", bifrons::fixed(hash_)), bifrons::named("ratio", ratio_),
       bifrons::named("note", note_));
  }
  bool operator==(const NamedFields&) const = default;

 private:
  std::int32_t id_ = 0;
  std::uint32_t hash_ = 0;
  double ratio_ = 0;
  std::string note_;
};

TEST(Named, SameBytesAsTheBareFieldsAndMissingFieldsKeepDefaults) {
  // id zz(-2) = 03 | hash fixed LE32 | ratio 0.5 LE64 | note "x": body of 15 bytes.
  const NamedFields value{-2, 0x0a0b0c0d, 0.5, "x"};
  EXPECT_EQ(hex_of(value), "1e 03 0d 0c 0b 0a 00 00 00 00 00 00 e0 3f 01 78");
  EXPECT_EQ(bifrons::from_bytes<NamedFields>(bifrons::to_bytes(value)), value);
  EXPECT_EQ(bifrons::serialized_size(value), 16u);
  // A body that ends after the fixed-width hash: ratio and note are missing (the fixed-width
  // read path of a named double sees the end of the body).
  EXPECT_EQ(bifrons::from_bytes<NamedFields>(B({0x0a, 0x03, 0x0d, 0x0c, 0x0b, 0x0a})),
            (NamedFields{-2, 0x0a0b0c0d, 0, ""}));
  // The named fixed field is still checked: 3 of its 4 bytes are in the body.
  EXPECT_TRUE(fails_with<NamedFields>(B({0x08, 0x03, 0x0d, 0x0c, 0x0b}), errc::unexpected_end, 5, 1));
}

// ---- private hooks: friend bifrons::access --------------------------------------------------------------

/// Everything private: the default constructor, the version and a versioned serialize hook.
class Secret {
 public:
  explicit Secret(int id) : id_(id) {}
  int id() const { return id_; }
  std::uint32_t seen() const { return seen_; }

 private:
  friend bifrons::access;
  Secret() = default;
  static constexpr std::uint32_t bifrons_version = 3;
  template <class Archive>
  void serialize(Archive& ar, std::uint32_t version) {
    ar(id_);
    if constexpr (Archive::is_loading) seen_ = version;
  }
  int id_ = 0;
  std::uint32_t seen_ = 0;
};

/// Private save/load, unversioned, and a private refusal of newer versions.
class SecretPair {
 public:
  SecretPair() = default;
  SecretPair(int a, int b) : a_(a), b_(b) {}
  int a() const { return a_; }
  int b() const { return b_; }

 private:
  friend bifrons::access;
  static constexpr std::uint32_t bifrons_version = 1;
  static constexpr bool bifrons_refuse_newer = true;
  template <class Archive>
  void save(Archive& ar) const {
    ar(a_, b_);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(a_, b_);
  }
  int a_ = 0, b_ = 0;
};

/// Private save and load_and_construct, no default constructor at all.
class SecretMade {
 public:
  int value() const { return value_; }
  static SecretMade make(int v) { return SecretMade(v); }

 private:
  friend bifrons::access;
  explicit SecretMade(int v) : value_(v) {}
  template <class Archive>
  void save(Archive& ar) const {
    ar(value_);
  }
  template <class Archive>
  static SecretMade load_and_construct(Archive& ar) {
    int v = 0;
    ar(v);
    return SecretMade(v);
  }
  int value_;
};

/// Private minimal hooks.
class SecretCode {
 public:
  SecretCode() = default;
  explicit SecretCode(std::uint16_t c) : code_(c) {}
  std::uint16_t code() const { return code_; }

 private:
  friend bifrons::access;
  template <class Archive>
  std::uint16_t save_minimal(const Archive&) const {
    return code_;
  }
  template <class Archive>
  void load_minimal(const Archive&, const std::uint16_t& c) {
    code_ = c;
  }
  std::uint16_t code_ = 0;
};

/// The versioned forms, private: serialize(ar) unversioned, save/load and load_and_construct
/// with versions.
class SecretPlain {
 public:
  explicit SecretPlain(int v) : v_(v) {}
  int value() const { return v_; }

 private:
  friend bifrons::access;
  SecretPlain() = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(v_);
  }
  int v_ = 0;
};
class SecretVersioned {
 public:
  int value() const { return v_; }
  std::uint32_t made_from() const { return made_from_; }
  static SecretVersioned make(int v) { return SecretVersioned(v, 0); }

 private:
  friend bifrons::access;
  SecretVersioned(int v, std::uint32_t from) : v_(v), made_from_(from) {}
  static constexpr std::uint32_t bifrons_version = 5;
  template <class Archive>
  void save(Archive& ar, std::uint32_t version) const {
    ar(v_, version);
  }
  template <class Archive>
  void load(Archive& ar, std::uint32_t version) {
    std::uint32_t written_as = 0;
    ar(v_, written_as);
    made_from_ = version;
  }
  template <class Archive>
  static SecretVersioned load_and_construct(Archive& ar, std::uint32_t version) {
    int v = 0;
    ar(v);
    return SecretVersioned(v, version);
  }
  int v_;
  std::uint32_t made_from_;
};

TEST(Access, VersionedAndUnversionedPrivateHooks) {
  EXPECT_EQ(hex_of(SecretPlain(3)), "02 06");
  EXPECT_EQ(bifrons::from_bytes<std::vector<SecretPlain>>(B({0x01, 0x02, 0x06}))[0].value(), 3);
  // version 05, v zigzag(-1) = 01, the version it saved with 05 -> body 3 bytes, header 07.
  EXPECT_EQ(hex_of(SecretVersioned::make(-1)), "07 05 01 05");
  const auto made = bifrons::from_bytes<SecretVersioned>(B({0x07, 0x04, 0x01, 0x05}));
  EXPECT_EQ(made.value(), -1);
  EXPECT_EQ(made.made_from(), 4u);  // load_and_construct saw the data's version
  auto existing = SecretVersioned::make(9);
  bifrons::from_bytes(B({0x07, 0x03, 0x02, 0x05}), existing);  // the private load, in place
  EXPECT_EQ(existing.value(), 1);
  EXPECT_EQ(existing.made_from(), 3u);
}

TEST(Access, EveryHookStyleMayBePrivate) {
  // version 03, id zigzag(5) = 0a -> body 2 bytes, header (2 << 1) | 1 = 05.
  EXPECT_EQ(hex_of(Secret(5)), "05 03 0a");
  const Secret s = bifrons::from_bytes<Secret>(B({0x05, 0x03, 0x0a}));  // the private default constructor
  EXPECT_EQ(s.id(), 5);
  EXPECT_EQ(s.seen(), 3u);

  // version 01, a = 02, b = 01 -> body 3 bytes, header (3 << 1) | 1 = 07.
  EXPECT_EQ(hex_of(SecretPair(1, -1)), "07 01 02 01");
  const SecretPair p = bifrons::from_bytes<SecretPair>(B({0x07, 0x01, 0x02, 0x01}));
  EXPECT_EQ(p.a(), 1);
  EXPECT_EQ(p.b(), -1);
  // The private bifrons_refuse_newer: version 2 data.
  EXPECT_TRUE(fails_with<SecretPair>(B({0x07, 0x02, 0x02, 0x01}), errc::newer_version, 0));

  EXPECT_EQ(hex_of(SecretMade::make(-2)), "02 03");
  EXPECT_EQ(bifrons::from_bytes<SecretMade>(B({0x02, 0x03})).value(), -2);

  EXPECT_EQ(hex_of(SecretCode(300)), "ac 02");  // the bytes of its uint16_t
  EXPECT_EQ(bifrons::from_bytes<SecretCode>(B({0xac, 0x02})).code(), 300);
}

TEST(Access, PrivateDefaultConstructorsInEveryPositionThatCreatesObjects) {
  const std::vector<Secret> v = bifrons::from_bytes<std::vector<Secret>>(B({0x02, 0x05, 0x03, 0x02, 0x05, 0x03, 0x04}));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].id(), 1);
  EXPECT_EQ(v[1].id(), 2);
  const auto o = bifrons::from_bytes<std::optional<Secret>>(B({0x01, 0x05, 0x03, 0x06}));
  ASSERT_TRUE(o);
  EXPECT_EQ(o->id(), 3);
  const auto u = bifrons::from_bytes<std::unique_ptr<Secret>>(B({0x01, 0x05, 0x03, 0x08}));
  ASSERT_TRUE(u);
  EXPECT_EQ(u->id(), 4);
  const auto sp = bifrons::from_bytes<std::shared_ptr<Secret>>(B({0x01, 0x05, 0x03, 0x0a}));
  ASSERT_TRUE(sp);
  EXPECT_EQ(sp->id(), 5);
  const auto var = bifrons::from_bytes<std::variant<int, Secret>>(B({0x01, 0x05, 0x03, 0x0c}));
  ASSERT_EQ(var.index(), 1u);
  EXPECT_EQ(std::get<1>(var).id(), 6);
  const auto m = bifrons::from_bytes<std::map<int, Secret>>(B({0x01, 0x02, 0x05, 0x03, 0x0e}));
  EXPECT_EQ(m.at(1).id(), 7);
}

// ---- load_and_construct ------------------------------------------------------------------------------------

/// No default constructor: a sensor always has a positive rate.
class Sensor {
 public:
  Sensor(std::string name, int rate) : name_(std::move(name)), rate_(rate) {
    if (rate <= 0) throw std::invalid_argument("rate must be positive");
  }
  const std::string& name() const { return name_; }
  int rate() const { return rate_; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(name_, rate_);
  }
  /// Fields the data lacks (an older writer's) keep the locals' values.
  template <class Archive>
  static Sensor load_and_construct(Archive& ar) {
    std::string name;
    int rate = 1;
    ar(name, rate);
    return Sensor(std::move(name), rate);
  }
  friend bool operator==(const Sensor&, const Sensor&) = default;

 private:
  std::string name_;
  int rate_;
};

/// Versioned, and readable into an existing object by its load hook.
class Gauge2 {
 public:
  explicit Gauge2(double v) : value_(v) {}
  static constexpr std::uint32_t bifrons_version = 2;
  double value() const { return value_; }
  std::uint32_t made_from() const { return made_from_; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value_);
  }
  template <class Archive>
  static Gauge2 load_and_construct(Archive& ar, std::uint32_t version) {
    double v = 0;
    ar(v);
    Gauge2 g(version < 2 ? v * 10 : v);  // version 1 stored tenths
    g.made_from_ = version;
    return g;
  }

 private:
  double value_;
  std::uint32_t made_from_ = 0;
};

TEST(LoadAndConstruct, SameBytesAsTheFieldsCreatesWithoutDefaultConstructor) {
  // name 02 61 62, rate zigzag(2) = 04 -> body 4 bytes, header 08.
  EXPECT_EQ(hex_of(Sensor("ab", 2)), "08 02 61 62 04");
  EXPECT_EQ(bifrons::from_bytes<Sensor>(B({0x08, 0x02, 0x61, 0x62, 0x04})), Sensor("ab", 2));
  // An older writer without the rate, and an empty envelope: the hook's locals keep their values.
  EXPECT_EQ(bifrons::from_bytes<Sensor>(B({0x06, 0x02, 0x61, 0x62})), Sensor("ab", 1));
  EXPECT_EQ(bifrons::from_bytes<Sensor>(B({0x00})), Sensor("", 1));
  // A newer writer's extra field is skipped.
  EXPECT_EQ(bifrons::from_bytes<Sensor>(B({0x0a, 0x02, 0x61, 0x62, 0x04, 0x7f})), Sensor("ab", 2));
  // Read into an existing object: a new one is assigned.
  Sensor existing("old", 9);
  bifrons::from_bytes(B({0x08, 0x02, 0x61, 0x62, 0x04}), existing);
  EXPECT_EQ(existing, Sensor("ab", 2));
}

/// Made by its hook, and not assignable (a const member): nothing can be read into one, so every
/// holder makes a new one (cereal's user_data_adapters, Boost's non_default_ctor2).
class Frozen {
 public:
  explicit Frozen(std::int32_t v) : v_(v) {}
  [[nodiscard]] std::int32_t v() const { return v_; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(v_);
  }
  template <class Archive>
  static Frozen load_and_construct(Archive& ar) {
    std::int32_t v = 0;
    ar(v);
    return Frozen(v);
  }

 private:
  const std::int32_t v_;
};
struct OwnsFrozen {
  Frozen* p = nullptr;
  OwnsFrozen() = default;
  OwnsFrozen(OwnsFrozen&& other) noexcept : p(std::exchange(other.p, nullptr)) {}
  OwnsFrozen& operator=(OwnsFrozen&&) = delete;
  ~OwnsFrozen() { delete p; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::owning(p));
  }
};

TEST(LoadAndConstruct, AClassThatCannotBeAssignedInEveryHolder) {
  static_assert(!std::is_copy_assignable_v<Frozen> && !std::is_move_assignable_v<Frozen>);
  const auto u = bifrons::from_bytes<std::unique_ptr<Frozen>>(bifrons::to_bytes(std::make_unique<Frozen>(4)));
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->v(), 4);
  const auto o = bifrons::from_bytes<std::optional<Frozen>>(bifrons::to_bytes(std::optional<Frozen>(Frozen(5))));
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(o->v(), 5);
  using Either = std::variant<std::int32_t, Frozen>;
  const auto v = bifrons::from_bytes<Either>(bifrons::to_bytes(Either(Frozen(6))));
  ASSERT_EQ(v.index(), 1u);
  EXPECT_EQ(std::get<1>(v).v(), 6);
  OwnsFrozen owner;
  owner.p = new Frozen(7);
  const auto back = bifrons::from_bytes<OwnsFrozen>(bifrons::to_bytes(owner));
  ASSERT_NE(back.p, nullptr);
  EXPECT_EQ(back.p->v(), 7);
  // Into holders that hold one already: a new object replaces it.
  std::unique_ptr<Frozen> existing = std::make_unique<Frozen>(1);
  bifrons::from_bytes(bifrons::to_bytes(std::make_unique<Frozen>(8)), existing);
  EXPECT_EQ(existing->v(), 8);
  std::optional<Frozen> held(Frozen(1));
  bifrons::from_bytes(bifrons::to_bytes(std::optional<Frozen>(Frozen(9))), held);
  EXPECT_EQ(held->v(), 9);
  OwnsFrozen reused;
  reused.p = new Frozen(1);
  bifrons::from_bytes(bifrons::to_bytes(owner), reused);
  EXPECT_EQ(reused.p->v(), 7);
}

TEST(LoadAndConstruct, TheHookSeesTheVersion) {
  // version 02, 1.5 as a double -> body 9 bytes, header (9 << 1) | 1 = 13.
  EXPECT_EQ(hex_of(Gauge2(1.5)), "13 02 00 00 00 00 00 00 f8 3f");
  const Gauge2 current = bifrons::from_bytes<Gauge2>(B({0x13, 0x02, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f}));
  EXPECT_EQ(current.value(), 1.5);
  EXPECT_EQ(current.made_from(), 2u);
  const Gauge2 old = bifrons::from_bytes<Gauge2>(B({0x13, 0x01, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f}));
  EXPECT_EQ(old.value(), 15.0);
  EXPECT_EQ(old.made_from(), 1u);
  // Into an existing object, its serialize hook reads in place.
  Gauge2 g(0);
  bifrons::from_bytes(B({0x13, 0x02, 0, 0, 0, 0, 0, 0, 0x04, 0x40}), g);
  EXPECT_EQ(g.value(), 2.5);
}

TEST(LoadAndConstruct, AConstructorThatThrowsIsAUserError) {
  // rate 0: the constructor refuses it.
  const bytes zero = B({0x08, 0x02, 0x61, 0x62, 0x00});
  const auto r = bifrons::try_from_bytes<Sensor>(zero);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::user_error);
  EXPECT_EQ(r.offset(), 0u);
  EXPECT_EQ(r.message(), "bifrons: exception thrown by user code at byte 0: rate must be positive");
  EXPECT_THROW((void)bifrons::from_bytes<Sensor>(zero), std::invalid_argument);  // passes through
  // The rate's varint is cut short: the hook sees rate 0 and the constructor throws, but the
  // read had failed first, and that failure is what both entry points report.
  EXPECT_TRUE(fails_with<Sensor>(B({0x0a, 0x02, 0x61, 0x62, 0x80, 0x80}), errc::unexpected_end, 6, 1));
}

// ---- minimal types ------------------------------------------------------------------------------------

/// A strong typedef with an invariant, written as its number; no default constructor, so it is
/// made from its value by its constructor.
class UserId {
 public:
  explicit UserId(std::uint64_t v) : v_(v) {
    if (v == 0) throw std::invalid_argument("0 is not a user id");
  }
  std::uint64_t value() const { return v_; }
  template <class Archive>
  std::uint64_t save_minimal(const Archive&) const {
    return v_;
  }
  friend bool operator==(const UserId&, const UserId&) = default;

 private:
  std::uint64_t v_;
};

/// A label that may not be empty, written as its string; checked by load_minimal.
struct Label {
  std::string text;
  template <class Archive>
  std::string save_minimal(const Archive&) const {
    return text;
  }
  template <class Archive>
  void load_minimal(const Archive& ar, const std::string& value) {
    if (value.empty()) ar.fail(errc::invalid_value);
    text = value;
  }
  friend bool operator==(const Label&, const Label&) = default;
};

struct Labelled {
  Label label;
  std::uint32_t n = 0;
  friend bool operator==(const Labelled&, const Labelled&) = default;
};

TEST(Minimal, TheBytesOfTheValueAndNothingElse) {
  EXPECT_EQ(hex_of(UserId(300)), hex_of(std::uint64_t{300}));
  EXPECT_EQ(hex_of(UserId(300)), "ac 02");
  EXPECT_EQ(bifrons::from_bytes<UserId>(B({0xac, 0x02})), UserId(300));
  EXPECT_EQ(hex_of(Label{"ab"}), "02 61 62");
  // In a struct: the same bytes as a struct of a string and an integer.
  EXPECT_EQ(hex_of(Labelled{{"ab"}, 1}), "08 02 61 62 01");
  EXPECT_EQ(round_trip(Labelled{{"ab"}, 1}), (Labelled{{"ab"}, 1}));
  EXPECT_EQ(bifrons::from_bytes<std::vector<UserId>>(B({0x02, 0x01, 0x02})),
            (std::vector<UserId>{UserId(1), UserId(2)}));
  EXPECT_EQ(bifrons::serialized_size(std::vector<UserId>{UserId(1), UserId(300)}), 4u);
}

TEST(Minimal, InvariantsRefuseValues) {
  // load_minimal's ar.fail: at the current byte, after the value.
  EXPECT_TRUE(fails_with<Labelled>(B({0x04, 0x00, 0x01}), errc::invalid_value, 2));
  EXPECT_TRUE(fails_with<Label>(B({0x00}), errc::invalid_value, 1));
  // The constructor's exception: user_error at the value.
  const auto r = bifrons::try_from_bytes<std::vector<UserId>>(B({0x02, 0x01, 0x00}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::user_error);
  EXPECT_EQ(r.offset(), 2u);
  EXPECT_EQ(r.message(), "bifrons: exception thrown by user code at byte 2: 0 is not a user id");
  // A value that does not decode is reported as such, before any hook sees it.
  EXPECT_TRUE(fails_with<Label>(B({0x03, 0x61}), errc::count_exceeds_input, 0, 2));
}

/// A class that is its base's value: `base<std::string>` in a hook, or a minimal form.
struct Path : std::string {
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<std::string>(*this));
  }
};
struct Filename : std::string {
  template <class Archive>
  std::string save_minimal(const Archive&) const {
    return *this;
  }
  template <class Archive>
  void load_minimal(const Archive&, const std::string& value) {
    assign(value);
  }
};

TEST(Minimal, ClassesDerivedFromAStandardType) {
  Path p;
  p.assign("ab");
  EXPECT_EQ(hex_of(p), "06 02 61 62");  // an envelope around the string
  EXPECT_EQ(static_cast<const std::string&>(round_trip(p)), "ab");
  Filename f;
  f.assign("ab");
  EXPECT_EQ(hex_of(f), "02 61 62");  // the string's bytes
  EXPECT_EQ(static_cast<const std::string&>(round_trip(f)), "ab");
}

// ---- refusing data newer than the class -----------------------------------------------------------------

/// A timeout whose unit changed: version 1 stored seconds, version 2 milliseconds. A version 1
/// reader cannot know what a version 2 number means, so it refuses newer data.
template <std::uint32_t V>
struct Timeout {
  static constexpr std::uint32_t bifrons_version = V;
  static constexpr bool bifrons_refuse_newer = true;
  std::int64_t value = 0;
  template <class Archive>
  void serialize(Archive& ar, std::uint32_t version) {
    ar(value);
    if constexpr (Archive::is_loading) {
      if (V >= 2 && version < 2) value *= 1000;
    }
  }
};
struct Settings {
  std::int32_t retries = 0;
  Timeout<1> timeout;
};
struct SettingsV2 {
  std::int32_t retries = 0;
  Timeout<2> timeout;
};

TEST(Versions, AClassMayRefuseNewerVersions) {
  // version 02, value zigzag(5000) = 90 4e -> body 3 bytes, header (3 << 1) | 1 = 07.
  const bytes v2 = bifrons::to_bytes(Timeout<2>{5000});
  EXPECT_EQ(hex(v2), "07 02 90 4e");
  EXPECT_TRUE(fails_with<Timeout<1>>(v2, errc::newer_version, 0));
  // As a member: at the member's envelope (retries 02 is byte 1, the timeout starts at 2).
  EXPECT_TRUE(fails_with<Settings>(bifrons::to_bytes(SettingsV2{1, {5000}}), errc::newer_version, 2));
  // Older and equal versions are read as always.
  EXPECT_EQ(bifrons::from_bytes<Timeout<2>>(bifrons::to_bytes(Timeout<1>{5})).value, 5000);
  EXPECT_EQ(bifrons::from_bytes<Timeout<2>>(v2).value, 5000);
  EXPECT_EQ(bifrons::describe(errc::newer_version), std::string("class version newer than the reader's"));
  // The message names the class and both versions, from the throwing and the non-throwing API.
  const auto r = bifrons::try_from_bytes<Settings>(bifrons::to_bytes(SettingsV2{1, {5000}}));
  ASSERT_FALSE(r);
  const std::string_view expected = "has version 2 in the data; this program reads versions up to 1";
  EXPECT_NE(r.message().find(expected), std::string::npos) << r.message();
  EXPECT_NE(r.message().find("Timeout<1>"), std::string::npos) << r.message();
  try {
    (void)bifrons::from_bytes<Timeout<1>>(v2);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_NE(std::string_view(e.what()).find(expected), std::string::npos) << e.what();
  }
  // A later failure of another kind carries no stale note.
  const auto other = bifrons::try_from_bytes<Timeout<1>>(B({0x07}));
  EXPECT_EQ(other.message().find("version"), std::string::npos) << other.message();
}

// ---- what hooks throw ----------------------------------------------------------------------------------

class Bag {
 public:
  int capacity = 2;
  std::vector<int> items;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(capacity, items);
    if constexpr (Archive::is_loading) {
      if (items.size() > static_cast<std::size_t>(capacity))
        throw std::runtime_error("corrupt save: inventory over capacity");
    }
  }
};
struct Save {
  std::string player;
  Bag bag;
};

TEST(HookExceptions, TryFromBytesKeepsTheMessageAndTheStructOffset) {
  Save s{"p", {}};
  s.bag.capacity = 1;
  s.bag.items = {1, 2};
  // player 01 70 (bytes 1-2); the bag's envelope from byte 3: capacity 02, items 02 + two int32.
  const bytes b = bifrons::to_bytes(s);
  EXPECT_EQ(hex(b), "1a 01 70 14 02 02 01 00 00 00 02 00 00 00");
  const auto r = bifrons::try_from_bytes<Save>(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::user_error);
  EXPECT_EQ(r.offset(), 3u);
  EXPECT_EQ(r.message(), "bifrons: exception thrown by user code at byte 3: corrupt save: inventory over capacity");
  try {
    (void)r.value();
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(std::string(e.what()), r.message());
  }
  // from_bytes lets the hook's own exception through.
  EXPECT_THROW((void)bifrons::from_bytes<Save>(b), std::runtime_error);
  // A value without an error has no message.
  EXPECT_EQ(bifrons::try_from_bytes<Save>(bifrons::to_bytes(Save{})).message(), "");
}

// ---- hooks that check their fields, reading into a reused object ----------------------------------------

/// A hook that refuses lo > hi, with ar.fail or by throwing.
template <bool Throw>
struct Checked {
  std::int32_t lo = 0, hi = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(lo, hi);
    if constexpr (Archive::is_loading) {
      if (lo > hi) {
        if constexpr (Throw)
          throw std::runtime_error("lo > hi");
        else
          ar.fail(errc::invalid_value);
      }
    }
  }
};

TEST(Hooks, ReadIntoAReusedObjectTheHookSeesWhatAFreshReadSees) {
  // lo = -1, hi missing: a fresh read gives {-1, 0}. Read into {-10, -5}, the hook's first pass
  // sees hi = -5 (stale) and refuses; the read is retried from defaults and gives {-1, 0} too.
  const bytes b = B({0x02, 0x01});
  Checked<false> refusing{-10, -5};
  bifrons::from_bytes(b, refusing);
  EXPECT_EQ(refusing.lo, -1);
  EXPECT_EQ(refusing.hi, 0);
  Checked<true> throwing{-10, -5};
  bifrons::from_bytes(b, throwing);
  EXPECT_EQ(throwing.lo, -1);
  EXPECT_EQ(throwing.hi, 0);
  // In a vector of reused elements, and through a reader.
  std::vector<Checked<false>> v{{-10, -5}};
  bifrons::from_bytes(B({0x01, 0x02, 0x01}), v);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].hi, 0);
  bifrons::reader r(b);
  Checked<true> t{-10, -5};
  r(t);
  EXPECT_EQ(t.hi, 0);
  // What a fresh read refuses stays refused, with the same error and offset.
  Checked<false> again{-10, -5};
  EXPECT_THROW(bifrons::from_bytes(B({0x04, 0x04, 0x02}), again), bifrons::error);  // lo 2 > hi 1
  EXPECT_TRUE(fails_with<Checked<false>>(B({0x04, 0x04, 0x02}), errc::invalid_value, 3));
  // A field that does not decode: the same error as a fresh read (a bool byte 02 in lo's place
  // is fine for an int32; use an overlong varint).
  Checked<false> bad{-10, -5};
  try {
    bifrons::from_bytes(B({0x02, 0x80}), bad);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::unexpected_end);
    EXPECT_EQ(e.offset(), 2u);  // where the input ends, inside the varint
  }
  EXPECT_TRUE(fails_with<Checked<false>>(B({0x02, 0x80}), errc::unexpected_end, 2, 1));
}

/// Checked<true> with a third field, which the data below lacks.
struct CheckedWithLimit {
  std::int32_t lo = 0, hi = 0, limit = 100;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(lo, hi, limit);
    if constexpr (Archive::is_loading) {
      if (lo > hi) throw std::runtime_error("lo > hi");
    }
  }
};

TEST(Hooks, AHookThatThrowsAgainWhenReadFromDefaultsFailsAsAFreshRead) {
  // lo = 2 > hi = 1, limit missing: a fresh read throws. Read into a reused object, the first pass
  // throws, the object is reset and read again (it lacks a field), and that pass throws too: the
  // failure is the fresh read's, user_error at the struct's first byte.
  const bytes b = B({0x04, 0x04, 0x02});
  const auto fresh = bifrons::try_from_bytes<CheckedWithLimit>(b);
  ASSERT_FALSE(fresh);
  EXPECT_EQ(fresh.code(), errc::user_error);
  EXPECT_EQ(fresh.offset(), 0u);
  EXPECT_EQ(fresh.message(), "bifrons: exception thrown by user code at byte 0: lo > hi");
  CheckedWithLimit reused{-10, 50, 7};
  EXPECT_THROW(bifrons::from_bytes(b, reused), std::runtime_error);
  bifrons::reader r(b);
  EXPECT_THROW(r(reused), std::runtime_error);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.code(), errc::user_error);
  EXPECT_EQ(r.offset(), 0u);
  // The second element of a reused vector: the struct starts at byte 4.
  std::vector<CheckedWithLimit> v{{0, 1, 2}, {-10, 50, 7}};
  const bytes two = B({0x02, 0x04, 0x00, 0x02, 0x04, 0x04, 0x02});
  bifrons::reader in_vector(two);
  EXPECT_THROW(in_vector(v), std::runtime_error);
  EXPECT_EQ(in_vector.code(), errc::user_error);
  EXPECT_EQ(in_vector.offset(), 4u);
}

// ---- a type one cannot edit ------------------------------------------------------------------------------

// ---- inherited minimal hooks (cereal's structs_specialized) ----------------------------------------

namespace inherited {
struct MinimalBase {
  std::int32_t x = 0;
  template <class Archive>
  std::int32_t save_minimal(const Archive&) const {
    return x;
  }
  template <class Archive>
  void load_minimal(const Archive&, const std::int32_t& value) {
    x = value;
  }
};
/// Its own serialize, over a base with minimal hooks: one hook, not two.
struct SerializesOverMinimal : MinimalBase {
  std::int32_t y = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<MinimalBase>(*this), y);
  }
};
/// Its own free minimal hooks, over a base with member ones: its own are used.
struct FreeMinimalOverMember : MinimalBase {
  std::int32_t z = 0;
};
template <class Archive>
std::int32_t save_minimal(const Archive&, const FreeMinimalOverMember& v) {
  return v.z * 2;
}
template <class Archive>
void load_minimal(const Archive&, FreeMinimalOverMember& v, const std::int32_t& value) {
  v.z = value / 2;
}
/// No hook of its own: refused, as with an inherited serialize.
struct NoHookOverMinimal : MinimalBase {
  std::int32_t w = 0;
};
}  // namespace inherited

TEST(InheritedHooks, MinimalHooksOfABaseAreNotTheDerivedClasssOwn) {
  using namespace inherited;
  SerializesOverMinimal a;
  a.x = 3;
  a.y = 4;
  const auto back_a = bifrons::from_bytes<SerializesOverMinimal>(bifrons::to_bytes(a));
  EXPECT_EQ(back_a.x, 3);
  EXPECT_EQ(back_a.y, 4);
  FreeMinimalOverMember b;
  b.x = 5;
  b.z = 6;
  EXPECT_EQ(hex_of(b), "18");  // zigzag(12): the free hook's value, not the base's x
  const auto back_b = bifrons::from_bytes<FreeMinimalOverMember>(bifrons::to_bytes(b));
  EXPECT_EQ(back_b.z, 6);
  EXPECT_EQ(back_b.x, 0);
  static_assert(bifrons::detail::hook_refusal_of<NoHookOverMinimal>() == bifrons::detail::hook_refusal::only_inherited);
  static_assert(bifrons::detail::hook_refusal_of<SerializesOverMinimal>() == bifrons::detail::hook_refusal::none);
  static_assert(bifrons::detail::hook_refusal_of<FreeMinimalOverMember>() == bifrons::detail::hook_refusal::none);
}

// ---- a diamond read into an existing object (Boost's test_diamond) ---------------------------------

namespace diamond {
struct Root {
  std::int32_t r = 0;
  static inline int loads = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(r);
    if constexpr (Archive::is_loading) ++loads;
  }
};
/// Its only field is the virtual base: where Root was written before, its envelope is empty.
struct Left : virtual Root {
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Root>(*this));
  }
};
struct Right : virtual Root {
  std::int32_t right = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Root>(*this), right);
  }
};
struct Bottom : Right, Left {
  std::int32_t bottom = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Right>(*this), bifrons::base<Left>(*this), bottom);
  }
};
}  // namespace diamond

TEST(VirtualBases, ADiamondReadIntoAnExistingObjectLoadsItsVirtualBaseOnce) {
  diamond::Bottom written;
  written.r = 1;
  written.right = 2;
  written.bottom = 3;
  const bytes data = bifrons::to_bytes(written);
  diamond::Root::loads = 0;
  const auto fresh = bifrons::from_bytes<diamond::Bottom>(data);
  EXPECT_EQ(diamond::Root::loads, 1);
  diamond::Bottom existing;
  existing.r = 9;
  existing.right = 9;
  existing.bottom = 9;
  diamond::Root::loads = 0;
  bifrons::from_bytes(data, existing);
  EXPECT_EQ(diamond::Root::loads, 1);  // was 2: Left's empty envelope read as missing fields
  EXPECT_EQ(existing.r, 1);
  EXPECT_EQ(existing.right, 2);
  EXPECT_EQ(existing.bottom, 3);
  EXPECT_EQ(fresh.r, 1);
}

// ---- private bases (Boost's test_private_base) -------------------------------------------------

namespace privately {
class Counter {
 public:
  std::int32_t count = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(count);
  }
};
class Meter : private Counter {
 public:
  Meter() = default;
  Meter(std::int32_t c, std::int32_t u) : units(u) { count = c; }
  [[nodiscard]] std::int32_t counted() const { return count; }
  std::int32_t units = 0;

 private:
  friend bifrons::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Counter>(*this), units);
  }
};
/// A private virtual base.
class Shared : private virtual Counter {
 public:
  [[nodiscard]] std::int32_t counted() const { return count; }
  void set(std::int32_t c) { count = c; }

 private:
  friend bifrons::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Counter>(*this));
  }
};
}  // namespace privately

TEST(PrivateBases, ABaseTheClassKeepsPrivateIsWrittenAndRead) {
  const auto back = bifrons::from_bytes<privately::Meter>(bifrons::to_bytes(privately::Meter(4, 5)));
  EXPECT_EQ(back.counted(), 4);
  EXPECT_EQ(back.units, 5);
  EXPECT_EQ(hex_of(privately::Meter(4, 5)), "06 02 08 0a");
  static_assert(bifrons::detail::virtual_base_of<privately::Counter, privately::Shared>);
  static_assert(!bifrons::detail::virtual_base_of<privately::Counter, privately::Meter>);
  privately::Shared s;
  s.set(6);
  EXPECT_EQ(bifrons::from_bytes<privately::Shared>(bifrons::to_bytes(s)).counted(), 6);
}

// ---- standard types are detected exactly -----------------------------------------------------------

/// What std::expected<int, E*> looks like to duck typing: has_value() and value(), like
/// std::optional, and a pointer in its error type.
class LooksOptional {
 public:
  [[nodiscard]] bool has_value() const { return true; }
  [[nodiscard]] int value() const { return 1; }
  [[nodiscard]] int* error() const { return error_; }
  using value_type = int;

 private:
  int* error_ = nullptr;
};

TEST(StandardTypeDetection, OnlyStdOptionalIsOptional) {
  static_assert(bifrons::detail::std_optional_like<std::optional<int>>);
  static_assert(!bifrons::detail::std_optional_like<LooksOptional>);
  // Refused as a class without a hook (not as an optional whose header is missing), and counted as
  // holding pointers (its value_type says nothing of what else it holds).
  static_assert(bifrons::detail::hook_refusal_of<LooksOptional>() == bifrons::detail::hook_refusal::no_hook);
  static_assert(bifrons::detail::may_hold_pointers<LooksOptional>());
  static_assert(!bifrons::detail::may_hold_pointers<std::optional<int>>());
}

namespace vendor {  // stands for a third-party library: no hooks, no default constructor
class Color {
 public:
  Color(std::uint8_t r, std::uint8_t g, std::uint8_t b) : r_(r), g_(g), b_(b) {}
  std::uint8_t r() const { return r_; }
  std::uint8_t g() const { return g_; }
  std::uint8_t b() const { return b_; }
  friend bool operator==(const Color&, const Color&) = default;

 private:
  std::uint8_t r_, g_, b_;
};
}  // namespace vendor

}  // namespace
}  // namespace bifrons_test

// Its hooks go in namespace bifrons, where bifrons finds them through the archive.
namespace bifrons {
template <class Archive>
void save(Archive& ar, const bifrons_test::vendor::Color& c) {
  ar(c.r(), c.g(), c.b());
}
template <class Archive>
bifrons_test::vendor::Color load_and_construct(Archive& ar, std::type_identity<bifrons_test::vendor::Color>) {
  std::uint8_t r = 0, g = 0, b = 0;
  ar(r, g, b);
  return {r, g, b};
}
}  // namespace bifrons

namespace bifrons_test {
namespace {

TEST(Hooks, ATypeOneCannotEditGetsItsHooksInNamespaceBifrons) {
  // Three uint8_t varints: 01, 02, ff 01 -> body 4 bytes, header 08.
  EXPECT_EQ(hex_of(vendor::Color(1, 2, 255)), "08 01 02 ff 01");
  EXPECT_EQ(bifrons::from_bytes<vendor::Color>(B({0x08, 0x01, 0x02, 0xff, 0x01})), vendor::Color(1, 2, 255));
  const std::vector<vendor::Color> palette{{1, 2, 3}, {4, 5, 6}};
  EXPECT_EQ(bifrons::from_bytes<std::vector<vendor::Color>>(bifrons::to_bytes(palette)), palette);
  const std::optional<vendor::Color> maybe{vendor::Color(7, 8, 9)};
  EXPECT_EQ(bifrons::from_bytes<std::optional<vendor::Color>>(bifrons::to_bytes(maybe)), maybe);
}

}  // namespace
}  // namespace bifrons_test
