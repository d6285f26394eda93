// Fuzz harness: try_from_bytes of user classes. A rich aggregate holding a bit of everything
// (scalars, enums, strings, sequences, maps, optional, variant, nested structs, records, a
// versioned struct with a hook, a class with save/load hooks that refuses bad values, a hook that
// throws its own exception, a derived class with base<>, deprecated and fixed fields, a struct of
// scalars that takes the unchecked body path), objects bifrons creates without a default
// constructor (load_and_construct, minimal types) in every position, and the user classes of the
// golden files.
// Properties: fuzz_support.hpp.

#include <array>
#include <bitset>
#include <chrono>
#include <complex>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

namespace {

using fuzz::Kind;
using fuzz::Point;

/// Only scalars: read by the unchecked body path when the input holds its largest body.
struct Scalars {
  std::int32_t a = 0;
  std::uint16_t b = 0;
  double c = 0;
  bool d = false;
  Kind e = Kind::none;
  std::int64_t f = 0;
  char g = 0;
  float h = 0;
  fuzz::Level i = fuzz::level_mid;
  bool operator==(const Scalars&) const = default;
};

/// A class version and a hook that reads a field only in newer data.
struct Versioned {
  static constexpr std::uint32_t bifrons_version = 3;
  std::int32_t id = 0;
  std::string name;
  std::optional<std::uint32_t> extra;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    ar(id, name);
    if (version >= 2) ar(extra);
  }
  bool operator==(const Versioned&) const = default;
};

/// save/load hooks keeping an invariant: lo <= hi, or the read fails with invalid_value.
class Range {
 public:
  Range() = default;
  Range(std::int32_t lo, std::int32_t hi) : lo_(lo), hi_(hi) {}
  template <class Ar>
  void save(Ar& ar) const {
    ar(lo_, hi_);
  }
  template <class Ar>
  void load(Ar& ar) {
    ar(lo_, hi_);
    if (lo_ > hi_) ar.fail(bifrons::errc::invalid_value);
  }
  bool operator==(const Range&) const = default;

 private:
  std::int32_t lo_ = 0;
  std::int32_t hi_ = 0;
};

/// A load hook that throws (not a bifrons::error) on a value it refuses: try_from_bytes must turn
/// the exception into user_error, from_bytes let it through.
struct Picky {
  std::string word;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(word);
    if constexpr (Ar::is_loading)
      if (word == "boom") throw fuzz::user_exception();
  }
  bool operator==(const Picky&) const = default;
};

struct Shape {
  std::string label;
  Point origin;
  bool operator==(const Shape&) const = default;
};

struct Circle : Shape {
  std::uint32_t radius = 0;
  std::uint64_t hash = 0;
  Kind kind = Kind::none;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(bifrons::base<Shape>(*this), radius, bifrons::fixed(hash), bifrons::fixed(kind));
  }
  bool operator==(const Circle&) const = default;
};

struct Tag {
  std::string name;
  std::optional<std::int64_t> weight;
  std::vector<Tag> children;  // a recursive type: nesting bounded by max_depth
  bool operator==(const Tag&) const = default;
};

struct Rich {
  std::int32_t id = 0;
  std::uint64_t big = 0;
  Kind kind = Kind::none;
  fuzz::Level level = fuzz::level_mid;
  bool flag = false;
  float ratio = 0;
  double price = 0;
  char letter = 0;
  std::byte raw{};
  std::string name;
  std::u16string wide;
  std::u32string wider;
  std::vector<std::int32_t> ints;
  std::vector<std::string> words;
  std::vector<Point> points;
  std::vector<bool> bits;
  std::deque<std::int16_t> shorts;
  std::list<std::string> lines;
  std::map<std::string, std::int32_t> counts;
  std::map<std::int32_t, Point> where_by_id;
  std::set<std::int64_t> ids;
  std::multimap<std::int8_t, std::string> notes;
  std::optional<std::string> note;
  std::optional<Point> maybe_point;
  std::variant<std::monostate, std::int32_t, std::string, Point, std::vector<std::uint8_t>> choice;
  Point origin;
  Scalars scalars;
  std::vector<Scalars> more_scalars;
  Tag tag;
  fuzz::Sample sample;
  std::vector<fuzz::Sample> samples;
  std::array<fuzz::Pixel, 2> corners;
  Versioned versioned;
  Range range;
  std::vector<Range> ranges;
  std::vector<Picky> picky;
  Circle circle;
  bifrons::deprecated<std::string> old_name;
  bifrons::deprecated<Point> old_point;
  std::array<std::uint8_t, 3> rgb{};
  std::int16_t trio[3] = {};
  std::string names[2];
  std::bitset<12> mask;
  std::chrono::milliseconds elapsed{};
  std::complex<float> phase;
  std::pair<std::int32_t, std::string> pair;
  std::tuple<bool, std::uint8_t, std::string> tuple;
  std::int32_t tail = 0;
  bool operator==(const Rich&) const = default;
};

