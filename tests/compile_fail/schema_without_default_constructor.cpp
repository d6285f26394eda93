// expect: bifrons: schema<T>[(][)] calls each class's hook on a default-constructed object
// The schema is what the hook writes for T{}: a class without a default constructor (or a
// load_and_construct, which makes one from no fields) has none.
#include <bifrons/schema.hpp>

#include <cstdint>

class Meters {
 public:
  explicit Meters(std::int32_t value) : value_(value) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(value_);
  }

 private:
  std::int32_t value_;
};

int main() { return static_cast<int>(bifrons::schema<Meters>().size()); }
