#pragma once
// Shared fixtures for the schema-evolution tests (tests/evolution/*_test.cpp).
//
// A "version family" is a list of struct types V1, V2, V3, ... that model successive releases
// of one user type: each appends fields at the end (or retires one with bifrons::deprecated).
// Every type exposes its fields through tie(), which gives the tests, generically:
//   - project<To>(from): the value a reader of type To must see when it reads data written
//     from `from` (common fields copied, fields the data lacks at To's defaults, a retired
//     field seen by an old reader as T{}), i.e. the promise of the format, computed by hand
//     from the fields, never from the library's output;
//   - sample<V>(seed): a value whose every field differs from its default;
//   - ==, < (by the first field) and gtest printing.
// A "position" wraps a version in a nesting context (vector, map key, optional, ...), so one
// check runs for every pair of versions in every position.

#include <gtest/gtest.h>

#include <bifrons/bifrons.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <forward_list>
#include <initializer_list>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace evo {

// ---- field access ------------------------------------------------------------------------------

#define EVO_FIELDS(...)                        \
  auto tie() { return std::tie(__VA_ARGS__); } \
  auto tie() const { return std::tie(__VA_ARGS__); }

template <class T>
concept has_tie = requires(T& t, const T& c) {
  t.tie();
  c.tie();
};

template <class T>
inline constexpr bool is_deprecated = false;
template <class T>
inline constexpr bool is_deprecated<bifrons::deprecated<T>> = true;

template <has_tie T>
bool operator==(const T& a, const T& b) {
  return a.tie() == b.tie();
}

/// The first field, looking through nested structs (Derived's first "field" is its base).
template <class T>
const auto& key_of(const T& v) {
  const auto& first = std::get<0>(v.tie());
  if constexpr (has_tie<std::remove_cvref_t<decltype(first)>>)
    return key_of(first);
  else
    return first;
}

/// Ordered by the first field: samples differ in it, so sets and map keys hold them apart,
/// and the comparison never needs an order on the other fields (deprecated<T> has none).
template <has_tie T>
bool operator<(const T& a, const T& b) {
  return key_of(a) < key_of(b);
}

template <has_tie T>
void PrintTo(const T& v, std::ostream* os) {
  *os << ::testing::PrintToString(v.tie());
}

template <class T>
void PrintTo(const bifrons::deprecated<T>&, std::ostream* os) {
  *os << "deprecated";
}

// ---- the version families --------------------------------------------------------------------

enum class Color : std::uint8_t { red = 1, green = 2, blue = 3 };

struct Point {
  std::int32_t x = 3;
  std::int32_t y = 4;
  EVO_FIELDS(x, y)
};

// Release 1, 2 and 3 of one record. `number` is the release (used as class version by the
// versioned hook styles). Defaults are non-zero so that "left at its default" is visible.
struct Data1 {
  static constexpr std::uint32_t number = 1;
  std::int32_t id = 1;
  std::string name = "one";
  EVO_FIELDS(id, name)
};

struct Data2 {
  static constexpr std::uint32_t number = 2;
  std::int32_t id = 1;
  std::string name = "one";
  std::vector<std::int32_t> list{7, 8};
  Color color = Color::green;
  EVO_FIELDS(id, name, list, color)
};

struct Data3 {
  static constexpr std::uint32_t number = 3;
  std::int32_t id = 1;
  std::string name = "one";
  std::vector<std::int32_t> list{7, 8};
  Color color = Color::green;
  double ratio = 0.25;
  std::optional<std::string> note = "n";
  Point where{};
  std::map<std::string, std::int32_t> counts{{"d", 1}};
  std::uint64_t big = std::uint64_t{1} << 40;
  EVO_FIELDS(id, name, list, color, ratio, note, where, counts, big)
};

// ---- hook styles, each applied to the same data ------------------------------------------------

template <class Ar, class T>
void all_fields(Ar& ar, T& v) {
  std::apply([&](auto&... f) { ar(f...); }, v.tie());
}

template <class D>
struct MemberSerialize : D {
  template <class Ar>
  void serialize(Ar& ar) {
    all_fields(ar, *this);
  }
};

template <class D>
struct FreeSerialize : D {};
template <class Ar, class D>
void serialize(Ar& ar, FreeSerialize<D>& v) {
  all_fields(ar, v);
}