Rich rich_sample(int seed) {
  Rich r;
  r.id = -seed * 1000;
  r.big = std::uint64_t{1} << (seed + 30);
  r.kind = seed % 2 == 0 ? Kind::gamma : Kind::alpha;
  r.level = fuzz::level_high;
  r.flag = true;
  r.ratio = 0.5f;
  r.price = 1234.5 * seed;
  r.letter = 'q';
  r.raw = std::byte{0xA5};
  r.name = "rich-" + std::to_string(seed);
  r.wide = u"w\u00E9";
  r.wider = U"\U0001F600";
  r.ints = {-1, 0, seed, 1 << 20};
  r.words = {"a", "", "bc"};
  r.points = {{1, 2}, {-3, 4}};
  r.bits = {true, false, true};
  r.shorts = {-2, 300};
  r.lines = {"l1"};
  r.counts = {{"x", 1}, {"y", -1}};
  r.where_by_id = {{5, {6, 7}}};
  r.ids = {-5, 0, 1LL << 40};
  r.notes = {{1, "n"}, {1, "m"}, {-1, "o"}};
  r.note = "note";
  r.maybe_point = Point{8, 9};
  if (seed % 2 == 0)
    r.choice = std::string("choice");
  else
    r.choice = Point{10, 11};
  r.origin = {-1, -1};
  r.scalars = {1, 2, 3.0, true, Kind::beta, -4, 'z', 0.25f, fuzz::level_low};
  r.more_scalars = {Scalars{}, r.scalars};
  r.tag = {"root", 3, {{"child", std::nullopt, {{"leaf", -1, {}}}}}};
  r.sample = {7, 0.125, 0xBEEF, true, Kind::gamma};
  r.samples = {r.sample, {8, -1.0, 1, false, Kind::none}};
  r.corners = {{{1, 2, 3, 4}, {5, 6, 7, 8}}};
  r.versioned = {9, "v", 42u};
  r.range = {-1, 1};
  r.ranges = {{0, 0}, {2, 3}};
  r.picky = {{"fine"}, {seed == 2 ? "boom" : "boo"}};  // the second sample does not read back
  r.circle.label = "circle";
  r.circle.origin = {1, 1};
  r.circle.radius = 5;
  r.circle.hash = 0x0123456789ABCDEFu;
  r.circle.kind = Kind::beta;
  r.rgb = {1, 2, 3};
  r.trio[0] = -1;
  r.trio[2] = 2;
  r.names[0] = "first";
  r.mask = std::bitset<12>(0xA5A);
  r.elapsed = std::chrono::milliseconds(-1500);
  r.phase = {0.5f, -0.5f};
  r.pair = {3, "three"};
  r.tuple = {true, 200, "t"};
  r.tail = 77;
  return r;
}

struct rich {
  static constexpr const char* name = "Rich";
  using type = Rich;
  static std::vector<type> samples() { return {rich_sample(1), rich_sample(2), Rich{}}; }
};

struct tags {
  static constexpr const char* name = "Tag";
  using type = Tag;
  static std::vector<type> samples() { return {rich_sample(1).tag, Tag{"deep", 1, {Tag{}, Tag{"x", 2, {Tag{}}}}}}; }
};

