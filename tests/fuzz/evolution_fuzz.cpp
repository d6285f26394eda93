// Fuzz harness: evolution pairs (docs/evolution.md). Each pair is an older and a newer version of
// one type, modelled as tests/evolution/ does, as two C++ types: fields appended (to a struct,
// with an aggregate becoming a class with a hook, to a base class, to records in blocks), a field
// retired with deprecated<T>, a class version added and bumped, integers widened, an enum
// becoming its underlying integer, bool becoming an unsigned integer, variant alternatives
// appended, and container changes with the same bytes (vector/list/deque, string/vector<uint8_t>,
// map/unordered_map, set/multiset, map/vector<pair>).
//
// Properties, for each pair (Old, New) and input bytes b:
//   - both types get every property of check_case (fuzz_support.hpp): among them, reading b into
//     an existing object resets the fields b lacks (the result equals a fresh read);
//   - new data, old reader: when New reads b, Old reads to_bytes(that value) to what the pair's
//     `down` says an old reader sees (its fields, the appended ones dropped), or fails with the
//     error `down` names (a value that does not fit, a new variant alternative, equal keys);
//   - old data, new reader: when Old reads b, New reads to_bytes(that value) to what `up` says
//     (the old fields, the new ones at their defaults);
//   - the same bytes: when New reads b, Old reads b too, to the same fields (`down`), or fails as
//     `down` says; for pairs where the old type is the stricter reader, Old reading b implies New
//     reads it.

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

namespace {

using bifrons::errc;
using fuzz::context;
using fuzz::input;
using fuzz::Kind;

template <class T>
bifrons::result<T> failure(errc code) {
  return {code, 0};
}

// ---- the types --------------------------------------------------------------------------------------

/// golden::Account before it had a wallet and orders.
struct AccountV0 {
  std::int32_t id = 0;
  std::string name;
  bool operator==(const AccountV0&) const = default;
};

/// golden::Account after two releases: a class with a hook writing the same fields, then more.
class AccountV2 {
 public:
  std::int32_t id = 0;
  std::string name;
  golden::Balance wallet{};
  std::vector<golden::Order> orders;
  std::optional<std::string> note = "default note";
  std::vector<std::int64_t> history{1, 2};
  std::uint16_t flags = 9;

  template <class Ar>
  void serialize(Ar& ar) {
    ar(id, name, wallet, orders, note, history, flags);
  }
  bool operator==(const AccountV2&) const = default;
};

/// golden::WithDeprecated before its fields were retired.
struct WithoutDeprecated {
  std::int32_t id = 0;
  std::string old_name;
  double ratio = 0;
  double old_ratio = 0;
  golden::Balance old_wallet{};
  std::string label;
};

/// golden::Versioned (class version 300, `flags` read from version 2) at version 1, and before
/// it had a version at all.
struct VersionedV1 {
  static constexpr std::uint32_t bifrons_version = 1;
  std::int32_t id = 0;
  std::string name;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t) {
    ar(id, name);
  }
};

struct Unversioned {
  std::int32_t id = 0;
  std::string name;
};

/// golden::Dog with a field appended to its base and one to itself.
struct AnimalV2 {
  std::string name;
  std::uint16_t legs = 0;
  std::string sound = "woof";
};

struct DogV2 : AnimalV2 {
  bool good = false;
  std::int32_t age = 3;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<AnimalV2>(*this), good, age);
  }
};

/// Widened integers, an enum that became its underlying integer, a bool that became an unsigned
/// integer, and a variant with an alternative appended.
struct WidthV1 {
  std::int8_t a = 0;
  std::uint16_t b = 0;
  Kind kind = Kind::none;
  bool flag = false;
  std::set<std::int16_t> set;
  std::optional<std::int8_t> opt;
  std::variant<std::int8_t, std::string> var;
};

struct WidthV2 {
  std::int64_t a = 0;
  std::uint64_t b = 0;
  std::uint8_t kind = 0;
  std::uint8_t flag = 0;
  std::set<std::int64_t> set;
  std::optional<std::int32_t> opt;
  std::variant<std::int64_t, std::string, double> var;
};

/// Container changes that keep the bytes.
struct BagV1 {
  std::vector<std::string> names;
  std::string blob;
  std::map<std::string, std::int32_t> counts;
  std::set<std::int32_t> ids;
  std::map<std::int32_t, std::string> labels;
  std::vector<std::int32_t> numbers;
  bool operator==(const BagV1&) const = default;
};