template <class D>
struct MemberSaveLoad : D {
  template <class Ar>
  void save(Ar& ar) const {
    all_fields(ar, *this);
  }
  template <class Ar>
  void load(Ar& ar) {
    all_fields(ar, *this);
  }
};

template <class D>
struct FreeSaveLoad : D {};
template <class Ar, class D>
void save(Ar& ar, const FreeSaveLoad<D>& v) {
  all_fields(ar, v);
}
template <class Ar, class D>
void load(Ar& ar, FreeSaveLoad<D>& v) {
  all_fields(ar, v);
}

/// Records the version numbers that reach a versioned hook, per type.
template <class T>
struct seen_versions {
  static inline std::uint32_t saved = 0xdeadbeef;
  static inline std::uint32_t loaded = 0xdeadbeef;
  template <class Ar>
  static void record(std::uint32_t version) {
    (Ar::is_loading ? loaded : saved) = version;
  }
};

template <class D>
struct MemberSerializeVersioned : D {
  static constexpr std::uint32_t bifrons_version = D::number;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    seen_versions<MemberSerializeVersioned>::template record<Ar>(version);
    all_fields(ar, *this);
  }
};

template <class D>
struct FreeSerializeVersioned : D {
  static constexpr std::uint32_t bifrons_version = D::number;
};
template <class Ar, class D>
void serialize(Ar& ar, FreeSerializeVersioned<D>& v, std::uint32_t version) {
  seen_versions<FreeSerializeVersioned<D>>::template record<Ar>(version);
  all_fields(ar, v);
}

template <class D>
struct MemberSaveLoadVersioned : D {
  static constexpr std::uint32_t bifrons_version = D::number;
  template <class Ar>
  void save(Ar& ar, std::uint32_t version) const {
    seen_versions<MemberSaveLoadVersioned>::template record<Ar>(version);
    all_fields(ar, *this);
  }
  template <class Ar>
  void load(Ar& ar, std::uint32_t version) {
    seen_versions<MemberSaveLoadVersioned>::template record<Ar>(version);
    all_fields(ar, *this);
  }
};

template <class D>
struct FreeSaveLoadVersioned : D {
  static constexpr std::uint32_t bifrons_version = D::number;
};
template <class Ar, class D>
void save(Ar& ar, const FreeSaveLoadVersioned<D>& v, std::uint32_t version) {
  seen_versions<FreeSaveLoadVersioned<D>>::template record<Ar>(version);
  all_fields(ar, v);
}
template <class Ar, class D>
void load(Ar& ar, FreeSaveLoadVersioned<D>& v, std::uint32_t version) {
  seen_versions<FreeSaveLoadVersioned<D>>::template record<Ar>(version);
  all_fields(ar, v);
}

// A derived class whose base (B) and own fields (O, flattened into the derived envelope)
// evolve independently: ar(bifrons::base<B>(*this), own fields...).
struct OwnA {
  std::int32_t level = 5;
  EVO_FIELDS(level)
};
struct OwnB {
  std::int32_t level = 5;
  std::string tag = "own";
  EVO_FIELDS(level, tag)
};

template <class B, class O>
struct Derived : B {
  O own{};
  template <class Ar>
  void serialize(Ar& ar) {
    std::apply([&](auto&... f) { ar(bifrons::base<B>(*this), f...); }, own.tie());
  }
  auto tie() { return std::tie(static_cast<B&>(*this), own); }
  auto tie() const { return std::tie(static_cast<const B&>(*this), own); }
};

// A middle field retired with bifrons::deprecated (R2), then a second one retired and a field
// appended (R3).
struct Retired1 {
  std::int32_t id = 1;
  std::string name = "one";
  std::vector<std::int32_t> legacy{1, 2};
  Point spot{};
  std::string note = "note";
  EVO_FIELDS(id, name, legacy, spot, note)
};
struct Retired2 {
  std::int32_t id = 1;
  std::string name = "one";
  bifrons::deprecated<std::vector<std::int32_t>> legacy;
  Point spot{};
  std::string note = "note";
  EVO_FIELDS(id, name, legacy, spot, note)
};
struct Retired3 {
  std::int32_t id = 1;
  std::string name = "one";
  bifrons::deprecated<std::vector<std::int32_t>> legacy;
  bifrons::deprecated<Point> spot;
  std::string note = "note";
  std::int64_t extra = -9;
  EVO_FIELDS(id, name, legacy, spot, note, extra)
};

template <class... Vs>
struct family {
  using versions = std::tuple<Vs...>;
};

