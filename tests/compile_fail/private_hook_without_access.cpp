// expect: bifrons: this type is not an aggregate and has no serialization hook.*friend bifrons::access
// A private hook that bifrons cannot see: the message says which friend declaration to add.
#include <bifrons/core.hpp>

class Account {
 public:
  Account() = default;

 private:
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id_);
  }
  int id_ = 0;
};

int main() {
  const Account a;
  return static_cast<int>(bifrons::to_bytes(a).size());  // offending line
}
