// SPDX-License-Identifier: MIT
#pragma once
// std::unordered_map and std::unordered_multimap: varint(count), then key and value of each
// element in iteration order (see docs/format.md on canonical bytes).

#include <unordered_map>
#include <utility>

#include "../detail/associative.hpp"
#include "utility.hpp"

namespace bifrons {
template <class K, class V, class Hash, class Eq, class Alloc>
struct codec<std::unordered_map<K, V, Hash, Eq, Alloc>>
    : detail::associative_codec<std::unordered_map<K, V, Hash, Eq, Alloc>, std::pair<K, V>> {};
template <class K, class V, class Hash, class Eq, class Alloc>
struct codec<std::unordered_multimap<K, V, Hash, Eq, Alloc>>
    : detail::associative_codec<std::unordered_multimap<K, V, Hash, Eq, Alloc>, std::pair<K, V>> {};
}  // namespace bifrons
