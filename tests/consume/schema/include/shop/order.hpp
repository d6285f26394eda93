// A downstream project's serialized type (tests/consume/schema).
#pragma once

#include <cstdint>
#include <string>

namespace shop {

struct Order {
  std::int64_t id = 0;
  std::string symbol;
#ifdef SHOP_ORDER_BREAKING
  float price = 0;  // was a double: old data no longer reads
#else
  double price = 0;
#endif
#ifdef SHOP_ORDER_APPENDED
  std::uint16_t venue = 0;  // appended: old and new programs still read each other's data
#endif
};

}  // namespace shop
