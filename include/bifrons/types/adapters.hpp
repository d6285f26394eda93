// SPDX-License-Identifier: MIT
#pragma once
// Container adapters are written as their underlying container. priority_queue writes the heap
// in its internal order and re-heapifies on reading, so hostile input cannot break its invariant.

#include <algorithm>
#include <queue>
#include <stack>

#include "../detail/codec.hpp"
#include "../detail/pointer_traits.hpp"

namespace bifrons {
namespace detail {
// The adapters keep their container in the protected member `c` (and `comp`), which the
// standard specifies; a derived class may name them.
template <class Adapter>
struct adapter_access : Adapter {
  static auto& container(Adapter& a) noexcept { return a.*(&adapter_access::c); }
  static const auto& container(const Adapter& a) noexcept { return a.*(&adapter_access::c); }
  static auto& compare(Adapter& a) noexcept { return a.*(&adapter_access::comp); }
};

template <class Adapter>
struct adapter_codec {
  using C = typename Adapter::container_type;
  using access = adapter_access<Adapter>;
  static constexpr std::size_t min_size = codec<C>::min_size;
  static std::size_t size(const Adapter& a) { return codec<C>::size(access::container(a)); }
  static std::byte* write(std::byte* out, const Adapter& a) { return codec<C>::write(out, access::container(a)); }
  static void read(source& in, Adapter& a) {
    C& c = access::container(a);
    [[maybe_unused]] const std::size_t objects = in.object_count();
    codec<C>::read(in, c);
    if constexpr (requires {
                    a.top();
                    typename Adapter::value_compare;
                  }) {
      if (std::is_heap(c.begin(), c.end(), access::compare(a))) return;
      // Rearranging the elements would move objects that the object table knows by position
      // (pointer_codec.hpp). A writer with the same comparison wrote a heap; other bytes are
      // refused then.
      if constexpr (may_hold_pointers<typename C::value_type>()) {
        if (in.object_count() != objects) return in.fail(errc::invalid_value);
      }
      std::make_heap(c.begin(), c.end(), access::compare(a));
    }
  }
};
}  // namespace detail

template <class T, class C>
struct codec<std::queue<T, C>> : detail::adapter_codec<std::queue<T, C>> {};
template <class T, class C>
struct codec<std::stack<T, C>> : detail::adapter_codec<std::stack<T, C>> {};
template <class T, class C, class Compare>
struct codec<std::priority_queue<T, C, Compare>> : detail::adapter_codec<std::priority_queue<T, C, Compare>> {};
}  // namespace bifrons
