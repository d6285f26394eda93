// expect: bifrons: reading a virtual base [(]base<B> of a virtual B[)] takes the object table of pointers
// A virtual base is read once per complete object, which the reader's object table tracks.
#include <bifrons/core.hpp>

struct Base {
  int x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x);
  }
};
struct Derived : virtual Base {
  int y = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Base>(*this), y);
  }
};

int main() {
  const std::vector<std::byte> bytes = bifrons::to_bytes(Derived{});
  return bifrons::from_bytes<Derived>(bytes).y;
}
