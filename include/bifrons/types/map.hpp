// SPDX-License-Identifier: MIT
#pragma once
// std::map and std::multimap: varint(count), then key and value of each element in order.

#include <map>
#include <utility>

#include "../detail/associative.hpp"
#include "utility.hpp"

namespace bifrons {
template <class K, class V, class Compare, class Alloc>
struct codec<std::map<K, V, Compare, Alloc>>
    : detail::associative_codec<std::map<K, V, Compare, Alloc>, std::pair<K, V>> {};
template <class K, class V, class Compare, class Alloc>
struct codec<std::multimap<K, V, Compare, Alloc>>
    : detail::associative_codec<std::multimap<K, V, Compare, Alloc>, std::pair<K, V>> {};
}  // namespace bifrons
