// expect: unique_ptr to a polymorphic type is not supported yet
// Writing a unique_ptr<Base> that points at a Derived would slice the object.
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
  return p->x;
}
