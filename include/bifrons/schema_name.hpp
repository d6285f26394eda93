// SPDX-License-Identifier: MIT
#pragma once
// The name of a struct, record or enum in schemas and in the frames of typed files
// (docs/schema.md, "Names"). By default it is the C++ name as the compiler spells it; a type
// whose spelling differs between compilers (a class template specialization with standard
// arguments), or that must keep its name across a rename, declares one, outside any namespace:
//
//   template <> inline constexpr std::string_view bifrons::schema_name<app::Order> = "app.Order";

#include <string_view>

namespace bifrons {

/// Specialize for a struct, record or enum to name it in schemas; empty: the C++ name.
template <class T>
inline constexpr std::string_view schema_name{};

}  // namespace bifrons
