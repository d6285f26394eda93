// Built with -fno-rtti (tests/CMakeLists.txt): without RTTI, everything but pointers to
// polymorphic classes and their registration compiles and works; those two are refused
// (tests/compile_fail/no_rtti_*.cpp). A plain program rather than a GoogleTest one, since
// GoogleTest's library is built with RTTI.
#include <bifrons/bifrons.hpp>
#include <bifrons/schema.hpp>

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

struct Point {
  std::int32_t x = 0, y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

struct Everything {
  std::string name;
  std::vector<Point> points;
  std::map<std::int32_t, std::string> labels;
  std::optional<double> weight;
  std::variant<std::int32_t, std::string> tag;
  std::unique_ptr<Point> owned;            // a pointer to a class that is not polymorphic
  std::shared_ptr<const std::string> note;  // and to a standard type
  friend bool operator==(const Everything& a, const Everything& b) {
    return a.name == b.name && a.points == b.points && a.labels == b.labels && a.weight == b.weight && a.tag == b.tag &&
           (a.owned && b.owned ? *a.owned == *b.owned : a.owned == b.owned) &&
           (a.note && b.note ? *a.note == *b.note : a.note == b.note);
  }
};

// A polymorphic class held by value, with a hook that writes its base: no RTTI is needed.
struct Shape {
  virtual ~Shape() = default;
  virtual double area() const { return 0; }
  std::int32_t id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};
struct Square : Shape {
  double side = 0;
  double area() const override { return side * side; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Shape>(*this), side);
  }
};

int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  Everything e;
  e.name = "no rtti";
  e.points = {{1, 2}, {-3, 4}};
  e.labels = {{1, "one"}, {2, "two"}};
  e.weight = 2.5;
  e.tag = std::string("tagged");
  e.owned = std::make_unique<Point>(Point{5, 6});
  e.note = std::make_shared<const std::string>("shared");
  const std::vector<std::byte> bytes = bifrons::to_bytes(e);
  check(bifrons::from_bytes<Everything>(bytes) == e, "an aggregate of standard types round-trips");
  check(bytes.size() == bifrons::serialized_size(e), "serialized_size is the size written");

  Square s;
  s.id = 7;
  s.side = 1.5;
  const Square back = bifrons::from_bytes<Square>(bifrons::to_bytes(s));
  check(back.id == 7 && back.side == 1.5 && back.area() == 2.25, "a polymorphic class by value round-trips");

  const auto failed = bifrons::try_from_bytes<Everything>(std::vector<std::byte>{std::byte{0x05}});
  check(!failed && failed.code() == bifrons::errc::unexpected_end, "a truncated input is an error");

  const std::string schema = bifrons::schema<Square>();
  check(schema.find("\"base\": true") != std::string::npos && schema.find("\"f64\"") != std::string::npos,
        "schema of a polymorphic class by value, with its base");

  std::printf("no_rtti: %d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