/// Made by load_and_construct (no default constructor); refuses a negative size by throwing.
class Made {
 public:
  Made(std::int32_t size, std::string label) : size_(size), label_(std::move(label)) {
    if (size < 0) throw fuzz::user_exception();
  }
  template <class Ar>
  void save(Ar& ar) const {
    ar(size_, label_);
  }
  template <class Ar>
  static Made load_and_construct(Ar& ar) {
    std::int32_t size = 0;
    std::string label;
    ar(size, label);
    return Made(size, std::move(label));
  }
  bool operator==(const Made&) const = default;
  bool operator<(const Made& o) const { return size_ < o.size_; }

 private:
  std::int32_t size_;
  std::string label_;
};

/// A minimal type without default constructor, made from its value.
class Id {
 public:
  explicit Id(std::uint32_t v) : v_(v) {}
  template <class Ar>
  std::uint32_t save_minimal(const Ar&) const {
    return v_;
  }
  bool operator==(const Id&) const = default;

 private:
  std::uint32_t v_;
};

/// A minimal type whose load_minimal refuses an empty name.
struct Name {
  std::string text = "unnamed";
  template <class Ar>
  std::string save_minimal(const Ar&) const {
    return text;
  }
  template <class Ar>
  void load_minimal(const Ar& ar, const std::string& v) {
    if (v.empty()) ar.fail(bifrons::errc::invalid_value);
    text = v;
  }
  bool operator==(const Name&) const = default;
};

/// Objects bifrons creates without a default constructor, in every position (detail/creation.hpp).
struct Created {
  std::vector<Made> made;
  std::optional<Made> maybe;
  std::map<Id, Made, std::less<>> by_id;
  std::set<Made> set;
  std::variant<std::int32_t, Made, Id> choice;
  std::shared_ptr<const Made> shared;
  std::unique_ptr<Made> unique;
  std::vector<Id> ids;
  Name name;
  std::list<Made> list;
  Created() = default;
  Created(const Created& o)
      : made(o.made),
        maybe(o.maybe),
        by_id(o.by_id),
        set(o.set),
        choice(o.choice),
        shared(o.shared),
        unique(o.unique ? std::make_unique<Made>(*o.unique) : nullptr),
        ids(o.ids),
        name(o.name),
        list(o.list) {}
  Created(Created&&) = default;
  Created& operator=(Created&&) = default;
  template <class Ar>
  void serialize(Ar& ar) {
    ar(made, maybe, by_id, set, choice, shared, unique, ids, name, list);
  }
};
bool operator<(const Id& a, const Id& b) { return bifrons::to_bytes(a) < bifrons::to_bytes(b); }

struct created {
  static constexpr const char* name = "Created";
  using type = Created;
  static std::vector<type> samples() {
    Created c;
    c.made = {Made(1, "a"), Made(2, "")};
    c.maybe.emplace(3, "m");
    c.by_id.emplace(Id(7), Made(4, "b"));
    c.set = {Made(5, "s")};
    c.choice = Made(6, "c");
    c.shared = std::make_shared<const Made>(8, "sh");
    c.unique = std::make_unique<Made>(9, "u");
    c.ids = {Id(1), Id(300)};
    c.name = {"n"};
    c.list = {Made(10, "l")};
    std::vector<type> out;
    out.push_back(c);
    out.emplace_back();
    return out;
  }
};

struct scalars {
  static constexpr const char* name = "Scalars";
  using type = std::vector<Scalars>;
  static std::vector<type> samples() { return {{rich_sample(1).scalars, Scalars{}}}; }
};

template <class Golden, class... Also>
struct golden_case {
  static constexpr const char* name = Golden::name;
  using type = typename Golden::type;
  static constexpr std::array golden{Golden::name, Also::name...};
  static std::vector<type> samples() { return {Golden::value(), type{}}; }
};

}  // namespace

BIFRONS_FUZZ_CASES(rich, tags, scalars, created, golden_case<golden::account>, golden_case<golden::scalars>,
                   golden_case<golden::fixed_wrappers>, golden_case<golden::strings>, golden_case<golden::versioned>,
                   golden_case<golden::deprecated_fields>, golden_case<golden::base_class>,
                   golden_case<golden::body_64>)
