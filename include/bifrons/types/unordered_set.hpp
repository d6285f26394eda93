// SPDX-License-Identifier: MIT
#pragma once
// std::unordered_set and std::unordered_multiset: varint(count), then the elements in iteration
// order. That order depends on the standard library's hash: see docs/format.md on canonical bytes.

#include <unordered_set>

#include "../detail/associative.hpp"

namespace bifrons {
template <class K, class Hash, class Eq, class Alloc>
struct codec<std::unordered_set<K, Hash, Eq, Alloc>>
    : detail::associative_codec<std::unordered_set<K, Hash, Eq, Alloc>, K> {};
template <class K, class Hash, class Eq, class Alloc>
struct codec<std::unordered_multiset<K, Hash, Eq, Alloc>>
    : detail::associative_codec<std::unordered_multiset<K, Hash, Eq, Alloc>, K> {};
}  // namespace bifrons
