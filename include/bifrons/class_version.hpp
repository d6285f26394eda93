// SPDX-License-Identifier: MIT
#pragma once
// A class version declared outside the class (cereal's CEREAL_CLASS_VERSION): for a class whose
// hooks are free functions, or that you cannot edit. Outside any namespace:
//
//   BIFRONS_CLASS_VERSION(app::Order, 2);
//
// is the same as `static constexpr std::uint32_t bifrons_version = 2;` inside app::Order
// (docs/format.md section 6, docs/evolution.md). A class may not declare both.

#include <cstdint>

namespace bifrons {

/// Specialize (or use BIFRONS_CLASS_VERSION) to give T a class version from outside it; 0, the
/// default, declares none.
template <class T>
inline constexpr std::uint32_t version_of = 0;

}  // namespace bifrons

#define BIFRONS_CLASS_VERSION(T, v) \
  template <>                       \
  inline constexpr std::uint32_t bifrons::version_of<T> = (v)
