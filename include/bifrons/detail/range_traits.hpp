// SPDX-License-Identifier: MIT
#pragma once
// What the codecs ask of a range, answered from its iterator's declared category.
//
// The standard range concepts (std::ranges::contiguous_range and its kin) check an iterator
// against the whole hierarchy of iterator concepts, and GCC's first check for each iterator type
// costs more than compiling the read it guards: for a program reading an int32 from a vector of
// bytes, the check that the input is a contiguous range was a quarter of the compiler's work.
// The types that codecs meet are the
// standard containers, arrays and spans, whose categories say the same as those concepts.

#include <concepts>
#include <iterator>
#include <type_traits>
#include <utility>

namespace bifrons::detail {

/// Anything std::begin and std::end apply to: containers, C arrays, spans, views.
template <class R>
concept range = requires(R& r) {
  std::begin(r);
  std::end(r);
};

template <range R>
using iterator_t = decltype(std::begin(std::declval<R&>()));
/// The element type, as std::ranges::range_value_t (bool for vector<bool>, not its proxy reference).
template <range R>
using range_value_t = std::iter_value_t<iterator_t<R>>;

/// A pointer, or an iterator that declares the contiguous category (C++20's iterator_concept).
template <class I>
concept contiguous_iterator = std::is_pointer_v<I> || requires {
  requires std::derived_from<typename I::iterator_concept, std::contiguous_iterator_tag>;
};

template <class R>
concept contiguous_range = range<R> && contiguous_iterator<iterator_t<R>>;
template <class R>
concept random_access_range =
    range<R> &&
    std::derived_from<typename std::iterator_traits<iterator_t<R>>::iterator_category, std::random_access_iterator_tag>;
template <class R>
concept bidirectional_range =
    range<R> &&
    std::derived_from<typename std::iterator_traits<iterator_t<R>>::iterator_category, std::bidirectional_iterator_tag>;

}  // namespace bifrons::detail
