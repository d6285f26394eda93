// SPDX-License-Identifier: MIT
#pragma once
// Identity for objects held by value (docs/format.md, "Pointers"). Objects owned by pointers
// always have an identity: a second pointer to one is written as a reference to it. An object
// held by value (a member, an element of a vector) has one only if its type says so, with one
// line outside any namespace:
//
//   template <> inline constexpr bool bifrons::enable_identity<Node> = true;
//
// Then a non-owning pointer (Node*, std::reference_wrapper<Node>) to a Node that the message
// holds by value, written after that Node, is written as a reference to it and points to the
// new Node after reading. Each such object costs the writer a hash-table insertion and the reader
// an entry in its object table, and takes an object id whether or not anything points at it:
// enabling identity for a type changes the ids of the objects after it, so it is a change of
// format for messages that hold pointers (docs/evolution.md).

namespace bifrons {

/// Specialize as true for a class whose by-value objects non-owning pointers may refer to.
template <class T>
inline constexpr bool enable_identity = false;

}  // namespace bifrons
