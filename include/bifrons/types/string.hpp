// SPDX-License-Identifier: MIT
#pragma once
// std::basic_string: varint(length in code units), then one little-endian block of code units.

#include <string>

#include "../detail/containers.hpp"

namespace bifrons {
template <class CharT, class Traits, class Alloc>
struct codec<std::basic_string<CharT, Traits, Alloc>>
    : detail::sequence_codec<std::basic_string<CharT, Traits, Alloc>> {};
}  // namespace bifrons
