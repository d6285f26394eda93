// expect: bifrons: shared_ptr to a polymorphic type is not supported yet
// Writing a Shape through shared_ptr<Shape> would drop the derived class's fields.
#include <bifrons/core.hpp>
#include <bifrons/types/memory.hpp>

#include <memory>

struct Shape {
  virtual ~Shape() = default;
  int id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};

int main() {
  const auto p = std::make_shared<Shape>();
  (void)bifrons::to_bytes(p);  // offending line
  return p->id;
}
