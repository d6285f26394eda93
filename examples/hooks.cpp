// Classes with invariants: a serialize hook, split save/load, a base class and a class version.
#include <bifrons/bifrons.hpp>

#include <cstdio>
#include <stdexcept>

class Shape {
 public:
  virtual ~Shape() = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(name_);
  }
  const std::string& name() const { return name_; }
  void rename(std::string n) { name_ = std::move(n); }

 private:
  std::string name_;
};

class Circle : public Shape {
 public:
  static constexpr std::uint32_t bifrons_version = 2;

  Circle() = default;
  explicit Circle(double r) : radius_(r), area_(3.14159265358979 * r * r) {}

  // The area is a cache: it is not stored, but rebuilt on load.
  template <class Archive>
  void save(Archive& ar, std::uint32_t) const {
    ar(bifrons::base<Shape>(*this), radius_, bifrons::fixed(id_));
  }
  template <class Archive>
  void load(Archive& ar, std::uint32_t version) {
    ar(bifrons::base<Shape>(*this), radius_);
    if (version >= 2) ar(bifrons::fixed(id_));
    if (radius_ < 0) throw std::invalid_argument("negative radius");
    area_ = 3.14159265358979 * radius_ * radius_;
  }

  double area() const { return area_; }
  std::uint64_t id() const { return id_; }
  void set_id(std::uint64_t id) { id_ = id; }

 private:
  double radius_ = 0;
  std::uint64_t id_ = 0;
  double area_ = 0;
};

int main() {
  Circle c(2.0);
  c.rename("wheel");
  c.set_id(0x0123456789abcdefULL);
  const auto bytes = bifrons::to_bytes(c);
  const auto back = bifrons::from_bytes<Circle>(bytes);
  std::printf("%s: area %.3f, id %llx, %zu bytes\n", back.name().c_str(), back.area(),
              static_cast<unsigned long long>(back.id()), bytes.size());
  return back.name() == "wheel" && back.area() > 12.56 && back.area() < 12.57 && back.id() == c.id() ? 0 : 1;
}