template <template <class> class Style>
using styled = family<Style<Data1>, Style<Data2>, Style<Data3>>;

struct Aggregate : family<Data1, Data2, Data3> {
  static constexpr const char* name = "Aggregate";
};
struct MemberSerializeHook : styled<MemberSerialize> {
  static constexpr const char* name = "MemberSerialize";
};
struct FreeSerializeHook : styled<FreeSerialize> {
  static constexpr const char* name = "FreeSerialize";
};
struct MemberSaveLoadHook : styled<MemberSaveLoad> {
  static constexpr const char* name = "MemberSaveLoad";
};
struct FreeSaveLoadHook : styled<FreeSaveLoad> {
  static constexpr const char* name = "FreeSaveLoad";
};
struct MemberSerializeVersionedHook : styled<MemberSerializeVersioned> {
  static constexpr const char* name = "MemberSerializeVersioned";
};
struct FreeSerializeVersionedHook : styled<FreeSerializeVersioned> {
  static constexpr const char* name = "FreeSerializeVersioned";
};
struct MemberSaveLoadVersionedHook : styled<MemberSaveLoadVersioned> {
  static constexpr const char* name = "MemberSaveLoadVersioned";
};
struct FreeSaveLoadVersionedHook : styled<FreeSaveLoadVersioned> {
  static constexpr const char* name = "FreeSaveLoadVersioned";
};
// Base grows alone (1->2), derived grows alone (1->3), both (1->4), and mixed (2<->3).
struct BaseClass : family<Derived<Data1, OwnA>, Derived<Data2, OwnA>, Derived<Data1, OwnB>, Derived<Data3, OwnB>> {
  static constexpr const char* name = "BaseClass";
};
struct RetiredField : family<Retired1, Retired2, Retired3> {
  static constexpr const char* name = "RetiredField";
};

// ---- expected values ------------------------------------------------------------------------

template <class To, class From>
void project_into(To& to, const From& from);

/// What a reader with a field of type Dst sees when the data holds src (written as Src).
template <class Dst, class Src>
void assign_projected(Dst& dst, const Src& src) {
  if constexpr (is_deprecated<Dst>) {
    // a newer reader discards the retired field
  } else if constexpr (is_deprecated<Src>) {
    dst = Dst{};  // an older reader sees T{} for a field a newer writer retired
  } else if constexpr (std::is_same_v<Dst, Src>) {
    dst = src;
  } else if constexpr (has_tie<Dst> && has_tie<Src>) {
    project_into(dst, src);
  } else {
    dst = static_cast<Dst>(src);  // widening, enum <-> underlying integer
  }
}

template <class To, class From>
void project_into(To& to, const From& from) {
  auto dst = to.tie();
  const auto src = from.tie();
  constexpr std::size_t n = std::min(std::tuple_size_v<decltype(dst)>, std::tuple_size_v<decltype(src)>);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (assign_projected(std::get<I>(dst), std::get<I>(src)), ...);
  }(std::make_index_sequence<n>{});
}

/// The value a reader of type To gets from data written from `from`: the fields both know
/// are copied, the fields the data lacks keep To's defaults.
template <class To, class From>
To project(const From& from) {
  To to{};
  project_into(to, from);
  return to;
}

// ---- sample values: every field differs from its default ---------------------------------------

template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;
template <class T>
inline constexpr bool is_vector = false;
template <class T>
inline constexpr bool is_vector<std::vector<T>> = true;
template <class T>
inline constexpr bool is_map = false;
template <class K, class V>
inline constexpr bool is_map<std::map<K, V>> = true;

template <class T>
void fill(T& v, int seed, int k) {
  if constexpr (is_deprecated<T>) {
  } else if constexpr (has_tie<T>) {
    int i = 0;
    std::apply([&](auto&... f) { (fill(f, seed, k * 16 + ++i), ...); }, v.tie());
  } else if constexpr (std::is_enum_v<T>) {
    v = static_cast<T>((seed + k) % 2 == 0 ? 1 : 3);
  } else if constexpr (std::is_integral_v<T>) {
    v = static_cast<T>(1000 + seed * 100 + k);
  } else if constexpr (std::is_floating_point_v<T>) {
    v = seed + k / 8.0 + 0.5;
  } else if constexpr (std::is_same_v<T, std::string>) {
    v = "s" + std::to_string(seed) + "." + std::to_string(k);
  } else if constexpr (is_vector<T>) {
    v = {seed, k, -seed};
  } else if constexpr (is_optional<T>) {
    if (seed % 2 == 0)
      v.reset();
    else
      v = "o" + std::to_string(seed);
  } else if constexpr (is_map<T>) {
    v = {{"k" + std::to_string(seed), k}, {"z", -seed}};
  } else {
    static_assert(sizeof(T) == 0, "fill: add this field type");
  }
}

