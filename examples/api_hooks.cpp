// docs/api.md, "User classes": the hooks, private hooks (access), load_and_construct, minimal types, the
// hooks of a type one cannot edit, class versions (and refusing newer ones), base<>, deprecated<>, fixed(),
// varint() and the context of hooks.
#include <bifrons/bifrons.hpp>

#include "example_check.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
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

// A class version: version 1 stored kelvin, version 2 stores millikelvin. Should a version 3 change
// the unit again, this program could not know: it refuses data newer than its own version.
struct Reading {
  static constexpr std::uint32_t bifrons_version = 2;
  static constexpr bool bifrons_refuse_newer = true;
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
struct ReadingV3 {  // what a newer program writes: microkelvin
  static constexpr std::uint32_t bifrons_version = 3;
  std::int64_t microkelvin = 0;
};

// Private hooks: one friend declaration. The default constructor and the version are private too.
class Ledger {
 public:
  explicit Ledger(std::int64_t balance) : balance_(balance) {}
  std::int64_t balance() const { return balance_; }

 private:
  friend bifrons::access;
  Ledger() = default;
  static constexpr std::uint32_t bifrons_version = 1;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(balance_);
  }
  std::int64_t balance_ = 0;
};

// No default constructor: load_and_construct reads the fields and makes the object.
class Sensor {
 public:
  Sensor(std::string name, std::int32_t rate) : name_(std::move(name)), rate_(rate) {
    if (rate <= 0) throw std::invalid_argument("rate must be positive");
  }
  const std::string& name() const { return name_; }
  std::int32_t rate() const { return rate_; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(name_, rate_);
  }
  template <class Archive>
  static Sensor load_and_construct(Archive& ar) {
    std::string name;
    std::int32_t rate = 1;  // what an older writer without the rate gets
    ar(name, rate);
    return Sensor(std::move(name), rate);
  }

 private:
  std::string name_;
  std::int32_t rate_;
};

// A minimal type: written as its number, no envelope; load_minimal checks the invariant.
struct UserId {
  std::uint64_t value = 0;
  template <class Archive>
  std::uint64_t save_minimal(const Archive&) const {
    return value;
  }
  template <class Archive>
  void load_minimal(const Archive& ar, const std::uint64_t& v) {
    if (v == 0) ar.fail(bifrons::errc::invalid_value);
    value = v;
  }
};

// A type one cannot edit (a vendor's, without a default constructor): free hooks in namespace
// bifrons, where bifrons finds them through the archive.
namespace vendor {
class Rgb {
 public:
  Rgb(std::uint8_t r, std::uint8_t g, std::uint8_t b) : r_(r), g_(g), b_(b) {}
  std::uint8_t r() const { return r_; }
  std::uint8_t g() const { return g_; }
  std::uint8_t b() const { return b_; }

 private:
  std::uint8_t r_, g_, b_;
};
}  // namespace vendor
namespace bifrons {
template <class Archive>
void save(Archive& ar, const vendor::Rgb& c) {
  ar(c.r(), c.g(), c.b());
}
template <class Archive>
vendor::Rgb load_and_construct(Archive& ar, std::type_identity<vendor::Rgb>) {
  std::uint8_t r = 0, g = 0, b = 0;
  ar(r, g, b);
  return {r, g, b};
}
}  // namespace bifrons

// The context of hooks: a table of names shared by the whole message, reached from the hook.
struct Names {
  std::vector<std::string> all;
};
struct NameRef {
  std::uint32_t index = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(index);
    if constexpr (Archive::is_loading) {
      const Names* names = bifrons::context<Names>(ar);
      if (names == nullptr || index >= names->all.size()) ar.fail(bifrons::errc::invalid_value);
    }
  }
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
  // A newer version is refused: without bifrons_refuse_newer, 300000000 microkelvin would read as millikelvin.
  check(bifrons::try_from_bytes<Reading>(bifrons::to_bytes(ReadingV3{300000000})).code() ==
            bifrons::errc::newer_version,
        "version 3 data: refused");

  // Private hooks, constructor and version, through friend bifrons::access.
  check(bifrons::from_bytes<Ledger>(bifrons::to_bytes(Ledger(-42))).balance() == -42, "access");

  // load_and_construct: from_bytes<Sensor>, and Sensors in a vector.
  const auto sensors = bifrons::from_bytes<std::vector<Sensor>>(bifrons::to_bytes(std::vector<Sensor>{{"t", 5}}));
  check(sensors.size() == 1 && sensors[0].name() == "t" && sensors[0].rate() == 5, "load_and_construct");
  // The constructor's exception: user_error at the struct, with its message.
  struct RawSensor {
    std::string name;
    std::int32_t rate;
  };
  const auto refused = bifrons::try_from_bytes<Sensor>(bifrons::to_bytes(RawSensor{"t", 0}));
  check(refused.code() == bifrons::errc::user_error &&
            refused.message() == "bifrons: exception thrown by user code at byte 0: rate must be positive",
        "load_and_construct: the constructor refuses");

  // A minimal type has the bytes of its value.
  check(bifrons::to_bytes(UserId{300}) == bifrons::to_bytes(std::uint64_t{300}), "minimal: bytes");
  check(bifrons::from_bytes<UserId>(bifrons::to_bytes(UserId{300})).value == 300, "minimal: round trip");
  check(bifrons::try_from_bytes<UserId>(bifrons::to_bytes(std::uint64_t{0})).code() == bifrons::errc::invalid_value,
        "minimal: load_minimal refuses 0");

  // The vendor's type, through the hooks in namespace bifrons.
  const auto rgb = bifrons::from_bytes<vendor::Rgb>(bifrons::to_bytes(vendor::Rgb(1, 2, 3)));
  check(rgb.r() == 1 && rgb.b() == 3, "hooks of a type one cannot edit");

  // The context of hooks: the names a message refers to.
  Names names{{"alpha", "beta"}};
  bifrons::context_scope<Names> scope(names);
  check(bifrons::from_bytes<NameRef>(bifrons::to_bytes(NameRef{1})).index == 1, "context: a known name");
  check(bifrons::try_from_bytes<NameRef>(bifrons::to_bytes(NameRef{5})).code() == bifrons::errc::invalid_value,
        "context: an unknown name");

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
