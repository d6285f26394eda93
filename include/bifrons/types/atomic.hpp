// SPDX-License-Identifier: MIT
#pragma once
// std::atomic<T>: the bytes of the T it holds, as if it were a plain T (docs/format.md, section
// 29). Writing loads the value, reading stores the value read; neither is atomic as a whole with
// the rest of the message, or even between the two passes of a write: another thread may store a
// value of another size after the size pass. So the size pass counts the most bytes a T can take
// (T must have such a bound: a scalar, an enum, a struct of scalars), the write never runs past
// the room it was given, and serialized_size of a value holding atomics is an upper bound, not
// the exact size.

#include <atomic>

#include "../detail/codec.hpp"
#include "../identity.hpp"

namespace bifrons {
template <class T>
struct codec<std::atomic<T>> {
  static_assert(detail::max_size_of<T> != detail::unbounded,
                "bifrons: std::atomic<T> needs a T whose encoding has a bounded size (a scalar, an enum, a struct "
                "of those), since its value may change between the size pass and the write pass");
  static_assert(!enable_identity<T>,
                "bifrons: std::atomic<T> of a T with enable_identity: the T is read into a temporary and stored, "
                "so no pointer could keep its address. Hold the object outside the atomic, or do not give its "
                "type enable_identity");
  static constexpr std::size_t min_size = detail::min_size_of<T>;
  static constexpr std::size_t max_size = detail::max_size_of<T>;
  static constexpr std::size_t size(const std::atomic<T>&) noexcept { return max_size; }
  static std::byte* write(std::byte* out, const std::atomic<T>& a) { return codec<T>::write(out, a.load()); }
  static void read(detail::source& in, std::atomic<T>& a) {
    T value{};
    codec<T>::read(in, value);
    if (!in.failed()) a.store(value);
  }
};
}  // namespace bifrons