template <class V>
V sample(int seed) {
  V v{};
  fill(v, seed, 0);
  return v;
}

// ---- comparing and printing, with unique_ptr looked through ----------------------------------

template <class T>
std::string show(const T& v) {
  return ::testing::PrintToString(v);
}
template <class T>
std::string show(const std::unique_ptr<T>& p) {
  return p ? "unique_ptr -> " + show(*p) : "null unique_ptr";
}

template <class T>
bool same(const T& a, const T& b) {
  return a == b;
}
template <class T>
bool same(const std::unique_ptr<T>& a, const std::unique_ptr<T>& b) {
  return a && b ? same(*a, *b) : !a && !b;
}

template <class T>
::testing::AssertionResult Same(const T& got, const T& expected) {
  if (same(got, expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\n     got: " << show(got) << "\nexpected: " << show(expected);
}

// ---- bytes -----------------------------------------------------------------------------------

inline std::vector<std::byte> bytes_of(std::initializer_list<unsigned> values) {
  std::vector<std::byte> out;
  for (unsigned v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

/// LEB128 as the format defines it: a reference implementation for expectations.
inline std::vector<std::byte> leb128(std::uint64_t v) {
  std::vector<std::byte> out;
  do {
    const auto low = static_cast<unsigned>(v & 0x7f);
    v >>= 7;
    out.push_back(static_cast<std::byte>(v != 0 ? (low | 0x80) : low));
  } while (v != 0);
  return out;
}

/// Decodes the LEB128 varint at bytes[pos] and advances pos past it.
inline std::uint64_t read_leb128(const std::vector<std::byte>& bytes, std::size_t& pos) {
  std::uint64_t v = 0;
  for (unsigned shift = 0; pos < bytes.size(); shift += 7) {
    const auto b = static_cast<std::uint64_t>(bytes[pos++]);
    v |= (b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  return v;
}

// ---- nesting positions ------------------------------------------------------------------------
// build<V>(g, salt) makes the wrapped value from elements g(0), g(1), ...; salt varies the
// non-V parts so that an existing object differs from the data everywhere.

template <class V>
struct Holder {
  std::int32_t before = -5;
  V v{};
  std::string after = "after";
  EVO_FIELDS(before, v, after)
};

template <class V>
struct Outer {
  std::vector<V> items;
  std::int32_t tag = 9;
  EVO_FIELDS(items, tag)
};

inline std::string salted(const char* s, int salt) { return s + std::to_string(salt); }

struct AtTopLevel {
  static constexpr const char* name = "TopLevel";
  template <class V>
  using type = V;
  template <class V, class G>
  static type<V> build(G g, int) {
    return g(0);
  }
};

struct AsMember {
  static constexpr const char* name = "StructMember";
  template <class V>
  using type = Holder<V>;
  template <class V, class G>
  static type<V> build(G g, int salt) {
    return {salt, g(0), salted("after", salt)};
  }
};

template <template <class...> class Seq, const char* Name>
struct InSequence {
  static constexpr const char* name = Name;
  template <class V>
  using type = Seq<V>;
  template <class V, class G>
  static type<V> build(G g, int) {
    return {g(0), g(1), g(2)};
  }
};
inline constexpr char vector_name[] = "Vector";
inline constexpr char deque_name[] = "Deque";
inline constexpr char list_name[] = "List";
inline constexpr char forward_list_name[] = "ForwardList";
inline constexpr char set_name[] = "Set";
using InVector = InSequence<std::vector, vector_name>;
using InDeque = InSequence<std::deque, deque_name>;
using InList = InSequence<std::list, list_name>;
using InForwardList = InSequence<std::forward_list, forward_list_name>;
using InSet = InSequence<std::set, set_name>;

struct AsMapValue {
  static constexpr const char* name = "MapValue";
  template <class V>
  using type = std::map<std::int32_t, V>;
  template <class V, class G>
  static type<V> build(G g, int salt) {
    return {{salt, g(0)}, {salt + 1, g(1)}};
  }
};

struct AsMapKey {
  static constexpr const char* name = "MapKey";
  template <class V>
  using type = std::map<V, std::int32_t>;
  template <class V, class G>
  static type<V> build(G g, int salt) {
    return {{g(0), salt}, {g(1), salt + 1}};
  }
};

struct InOptional {
  static constexpr const char* name = "Optional";
  template <class V>
  using type = std::optional<V>;
  template <class V, class G>
  static type<V> build(G g, int) {
    return g(0);
  }
};

struct InVariant {
  static constexpr const char* name = "Variant";
  template <class V>
  using type = std::variant<std::int32_t, V, std::string>;
  template <class V, class G>
  static type<V> build(G g, int) {
    return type<V>(std::in_place_index<1>, g(0));
  }
};

struct InTuple {
  static constexpr const char* name = "Tuple";
  template <class V>
  using type = std::tuple<std::int32_t, V, std::string>;
  template <class V, class G>
  static type<V> build(G g, int salt) {
    return {salt, g(0), salted("t", salt)};
  }
};

struct InPair {
  static constexpr const char* name = "Pair";
  template <class V>
  using type = std::pair<V, std::int32_t>;
  template <class V, class G>
  static type<V> build(G g, int salt) {
    return {g(0), salt};
  }
};

struct InArray {
  static constexpr const char* name = "Array";
  template <class V>
  using type = std::array<V, 3>;
  template <class V, class G>
  static type<V> build(G g, int) {
    return {{g(0), g(1), g(2)}};
  }
};

struct InUniquePtr {
  static constexpr const char* name = "UniquePtr";
  template <class V>
  using type = std::unique_ptr<V>;
  template <class V, class G>
  static type<V> build(G g, int) {
    return std::make_unique<V>(g(0));
  }
};

/// Two levels: struct in vector in struct in map.
struct InVectorInStructInMap {
  static constexpr const char* name = "VectorInStructInMap";
  template <class V>
  using type = std::map<std::string, Outer<V>>;
  template <class V, class G>
  static type<V> build(G g, int salt) {
    return {{"a", Outer<V>{{g(0), g(1)}, salt}}, {"b", Outer<V>{{g(2)}, salt + 1}}};
  }
};

/// Two levels, every level reused when reading into an existing object.
struct InVectorInStructInVector {
  static constexpr const char* name = "VectorInStructInVector";
  template <class V>
  using type = std::vector<Outer<V>>;
  template <class V, class G>
  static type<V> build(G g, int salt) {
    return {Outer<V>{{g(0), g(1)}, salt}, Outer<V>{{g(2)}, salt + 1}};
  }
};

using AllPositions = ::testing::Types<AtTopLevel, AsMember, InVector, InDeque, InList, InForwardList, AsMapValue,
                                      AsMapKey, InSet, InOptional, InVariant, InTuple, InPair, InArray, InUniquePtr,
                                      InVectorInStructInMap, InVectorInStructInVector>;

using AllFamilies = ::testing::Types<Aggregate, MemberSerializeHook, FreeSerializeHook, MemberSaveLoadHook,
                                     FreeSaveLoadHook, MemberSerializeVersionedHook, FreeSerializeVersionedHook,
                                     MemberSaveLoadVersionedHook, FreeSaveLoadVersionedHook, BaseClass, RetiredField>;

/// gtest name generator for type lists whose types have a `name`.
struct NameOf {
  template <class T>
  static std::string GetName(int) {
    return T::name;
  }
};

template <class Pos, class V>
using wrapped = typename Pos::template type<V>;

/// The wrapped sample for one salt: elements sample<V>(salt * 10 + i).
template <class Pos, class V>
wrapped<Pos, V> make_sample(int salt) {
  return Pos::template build<V>([salt](int i) { return sample<V>(salt * 10 + i); }, salt);
}

/// What a reader of wrapped<Pos, To> must get from the bytes of make_sample<Pos, From>(salt).
template <class Pos, class To, class From>
wrapped<Pos, To> make_expected(int salt) {
  return Pos::template build<To>([salt](int i) { return project<To>(sample<From>(salt * 10 + i)); }, salt);
}

// ---- iterating over pairs of versions -----------------------------------------------------------

enum class direction {
  new_reads_old,  // data of release i read as release j > i
  old_reads_new,  // data of release i read as release j < i
};

/// Calls f.template operator()<From, To>(i, j) for every ordered pair of distinct versions of
/// Family going in the given direction (V1->V2, V1->V3, V2->V3, ... or the reverse).
template <class Family, class F>
void for_each_pair(direction d, F&& f) {
  using V = typename Family::versions;
  constexpr std::size_t n = std::tuple_size_v<V>;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (
        [&] {
          constexpr std::size_t i = K / n;
          constexpr std::size_t j = K % n;
          if constexpr (i != j) {
            if ((i < j) == (d == direction::new_reads_old)) {
              SCOPED_TRACE(::testing::Message() << Family::name << ": data of V" << i + 1 << " read as V" << j + 1);
              f.template operator()<std::tuple_element_t<i, V>, std::tuple_element_t<j, V>>();
            }
          }
        }(),
        ...);
  }(std::make_index_sequence<n * n>{});
}

// ---- the central check --------------------------------------------------------------------------

/// Writes wrapped<Pos, From>, reads it as wrapped<Pos, To>: into a new object, with the
/// non-throwing API, into an existing object whose every field differs from the data (the
/// reset-on-reuse rule: fields the data lacks must come back to their defaults), and into an
/// existing default object.
template <class Pos, class From, class To>
void check_read() {
  using W = wrapped<Pos, To>;
  const auto written = make_sample<Pos, From>(1);
  const std::vector<std::byte> bytes = bifrons::to_bytes(written);
  EXPECT_EQ(bytes.size(), bifrons::serialized_size(written));
  const W expected = make_expected<Pos, To, From>(1);

  EXPECT_TRUE(Same(bifrons::from_bytes<W>(bytes), expected)) << "from_bytes<T>";

  auto result = bifrons::try_from_bytes<W>(bytes);
  ASSERT_TRUE(result.has_value()) << bifrons::describe(result.code()) << " at " << result.offset();
  EXPECT_TRUE(Same(*result, expected)) << "try_from_bytes";

  W existing = make_sample<Pos, To>(2);
  ASSERT_FALSE(same(existing, expected));
  bifrons::from_bytes(bytes, existing);
  EXPECT_TRUE(Same(existing, expected)) << "from_bytes into an existing object";

  W empty{};
  bifrons::from_bytes(bytes, empty);
  EXPECT_TRUE(Same(empty, expected)) << "from_bytes into a default object";
}

/// check_read for every pair of Family's versions in direction d, at position Pos.
template <class Pos, class Family>
void check_pairs(direction d) {
  for_each_pair<Family>(d, []<class From, class To>() { check_read<Pos, From, To>(); });
}

/// Several values in one stream: an int before, the evolved value, a string, the evolved
/// value again and an integer after. A reader of To must stay in step with the writer of From.
template <class Pos, class From, class To>
void check_stream() {
  const auto first = make_sample<Pos, From>(1);
  const auto second = make_sample<Pos, From>(3);
  std::vector<std::byte> buffer;
  bifrons::writer w(buffer);
  w(std::int32_t{-77}, first, std::string("between"), second);
  w(std::uint64_t{0x1234567890abcdefULL});
  EXPECT_EQ(buffer.size(), bifrons::serialized_size(std::int32_t{-77}) + bifrons::serialized_size(first) +
                               bifrons::serialized_size(std::string("between")) + bifrons::serialized_size(second) +
                               bifrons::serialized_size(std::uint64_t{0x1234567890abcdefULL}));

  // The reader reads into existing objects: give it ones that differ from the data.
  std::int32_t before = 5;
  auto got_first = make_sample<Pos, To>(2);
  std::string between = "stale";
  auto got_second = make_sample<Pos, To>(4);
  std::uint64_t after = 0;
  bifrons::reader r(buffer);
  r(before, got_first, between);
  r(got_second, after);
  ASSERT_TRUE(r.ok()) << bifrons::describe(r.code()) << " at " << r.offset();
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.offset(), buffer.size());
  EXPECT_EQ(before, -77);
  EXPECT_TRUE(Same(got_first, make_expected<Pos, To, From>(1)));
  EXPECT_EQ(between, "between");
  EXPECT_TRUE(Same(got_second, make_expected<Pos, To, From>(3)));
  EXPECT_EQ(after, 0x1234567890abcdefULL);
}

template <class Pos, class Family>
void check_stream_pairs(direction d) {
  for_each_pair<Family>(d, []<class From, class To>() { check_stream<Pos, From, To>(); });
}

}  // namespace evo
