// SPDX-License-Identifier: MIT
#pragma once
// std::pair and std::tuple: the elements one after another, with no count and no envelope
// (a tuple's shape is part of its type; to evolve a record, make it a struct).

#include <cstddef>
#include <tuple>
#include <utility>

#include "../detail/codec.hpp"

namespace bifrons {
namespace detail {
template <class T, class... Elements>
struct tuple_like_codec {
  static constexpr std::size_t min_size = (std::size_t{0} + ... + min_size_of<Elements>);
  static std::size_t size(const T& t) {
    return std::apply([](const auto&... e) { return (std::size_t{0} + ... + codec_of<decltype(e)>::size(e)); }, t);
  }
  static std::byte* write(std::byte* out, const T& t) {
    std::apply([&](const auto&... e) { ((out = codec_of<decltype(e)>::write(out, e)), ...); }, t);
    return out;
  }
  static void read(source& in, T& t) {
    std::apply([&](auto&... e) { (codec_of<decltype(e)>::read(in, e), ...); }, t);
  }
};
}  // namespace detail

template <class A, class B>
struct codec<std::pair<A, B>> : detail::tuple_like_codec<std::pair<A, B>, A, B> {};

template <class... Ts>
struct codec<std::tuple<Ts...>> : detail::tuple_like_codec<std::tuple<Ts...>, Ts...> {};
}  // namespace bifrons
