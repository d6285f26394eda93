// expect: bifrons: a record must be an aggregate without serialization hooks
// A record's fields are its members in declaration order; a hook would say otherwise.
#include <bifrons/core.hpp>

#include <cstdint>

struct Order {
  std::int32_t id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id);
  }
};
template <>
inline constexpr bool bifrons::enable_record<Order> = true;

int main() { return static_cast<int>(bifrons::to_bytes(Order{}).size()); }
