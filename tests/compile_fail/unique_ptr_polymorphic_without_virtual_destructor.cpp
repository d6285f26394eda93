// expect: bifrons: unique_ptr<T> of a polymorphic T without a virtual destructor
// Reading a unique_ptr<Base> may create a registered Derived, which unique_ptr<Base> would then
// delete as a Base: undefined behaviour without a virtual destructor.
#include <bifrons/core.hpp>
#include <bifrons/types/memory.hpp>

#include <memory>

struct Base {
  virtual int f() const { return x; }
  int x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};

int main() {
  const std::unique_ptr<Base> p = std::make_unique<Base>();
  (void)bifrons::to_bytes(p);  // offending line
  return p->x;
}
