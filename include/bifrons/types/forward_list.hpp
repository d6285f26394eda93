// SPDX-License-Identifier: MIT
#pragma once
// std::forward_list: the sequence encoding of detail/containers.hpp (the same bytes as std::vector).

#include <forward_list>

#include "../detail/containers.hpp"

namespace bifrons {
template <class T, class Alloc>
struct codec<std::forward_list<T, Alloc>> : detail::sequence_codec<std::forward_list<T, Alloc>> {};
}  // namespace bifrons
