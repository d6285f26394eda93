// User classes (detail/hooks.hpp, detail/reflection.hpp, detail/struct_codec.hpp): aggregates by reflection, member and
// free serialize, save/load, class versions, base<Base>, deprecated<T>, and the struct envelope
// varint((body_length << 1) | has_version) [varint(version)] fields.
#include <bifrons/core.hpp>

#include <array>
#include <bitset>
#include <complex>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <string>
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
  EXPECT_TRUE(fails_with<NamedFields>(B({0x08, 0x03, 0x0d, 0x0c, 0x0b}), errc::unexpected_end, 2));
}

}  // namespace
}  // namespace bifrons_test
