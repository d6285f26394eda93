// expect: bifrons: a pointer to a polymorphic class .one with a virtual function. needs RTTI
// flags: -fno-rtti
// Without RTTI the class of the object a pointer to a polymorphic class points to cannot be
// found, so such a pointer is refused; the same class by value needs no RTTI.
#include <bifrons/core.hpp>
#include <bifrons/types/memory.hpp>

#include <memory>

struct Base {
  virtual ~Base() = default;
  int x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};

int main() {
  const std::unique_ptr<Base> p = std::make_unique<Base>();
  (void)bifrons::to_bytes(p);  // offending line
}