struct BagV2 {
  std::list<std::string> names;
  std::vector<std::uint8_t> blob;
  std::unordered_map<std::string, std::int32_t> counts;
  std::multiset<std::int32_t> ids;
  std::vector<std::pair<std::int32_t, std::string>> labels;
  std::deque<std::int32_t> numbers;
  bool operator==(const BagV2&) const = default;
};

/// Records with fields appended, in blocks of every kind and alone.
struct RecV1 {
  std::int32_t a = 0;
  std::int16_t b = 0;
};

struct RecV2 {
  std::int32_t a = 0;
  std::int16_t b = 0;
  double c = 1.5;
  std::uint8_t d = 7;
};

}  // namespace

template <>
inline constexpr bool bifrons::enable_record<RecV1> = true;
template <>
inline constexpr bool bifrons::enable_record<RecV2> = true;

namespace {

struct FleetV1 {
  std::vector<RecV1> all;
  RecV1 one;
  std::array<RecV1, 2> pair{};
  std::deque<RecV1> more;
};

struct FleetV2 {
  std::list<RecV2> all;
  RecV2 one;
  std::array<RecV2, 2> pair{};
  std::vector<RecV2> more;
};

// ---- the cases (each type on its own) -----------------------------------------------------------------

struct account_v0 {
  static constexpr const char* name = "AccountV0";
  using type = AccountV0;
  static std::vector<type> samples() { return {{42, "Ada"}, {}}; }
};

struct account {
  static constexpr const char* name = "Account";
  using type = golden::Account;
  static constexpr std::array golden{golden::account::name};
  static std::vector<type> samples() { return {golden::account::value(), {}}; }
};

AccountV2 account_v2_sample() {
  AccountV2 a;
  a.id = 7;
  a.name = "v2";
  a.wallet = {"CHF", 3.5};
  a.orders = {{1, "X", golden::Side::sell, 1.0, 2.0}};
  a.note = std::nullopt;
  a.history = {-1, 1LL << 50};
  a.flags = 0xFFFF;
  return a;
}

struct account_v2 {
  static constexpr const char* name = "AccountV2";
  using type = AccountV2;
  static std::vector<type> samples() { return {account_v2_sample(), {}}; }
};

struct without_deprecated {
  static constexpr const char* name = "WithoutDeprecated";
  using type = WithoutDeprecated;
  static std::vector<type> samples() { return {{5, "old", 0.75, -1.0, {"EUR", 2.0}, "kept"}, {}}; }
};

struct with_deprecated {
  static constexpr const char* name = "WithDeprecated";
  using type = golden::WithDeprecated;
  static constexpr std::array golden{golden::deprecated_fields::name};
  static std::vector<type> samples() { return {golden::deprecated_fields::value(), {}}; }
};

struct versioned_v1 {
  static constexpr const char* name = "VersionedV1";
  using type = VersionedV1;
  static std::vector<type> samples() { return {{3, "one"}, {}}; }
};

struct unversioned {
  static constexpr const char* name = "Unversioned";
  using type = Unversioned;
  static std::vector<type> samples() { return {{4, "none"}, {}}; }
};

struct versioned {
  static constexpr const char* name = "Versioned";
  using type = golden::Versioned;
  static constexpr std::array golden{golden::versioned::name};
  static std::vector<type> samples() { return {golden::versioned::value(), {}}; }
};

struct dog {
  static constexpr const char* name = "Dog";
  using type = golden::Dog;
  static constexpr std::array golden{golden::base_class::name};
  static std::vector<type> samples() { return {golden::base_class::value(), {}}; }
};

DogV2 dog_v2_sample() {
  DogV2 d;
  d.name = "Max";
  d.legs = 3;
  d.sound = "wuff";
  d.good = true;
  d.age = 11;
  return d;
}

struct dog_v2 {
  static constexpr const char* name = "DogV2";
  using type = DogV2;
  static std::vector<type> samples() { return {dog_v2_sample(), {}}; }
};

struct width_v1 {
  static constexpr const char* name = "WidthV1";
  using type = WidthV1;
  static std::vector<type> samples() { return {{-128, 65535, Kind::gamma, true, {-300, 300}, 127, "s"}, {}}; }
};

struct width_v2 {
  static constexpr const char* name = "WidthV2";
  using type = WidthV2;
  static std::vector<type> samples() {
    return {{-129, 1ULL << 40, 77, 2, {1LL << 40, -1}, -200, 0.5}, {5, 6, 1, 1, {7}, 8, std::int64_t{9}}, {}};
  }
};

struct bag_v1 {
  static constexpr const char* name = "BagV1";
  using type = BagV1;
  static bool same(const type& a, const type& b) { return a == b; }
  static std::vector<type> samples() {
    return {{{"a", "b"}, "blob", {{"c", 1}}, {3, -3}, {{1, "one"}, {-1, "minus"}}, {1, 2, 3}}, {}};
  }
};

struct bag_v2 {
  static constexpr const char* name = "BagV2";
  using type = BagV2;
  static bool same(const type& a, const type& b) { return a == b; }
  static std::vector<type> samples() {
    return {{{"x"}, {0, 255}, {{"k", 1}, {"l", 2}}, {5, 5}, {{2, "two"}, {2, "again"}, {1, "one"}}, {4}}, {}};
  }
};

struct fleet_v1 {
  static constexpr const char* name = "FleetV1";
  using type = FleetV1;
  static std::vector<type> samples() { return {{{{1, 2}, {3, 4}}, {5, 6}, {{{7, 8}, {9, 10}}}, {{11, 12}}}, {}}; }
};

struct fleet_v2 {
  static constexpr const char* name = "FleetV2";
  using type = FleetV2;
  static std::vector<type> samples() {
    return {
        {{{1, 2, 0.25, 1}, {3, 4, -0.5, 2}}, {5, 6, 7.5, 3}, {{{7, 8, 1.0, 4}, {9, 10, 2.0, 5}}}, {{11, 12, 3.0, 6}}},
        {}};
  }
};

// ---- the pairs ------------------------------------------------------------------------------------------

/// The common part of every pair: the cases of the older and newer type. A pair adds
///   static New up(const Old&);                     what a new reader sees in old data
///   static bifrons::result<Old> down(const New&);  what an old reader sees in new data, or its error
///   static constexpr bool old_is_stricter;         Old reading bytes implies New reads them
template <class OldCase, class NewCase>
struct pair_of {
  using old_case = OldCase;
  using new_case = NewCase;
  using Old = typename OldCase::type;
  using New = typename NewCase::type;
};

struct account_append : pair_of<account_v0, account> {
  static constexpr const char* name = "AccountV0 -> Account (fields appended)";
  static constexpr bool old_is_stricter = false;
  static New up(const Old& o) { return {o.id, o.name, {}, {}}; }
  static bifrons::result<Old> down(const New& n) { return Old{n.id, n.name}; }
};

struct account_hook : pair_of<account, account_v2> {
  static constexpr const char* name = "Account -> AccountV2 (a hook, fields appended)";
  static constexpr bool old_is_stricter = false;
  static New up(const Old& o) {
    New n;
    n.id = o.id;
    n.name = o.name;
    n.wallet = o.wallet;
    n.orders = o.orders;
    return n;
  }
  static bifrons::result<Old> down(const New& n) { return Old{n.id, n.name, n.wallet, n.orders}; }
};

struct retire : pair_of<without_deprecated, with_deprecated> {
  static constexpr const char* name = "WithoutDeprecated -> WithDeprecated (fields retired)";
  // Both parse the same bytes: deprecated<T> reads a T and drops it.
  static constexpr bool old_is_stricter = true;
  static New up(const Old& o) { return {o.id, {}, o.ratio, {}, {}, o.label}; }
  static bifrons::result<Old> down(const New& n) { return Old{n.id, {}, n.ratio, 0.0, {}, n.label}; }
  /// The same bytes: the retired positions hold what the data holds for the old reader.
  static auto common(const Old& o) { return std::make_tuple(o.id, o.ratio, o.label); }
  static auto common(const New& n) { return std::make_tuple(n.id, n.ratio, n.label); }
};

struct version_bump : pair_of<versioned_v1, versioned> {
  static constexpr const char* name = "VersionedV1 -> Versioned (class version 1 -> 300, a field read from 2)";
  static constexpr bool old_is_stricter = false;
  static New up(const Old& o) { return {o.id, o.name, 0}; }
  static bifrons::result<Old> down(const New& n) { return Old{n.id, n.name}; }
};

struct version_added : pair_of<unversioned, versioned> {
  static constexpr const char* name = "Unversioned -> Versioned (a class version added)";
  static constexpr bool old_is_stricter = false;
  static New up(const Old& o) { return {o.id, o.name, 0}; }
  static bifrons::result<Old> down(const New& n) { return Old{n.id, n.name}; }
};

struct base_append : pair_of<dog, dog_v2> {
  static constexpr const char* name = "Dog -> DogV2 (fields appended to the base and the class)";
  static constexpr bool old_is_stricter = false;
  static New up(const Old& o) {
    New n;
    n.name = o.name;
    n.legs = o.legs;
    n.good = o.good;
    return n;
  }
  static bifrons::result<Old> down(const New& n) {
    Old o;
    o.name = n.name;
    o.legs = n.legs;
    o.good = n.good;
    return o;
  }
};

template <class Narrow, class Wide>
bool fits(Wide v) {
  return std::in_range<Narrow>(v);
}

struct widen : pair_of<width_v1, width_v2> {
  static constexpr const char* name =
      "WidthV1 -> WidthV2 (integers widened, enum -> integer, bool -> uint8, "
      "a variant alternative appended)";
  // Every old field accepts a subset of what the new one accepts.
  static constexpr bool old_is_stricter = true;
  static New up(const Old& o) {
    New n;
    n.a = o.a;
    n.b = o.b;
    n.kind = static_cast<std::uint8_t>(o.kind);
    n.flag = o.flag ? 1 : 0;
    n.set.insert(o.set.begin(), o.set.end());
    if (o.opt) n.opt = *o.opt;
    if (o.var.index() == 0)
      n.var = std::int64_t{std::get<0>(o.var)};
    else
      n.var = std::get<1>(o.var);
    return n;
  }
  /// The fields in order; the first that an old reader refuses gives the error.
  static bifrons::result<Old> down(const New& n) {
    Old o;
    if (!fits<std::int8_t>(n.a)) return failure<Old>(errc::value_out_of_range);
    o.a = static_cast<std::int8_t>(n.a);
    if (!fits<std::uint16_t>(n.b)) return failure<Old>(errc::value_out_of_range);
    o.b = static_cast<std::uint16_t>(n.b);
    o.kind = static_cast<Kind>(n.kind);
    if (n.flag > 1) return failure<Old>(errc::invalid_value);
    o.flag = n.flag == 1;
    for (const std::int64_t v : n.set) {
      if (!fits<std::int16_t>(v)) return failure<Old>(errc::value_out_of_range);
      o.set.insert(static_cast<std::int16_t>(v));
    }
    if (n.opt) {
      if (!fits<std::int8_t>(*n.opt)) return failure<Old>(errc::value_out_of_range);
      o.opt = static_cast<std::int8_t>(*n.opt);
    }
    if (n.var.index() == 2) return failure<Old>(errc::invalid_value);
    if (n.var.index() == 0) {
      if (!fits<std::int8_t>(std::get<0>(n.var))) return failure<Old>(errc::value_out_of_range);
      o.var = static_cast<std::int8_t>(std::get<0>(n.var));
    } else {
      o.var = std::get<1>(n.var);
    }
    return o;
  }
};

struct containers : pair_of<bag_v1, bag_v2> {
  static constexpr const char* name =
      "BagV1 -> BagV2 (vector -> list, string -> vector<uint8_t>, map -> "
      "unordered_map, set -> multiset, map -> vector<pair>, vector -> deque)";
  // The new containers accept everything the old ones do (and equal keys).
  static constexpr bool old_is_stricter = true;
  static New up(const Old& o) {
    New n;
    n.names.assign(o.names.begin(), o.names.end());
    n.blob.assign(o.blob.begin(), o.blob.end());
    n.counts.insert(o.counts.begin(), o.counts.end());
    n.ids.insert(o.ids.begin(), o.ids.end());
    n.labels.assign(o.labels.begin(), o.labels.end());
    n.numbers.assign(o.numbers.begin(), o.numbers.end());
    return n;
  }
  static bifrons::result<Old> down(const New& n) {
    Old o;
    o.names.assign(n.names.begin(), n.names.end());
    o.blob.assign(n.blob.begin(), n.blob.end());
    o.counts.insert(n.counts.begin(), n.counts.end());
    for (const std::int32_t id : n.ids)
      if (!o.ids.insert(id).second) return failure<Old>(errc::duplicate_key);
    for (const auto& [k, v] : n.labels)
      if (!o.labels.emplace(k, v).second) return failure<Old>(errc::duplicate_key);
    o.numbers.assign(n.numbers.begin(), n.numbers.end());
    return o;
  }
};

RecV2 rec_up(const RecV1& r) { return {r.a, r.b}; }
RecV1 rec_down(const RecV2& r) { return {r.a, r.b}; }

struct records : pair_of<fleet_v1, fleet_v2> {
  static constexpr const char* name = "FleetV1 -> FleetV2 (fields appended to records; vector <-> list <-> deque)";
  // An old reader takes any stride that holds its fields; a new one refuses a stride ending
  // inside one of its appended fields.
  static constexpr bool old_is_stricter = false;
  static New up(const Old& o) {
    New n;
    for (const RecV1& r : o.all) n.all.push_back(rec_up(r));
    n.one = rec_up(o.one);
    n.pair = {rec_up(o.pair[0]), rec_up(o.pair[1])};
    for (const RecV1& r : o.more) n.more.push_back(rec_up(r));
    return n;
  }
  static bifrons::result<Old> down(const New& n) {
    Old o;
    for (const RecV2& r : n.all) o.all.push_back(rec_down(r));
    o.one = rec_down(n.one);
    o.pair = {rec_down(n.pair[0]), rec_down(n.pair[1])};
    for (const RecV2& r : n.more) o.more.push_back(rec_down(r));
    return o;
  }
};

// ---- the properties -----------------------------------------------------------------------------------

/// `got` is `expected`: the same value, or a failure with the same code.
template <class Case>
void matches(const context& ctx, const bifrons::result<typename Case::type>& got,
             const bifrons::result<typename Case::type>& expected, const char* property) {
  if (expected) {
    ctx.check(got.has_value(), property, "the read failed");
    ctx.check(fuzz::same_value<Case>(*got, *expected), property, "another value");
  } else {
    ctx.check(!got.has_value(), property, "the read succeeded");
    ctx.check(got.code() == expected.code(), property, "another error code");
  }
}

/// The limits of a read of data the other version wrote: the defaults. The value came from a read
/// within the reference budget (4 MiB), but the other version may hold it in containers that cost
/// more (a list node per record where the other had a vector element: a block of records of
/// stride 0 is a few bytes of input), so the reference budget could refuse it.
inline constexpr bifrons::read_options cross_limits{};

template <class Pair>
void check_evolution(input in) {
  using Old = typename Pair::Old;
  using New = typename Pair::New;
  using OldCase = typename Pair::old_case;
  using NewCase = typename Pair::new_case;
  const context ctx{Pair::name, in};

  const bifrons::result<Old> o_ref = fuzz::bounded_read<Old>(ctx, in, fuzz::reference_limits);
  const bifrons::result<New> n_ref = fuzz::bounded_read<New>(ctx, in, fuzz::reference_limits);

  // The same bytes, both readers. One version may hold the data in containers that cost more
  // than the other's: where one read ran out of the reference budget, it is read again under the
  // defaults for these comparisons.
  const auto or_defaults = [&]<class T>(const bifrons::result<T>& r) {
    if (r || r.code() != errc::allocation_limit_exceeded) return r;
    return bifrons::try_from_bytes<T>(in, cross_limits);
  };
  if (const bifrons::result<New>& n = n_ref) {
    const bifrons::result<Old> o = or_defaults(o_ref);
    if constexpr (requires { Pair::common(*o); }) {
      ctx.check(o.has_value(), "new reader reads the bytes, the old one does not");
      ctx.check(bifrons::to_bytes(Pair::common(*o)) == bifrons::to_bytes(Pair::common(*n)),
                "the same bytes: old and new readers disagree on the fields both have");
    } else {
      matches<OldCase>(ctx, o, Pair::down(*n), "the same bytes: the old reader does not see what `down` says");
    }
  }
  if constexpr (Pair::old_is_stricter)
    if (o_ref)
      ctx.check(or_defaults(n_ref).has_value(), "the old reader reads the bytes, the new one (more lenient) does not");

  // Old data, new reader.
  if (const bifrons::result<Old>& o = o_ref) {
    const bifrons::result<New> up = bifrons::try_from_bytes<New>(bifrons::to_bytes(*o), cross_limits);
    matches<NewCase>(ctx, up, bifrons::result<New>(Pair::up(*o)), "old data, new reader: not what `up` says");
  }
  // New data, old reader.
  if (const bifrons::result<New>& n = n_ref) {
    const bifrons::result<Old> down = bifrons::try_from_bytes<Old>(bifrons::to_bytes(*n), cross_limits);
    matches<OldCase>(ctx, down, Pair::down(*n), "new data, old reader: not what `down` says");
  }
}

template <class... Cases>
struct cases {
  static void seeds() { fuzz::initialize<Cases...>(); }
  static void check(input in) { (fuzz::check_case<Cases>(in), ...); }
};

template <class... Pairs>
struct pairs {
  static void check(input in) { (check_evolution<Pairs>(in), ...); }
};

using all_cases = cases<account_v0, account, account_v2, without_deprecated, with_deprecated, versioned_v1, unversioned,
                        versioned, dog, dog_v2, width_v1, width_v2, bag_v1, bag_v2, fleet_v1, fleet_v2>;
using all_pairs =
    pairs<account_append, account_hook, retire, version_bump, version_added, base_append, widen, containers, records>;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  all_cases::seeds();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const input in(reinterpret_cast<const std::byte*>(data), size);
  all_pairs::check(in);
  all_cases::check(in);
  return 0;
}
