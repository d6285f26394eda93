// A downstream project's polymorphic type (tests/consume/schema): a basket holds items, some of
// them gifts, a registered class that only the REGISTERED list of bifrons_schema_check names.
#pragma once

#include <bifrons/bifrons.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace shop {

struct Item {
  std::int64_t sku = 0;
  virtual ~Item() = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(sku);
  }
};

struct Gift : Item {
  std::uint32_t wrapping = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Item>(*this), wrapping);
  }
};

struct Basket {
  std::vector<std::unique_ptr<Item>> items;
};

}  // namespace shop

#ifdef SHOP_GIFT_BREAKING
BIFRONS_REGISTER(shop::Gift, "shop.Present");  // renamed: old programs no longer know it
#else
BIFRONS_REGISTER(shop::Gift, "shop.Gift");
#endif
