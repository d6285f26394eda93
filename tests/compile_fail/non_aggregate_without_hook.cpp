// expect: not an aggregate and has no serialization hook
// A class with a constructor (so not an aggregate) and no serialize/save/load hook.
#include <bifrons/core.hpp>

#include <string>

class Widget {
 public:
  explicit Widget(int id) : id_(id) {}
  int id() const { return id_; }

 private:
  int id_;
};

int main() {
  const Widget w(1);
  (void)bifrons::to_bytes(w);  // offending line
  return w.id() == 1 ? 0 : 1;
}
