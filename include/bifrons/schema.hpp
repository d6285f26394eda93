// SPDX-License-Identifier: MIT
#pragma once
// The schema of a type: a JSON document describing every type reachable from T in wire terms,
// derived from the C++ types themselves (docs/schema.md). Deterministic and the same on every
// host, so that it can be committed, diffed and checked for breaking changes (bifrons-compat),
// and read by programs in other languages.
//
//   std::string text = bifrons::schema<Account>();
//   std::string text = bifrons::schema<Drawing, Circle, Square>();  // and registered classes
//
// Opt-in: reading and writing never include this header, and a program that does not call
// schema<T>() pays nothing for it.

#include <string>
#include <type_traits>

#include "core.hpp"
#include "detail/schema_builder.hpp"
#include "schema_name.hpp"
#include "types/adapters.hpp"
#include "types/array.hpp"
#include "types/bitset.hpp"
#include "types/chrono.hpp"
#include "types/complex.hpp"
#include "types/deque.hpp"
#include "types/forward_list.hpp"
#include "types/functional.hpp"
#include "types/list.hpp"
#include "types/map.hpp"
#include "types/memory.hpp"
#include "types/optional.hpp"
#include "types/set.hpp"
#include "types/string.hpp"
#include "types/unordered_map.hpp"
#include "types/unordered_set.hpp"
#include "types/utility.hpp"
#include "types/variant.hpp"
#include "types/vector.hpp"
#include "types/views.hpp"

namespace bifrons {

/// The schema of T as its canonical text (docs/schema.md, "Canonical text"), also describing the
/// registered polymorphic classes Registered... that pointers in T may hold (no program can list
/// a class's derived classes, so it names those it wants readers to know: docs/schema.md,
/// section 6). Calls the hook of every class it reaches on a default-constructed object. Throws
/// std::logic_error if two different types reachable from T have the same schema name, or if a
/// class of Registered... is not registered (BIFRONS_REGISTER).
template <class T, class... Registered>
[[nodiscard]] std::string schema() {
  static_assert((std::is_polymorphic_v<Registered> && ...),
                "bifrons: schema<T, Registered...>() lists registered polymorphic classes after T (those that "
                "pointers in T may hold); a class without a virtual function is described where T reaches it");
  detail::schema_builder builder;
  detail::json::value root = builder.describe<std::remove_cvref_t<T>>();
  (builder.describe_registered<Registered>(), ...);
  return detail::json::canonical(builder.document(std::move(root)));
}

}  // namespace bifrons
