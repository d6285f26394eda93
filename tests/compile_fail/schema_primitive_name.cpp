// expect: bifrons: this type's schema name is one of the primitive names
// A named type called "i32" could not be told apart from the primitive i32 in a schema.
#include <bifrons/schema.hpp>

#include <cstdint>
#include <string_view>

struct Counter {
  std::int32_t value = 0;
};
template <>
inline constexpr std::string_view bifrons::schema_name<Counter> = "i32";

int main() { return static_cast<int>(bifrons::schema<Counter>().size()); }
