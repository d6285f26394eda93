// SPDX-License-Identifier: MIT
#pragma once
// std::set and std::multiset: varint(count), then the elements in order.

#include <set>

#include "../detail/associative.hpp"

namespace bifrons {
template <class K, class Compare, class Alloc>
struct codec<std::set<K, Compare, Alloc>> : detail::associative_codec<std::set<K, Compare, Alloc>, K> {};
template <class K, class Compare, class Alloc>
struct codec<std::multiset<K, Compare, Alloc>> : detail::associative_codec<std::multiset<K, Compare, Alloc>, K> {};
}  // namespace bifrons
