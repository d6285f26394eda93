// SPDX-License-Identifier: MIT
#pragma once
// std::list: the sequence encoding of detail/containers.hpp (the same bytes as std::vector).

#include <list>

#include "../detail/containers.hpp"

namespace bifrons {
template <class T, class Alloc>
struct codec<std::list<T, Alloc>> : detail::sequence_codec<std::list<T, Alloc>> {};
}  // namespace bifrons
