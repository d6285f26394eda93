// expect: bifrons: every field of a record must have a fixed width
// A record's fields all have a fixed width on the wire; a std::string has not. The compiler's
// "required from" lines name record_field_check<Order, 1, std::string>: the record, the field's
// position and its type.
#include <bifrons/bifrons.hpp>

#include <cstdint>
#include <string>
#include <vector>

struct Order {
  std::int32_t id = 0;
  std::string symbol;
};
template <>
inline constexpr bool bifrons::enable_record<Order> = true;

int main() { return static_cast<int>(bifrons::to_bytes(std::vector<Order>(1)).size()); }
