// SPDX-License-Identifier: MIT
#pragma once
// Records: structs of fixed-width fields that arrays store as one block (docs/format.md,
// "Records"). A user opts a type in with one line, outside any namespace:
//
//   template <> inline constexpr bool bifrons::enable_record<Order> = true;
//
// A record's fields all have a fixed width on the wire: integers (fixed little-endian, not
// varints), enums, floating point, bool, char, std::byte, C arrays and std::array of these, and
// nested records. A vector, deque, list, std::array or C array of records is written as one
// block: the count, the record's size in bytes (its stride), then the records back to back. When
// the host is little-endian and the record's memory layout equals its wire layout (no padding,
// no bool), the whole block is one memcpy.
//
// Records still evolve, by appending fields: an older reader takes the fields it knows from each
// record and skips the rest of the stride; a newer reader takes what the data has and leaves the
// other fields at their defaults. Declaring a struct a record changes its bytes: it is a new
// wire type, not a compatible change of an existing struct (docs/evolution.md).

namespace bifrons {

/// Specialize as true for an aggregate (no hooks) to make it a record.
template <class T>
inline constexpr bool enable_record = false;

}  // namespace bifrons
