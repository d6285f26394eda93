// SPDX-License-Identifier: MIT
#pragma once
// std::deque: the sequence encoding of detail/containers.hpp (the same bytes as std::vector).

#include <deque>

#include "../detail/containers.hpp"

namespace bifrons {
template <class T, class Alloc>
struct codec<std::deque<T, Alloc>> : detail::sequence_codec<std::deque<T, Alloc>> {};
}  // namespace bifrons
