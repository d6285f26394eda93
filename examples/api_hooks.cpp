// docs/api.md, "User classes": the hooks, class versions, base<>, deprecated<>, fixed() and varint().
#include <bifrons/bifrons.hpp>

#include "example_check.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// A member serialize(): lists the fields in order, for reading and writing.
class Account {
 public:
  Account() = default;
  Account(std::int32_t id, std::string name) : id_(id), name_(std::move(name)) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id_, name_);
  }
  std::int32_t id() const { return id_; }
  const std::string& name() const { return name_; }

 private:
  std::int32_t id_ = 0;
  std::string name_;
};

// A free serialize(), found by argument-dependent lookup: for types you cannot change.
namespace geo {
struct Coord {
  Coord() = default;
  Coord(double latitude, double longitude) : lat(latitude), lon(longitude) {}  // not an aggregate
  double lat = 0;
  double lon = 0;
};
template <class Archive>
void serialize(Archive& ar, Coord& c) {
  ar(c.lat, c.lon);
}
}  // namespace geo

// Member save() and load(): load() checks an invariant and rebuilds a cache.
class Range {
 public:
  Range() = default;
  Range(std::int32_t lo, std::int32_t hi) : lo_(lo), hi_(hi), width_(hi - lo) {}
  template <class Archive>
  void save(Archive& ar) const {
    ar(lo_, hi_);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(lo_, hi_);
    if (lo_ > hi_) throw std::invalid_argument("Range: lo > hi");
    width_ = hi_ - lo_;
  }
  std::int32_t width() const { return width_; }

 private:
  std::int32_t lo_ = 0;
  std::int32_t hi_ = 0;
  std::int32_t width_ = 0;  // derived: not stored
};

// Free save() and load().
namespace legacy {
class Tag {
 public:
  Tag() = default;
  explicit Tag(std::string text) : text_(std::move(text)) {}
  const std::string& text() const { return text_; }
  void set(std::string text) { text_ = std::move(text); }

 private:
  std::string text_;
};
template <class Archive>
void save(Archive& ar, const Tag& t) {
  ar(t.text());
}
template <class Archive>
void load(Archive& ar, Tag& t) {
  std::string text;
  ar(text);
  t.set(std::move(text));
}
}  // namespace legacy

// A class version: version 1 stored kelvin, version 2 stores millikelvin.
struct Reading {
  static constexpr std::uint32_t bifrons_version = 2;
  std::int32_t millikelvin = 0;
  template <class Archive>
  void serialize(Archive& ar, std::uint32_t version) {
    ar(millikelvin);
    if constexpr (Archive::is_loading) {
      if (version < 2) millikelvin *= 1000;
    }
  }
};
struct ReadingV1 {  // what the old program wrote
  static constexpr std::uint32_t bifrons_version = 1;
  std::int32_t kelvin = 0;
};

// base<Base>(*this): a base class as its own envelope. fixed(): an integer as fixed-width bytes.
struct Animal {
  std::string name;
};
struct Dog : Animal {
  std::uint64_t chip = 0;  // random ids are large: fixed(chip) takes 8 bytes where a varint takes up to 10
  bool good = true;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Animal>(*this), bifrons::fixed(chip), good);
  }
};

// deprecated<T>: a retired field keeps its place, as an aggregate member or in a hook.
struct ItemV1 {
  std::int32_t id = 0;
  std::string note;
  std::int32_t count = 0;
};
struct ItemV2 {
  std::int32_t id = 0;
  bifrons::deprecated<std::string> note;  // retired: writes an empty string, discards what it reads
  std::int32_t count = 0;
};
class ItemHook {
 public:
  std::int32_t id = 0;
  std::int32_t count = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id, bifrons::deprecated<std::string>{}, count);
  }
};

// varint(): an array of small integers as varints instead of a fixed-width block.
struct Histogram {
  std::vector<std::uint32_t> buckets;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::varint(buckets));
  }
};

int main() {
  example_check check;

  const auto account = bifrons::from_bytes<Account>(bifrons::to_bytes(Account{7, "Ada"}));
  check(account.id() == 7 && account.name() == "Ada", "member serialize");

  const auto coord = bifrons::from_bytes<geo::Coord>(bifrons::to_bytes(geo::Coord{48.5, 2.25}));
  check(coord.lat == 48.5 && coord.lon == 2.25, "free serialize");

  check(bifrons::from_bytes<Range>(bifrons::to_bytes(Range{2, 10})).width() == 8, "member save/load");
  // An exception from load() passes through from_bytes; try_from_bytes reports user_error.
  struct Raw {  // the same bytes as a Range with lo > hi
    std::int32_t lo, hi;
  };
  const auto inverted = bifrons::to_bytes(Raw{10, 2});
  check(bifrons::try_from_bytes<Range>(inverted).code() == bifrons::errc::user_error, "load() throws: user_error");
  bool passed_through = false;
  try {
    (void)bifrons::from_bytes<Range>(inverted);
  } catch (const std::invalid_argument&) {
    passed_through = true;
  }
  check(passed_through, "load() throws: the exception passes through from_bytes");

  check(bifrons::from_bytes<legacy::Tag>(bifrons::to_bytes(legacy::Tag("x"))).text() == "x", "free save/load");

  // The hook sees the version of the data: 1 for the old program's bytes, 2 for its own.
  check(bifrons::from_bytes<Reading>(bifrons::to_bytes(ReadingV1{300})).millikelvin == 300000, "version 1 data");
  check(bifrons::from_bytes<Reading>(bifrons::to_bytes(Reading{300})).millikelvin == 300, "version 2 data");

  const Dog dog{{"Rex"}, 0x0123456789abcdefULL, true};
  const auto dog_bytes = bifrons::to_bytes(dog);
  // Header, then Animal's own envelope (header, "Rex" as 03 52 65 78), then 8 bytes of chip, then good.
  check(dog_bytes.size() == 1 + 5 + 8 + 1, "base and fixed: sizes");
  const auto dog_back = bifrons::from_bytes<Dog>(dog_bytes);
  check(dog_back.name == "Rex" && dog_back.chip == dog.chip && dog_back.good, "base and fixed: round trip");

  // Old and new readers stay in step across the retired field.
  const auto v2 = bifrons::from_bytes<ItemV2>(bifrons::to_bytes(ItemV1{5, "discarded", 3}));
  const auto v1 = bifrons::from_bytes<ItemV1>(bifrons::to_bytes(ItemV2{5, {}, 3}));
  check(v2.id == 5 && v2.count == 3 && v1.note.empty() && v1.count == 3, "deprecated member");
  check(bifrons::to_bytes(ItemHook{5, 3}) == bifrons::to_bytes(ItemV2{5, {}, 3}), "deprecated in a hook");

  // 3 buckets: a count and one byte each, where the block would take a count and 4 bytes each.
  check(bifrons::serialized_size(Histogram{{1, 2, 3}}) == 1 + 1 + 3, "varint array");
  check(bifrons::from_bytes<Histogram>(bifrons::to_bytes(Histogram{{1, 2, 3}})).buckets[2] == 3, "varint round trip");

  std::printf("%d failure(s)\n", check.failures);
  return check.failures == 0 ? 0 : 1;
}
