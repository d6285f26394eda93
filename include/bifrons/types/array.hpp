// SPDX-License-Identifier: MIT
#pragma once
// std::array and C arrays: the elements with no count (the count is part of the type).

#include <array>
#include <cstddef>

#include "../detail/containers.hpp"

namespace bifrons {
template <class T, std::size_t N>
struct codec<std::array<T, N>> : detail::fixed_array_codec<std::array<T, N>, T, N> {};

template <class T, std::size_t N>
struct codec<T[N]> : detail::fixed_array_codec<T[N], T, N> {};
}  // namespace bifrons
