#pragma once
// Generic codecs for the standard containers; bifrons/types/<container>.hpp bind them to types.
//
// Sequences:   varint(count), then the elements. Elements of arithmetic type form one raw
//              little-endian block (bulk memcpy on little-endian hosts); others are encoded
//              one after another. vector, deque, list and forward_list share this encoding, so
//              a field may change between them.
// Fixed arrays: as sequences without the count (the size is part of the type).
// Sets, maps:  varint(count), then the elements (for maps: key, value) in iteration order.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <ranges>
#include <type_traits>
#include <utility>

#include "../types/arithmetic.hpp"
#include "codec.hpp"

namespace bifrons::detail {

/// Restores source::fresh when a container is done with its elements.
class fresh_scope {
 public:
  explicit fresh_scope(source& in) noexcept : in_(in), saved_(in.fresh) {}
  fresh_scope(const fresh_scope&) = delete;
  fresh_scope& operator=(const fresh_scope&) = delete;
  ~fresh_scope() { in_.fresh = saved_; }

 private:
  source& in_;
  bool saved_;
};

template <class T>
concept memcpy_block_element = block_element<T> && block_is_memcpy<T>;

/// Fewest bytes one element takes inside a sequence.
template <class T>
constexpr std::size_t element_min_size() {
  if constexpr (block_element<T>)
    return wire_width<T>;
  else
    return min_size_of<T>;
}

template <class Range>
std::size_t range_size(const Range& r) {
  if constexpr (requires { r.size(); })
    return static_cast<std::size_t>(r.size());
  else
    return static_cast<std::size_t>(std::distance(std::begin(r), std::end(r)));
}

/// Encoded size of the elements of r (without a count).
template <class Range>
std::size_t elements_size(const Range& r, std::size_t n) {
  using T = std::remove_cvref_t<decltype(*std::begin(r))>;
  if constexpr (block_element<T>) {
    return n * wire_width<T>;
  } else {
    std::size_t total = 0;
    for (const auto& e : r) total += codec<T>::size(e);
    return total;
  }
}

template <class Range>
std::byte* write_elements(std::byte* out, const Range& r, std::size_t n) {
  using T = std::remove_cvref_t<decltype(*std::begin(r))>;
  if constexpr (block_element<T> && std::contiguous_iterator<decltype(std::begin(r))>) {
    return write_block(out, std::to_address(std::begin(r)), n);
  } else if constexpr (block_element<T>) {
    (void)n;
    for (const T e : r) out = store_element(out, e);
    return out;
  } else {
    (void)n;
    for (const auto& e : r) out = codec<T>::write(out, e);
    return out;
  }
}

/// Reads elements into the n elements already in [first, first + n); elements before
/// reused_end were there before the read (not fresh).
template <class It>
void read_elements(source& in, It first, std::size_t n, std::size_t reused) {
  using T = std::iter_value_t<It>;
  if constexpr (block_element<T>) {
    (void)reused;
    const std::byte* p = in.take(n * wire_width<T>);
    if (!p) return;
    bool ok = true;
    if constexpr (std::contiguous_iterator<It>) {
      ok = read_block(p, std::to_address(first), n);
    } else {
      for (std::size_t i = 0; i < n; ++i, ++first) ok &= load_element(p + i * wire_width<T>, *first);
    }
    if (!ok) [[unlikely]] {
      in.rewind(p);
      // A bool byte other than 0/1 is an invalid value, as for a scalar bool; any other
      // element that does not load is a wide integer that does not fit the host's type.
      in.fail(std::is_same_v<T, bool> ? errc::invalid_value : errc::value_out_of_range);
    }
  } else {
    fresh_scope scope(in);
    // Elements that were there before are as fresh as the container's owner; the rest were just
    // constructed. (Two loops rather than computing the flag per element.)
    const bool parent_fresh = in.fresh;
    std::size_t i = 0;
    for (; i < reused; ++i, ++first) {
      in.fresh = parent_fresh;
      codec<T>::read(in, *first);
      if (in.failed()) [[unlikely]] return;
    }
    for (; i < n; ++i, ++first) {
      in.fresh = true;
      codec<T>::read(in, *first);
      if (in.failed()) [[unlikely]] return;
    }
  }
}

/// vector, deque, list, forward_list, basic_string: count + elements.
template <class C>
struct sequence_codec {
  using T = typename C::value_type;
  static constexpr std::size_t min_size = 1;

  static std::size_t size(const C& c) {
    const std::size_t n = range_size(c);
    return varint_size(n) + elements_size(c, n);
  }
  /// Elements of a bounded size (small structs, integers) are counted at their maximum, without
  /// visiting them.
  static std::size_t size_bound(const C& c) {
    constexpr std::size_t max = max_size_of<T>;
    if constexpr (!block_element<T> && max != unbounded && max != 0) {
      const std::size_t n = range_size(c);
      if (n <= (unbounded - max_varint_size) / max) return varint_size(n) + n * max;
    }
    return size(c);
  }
  static std::byte* write(std::byte* out, const C& c) {
    const std::size_t n = range_size(c);
    return write_elements(write_varint(out, n), c, n);
  }
  static void read(source& in, C& c) {
    const std::size_t n = in.read_count(element_min_size<T>(), sizeof(T));
    if (in.failed()) return;
    if constexpr (memcpy_block_element<T> && requires(const T* p) { c.assign(p, p + n); }) {
      // assign() copies into fresh storage in one pass; resize() would zero it first.
      const std::byte* p = in.take(n * sizeof(T));
      if (!p) return;
      if constexpr (std::ranges::contiguous_range<C> && requires { c.erase(c.begin(), c.end()); }) {
        // Reading into a string or vector that already holds at least n elements (an object
        // being reused): overwrite them in place and cut off the rest. assign() takes an
        // out-of-line path (std::string::_M_replace: about 70 instructions for a 4-character
        // name, where this takes about 15).
        if (n <= c.size()) {
          copy_bytes(std::ranges::data(c), p, n * sizeof(T));
          c.erase(c.begin() + static_cast<std::ptrdiff_t>(n), c.end());
          return;
        }
      }
      if constexpr (sizeof(T) == 1) {
        const auto* first = reinterpret_cast<const T*>(p);
        c.assign(first, first + n);
      } else {
        c.assign(block_iterator<T>(p), block_iterator<T>(p + n * sizeof(T)));
      }
      return;
    }
    const std::size_t reused = std::min(range_size(c), n);
    c.resize(n);
    read_elements(in, std::begin(c), n, reused);
  }
};

/// std::array and C arrays: the elements only.
template <class A, class T, std::size_t N>
struct fixed_array_codec {
  static constexpr std::size_t min_size = N * element_min_size<T>();
  // Arrays of bytes and of host-layout numbers (char symbol[10], std::array<double, 3>) are one
  // memcpy of a size known at compile time, which the compiler turns into a few moves.
  static constexpr bool raw = memcpy_block_element<T> && N != 0;
  static constexpr std::size_t fixed_width = raw ? N * sizeof(T) : 0;
  static constexpr std::size_t max_size = [] {
    if constexpr (block_element<T>)
      return N * wire_width<T>;
    else if constexpr (max_size_of<T> == unbounded || N > unbounded / (max_size_of<T> + 1))
      return unbounded;
    else
      return N * max_size_of<T>;
  }();

  static std::size_t size(const A& a) { return elements_size(a, N); }
  static std::byte* write(std::byte* out, const A& a) {
    if constexpr (raw) {
      std::memcpy(out, std::data(a), N * sizeof(T));
      return out + N * sizeof(T);
    } else {
      return write_elements(out, a, N);
    }
  }
  static void read(source& in, A& a) {
    if constexpr (raw) {
      if (const std::byte* p = in.take(N * sizeof(T))) read_fixed(in, p, a);
    } else {
      // The elements belong to the enclosing object, so they are as fresh as it is.
      read_elements(in, std::begin(a), N, in.fresh ? 0 : N);
    }
  }
  static void read_fixed(source&, const std::byte* p, A& a) noexcept
    requires raw
  {
    std::memcpy(std::data(a), p, N * sizeof(T));
  }
};

/// `ar(bifrons::varint(v))` on an array of integers or enums: the elements as varints (zigzag for
/// signed) instead of one raw block. Sequences keep their count; fixed arrays have none.
template <class C>
concept varint_range = std::ranges::range<C> &&
                       (varint_integer<std::ranges::range_value_t<C>> || std::is_enum_v<std::ranges::range_value_t<C>>);

template <class C>
struct varint_range_codec {
  using T = std::remove_cv_t<std::ranges::range_value_t<C>>;
  static constexpr bool counted = requires(C& c, std::size_t n) { c.resize(n); };
  // A fixed array's element count is sizeof(C) / sizeof(T) for std::array and C arrays alike.
  static constexpr std::size_t min_size = counted ? 1 : sizeof(C) / sizeof(T) * codec<T>::min_size;

  static std::size_t size(const C& c) {
    std::size_t total = counted ? varint_size(range_size(c)) : 0;
    for (const T e : c) total += codec<T>::size(e);
    return total;
  }
  static std::byte* write(std::byte* out, const C& c) {
    if constexpr (counted) out = write_varint(out, range_size(c));
    for (const T e : c) out = codec<T>::write(out, e);
    return out;
  }
  static void read(source& in, C& c) {
    if constexpr (counted) {
      const std::size_t n = in.read_count(codec<T>::min_size, sizeof(T));
      if (in.failed()) return;
      c.resize(n);
    }
    for (auto& e : c) {
      codec<T>::read(in, e);
      if (in.failed()) [[unlikely]] return;
    }
  }
};

/// Inserts one element read from the input; false (duplicate_key) if a unique container
/// already holds its key.
template <class C, class V>
bool insert_element(C& c, V&& v) {
  const std::size_t before = c.size();
  if constexpr (requires { c.emplace_hint(c.end(), std::forward<V>(v)); })
    c.emplace_hint(c.end(), std::forward<V>(v));
  else
    c.emplace(std::forward<V>(v));
  return c.size() != before;
}

/// set, multiset, map, multimap and their unordered forms.
/// Map elements are written as the container's pair<const Key, T> and read as pair<Key, T>.
template <class C, class Element>
struct associative_codec {
  static constexpr std::size_t min_size = 1;

  static std::size_t size(const C& c) {
    std::size_t total = varint_size(c.size());
    for (const auto& e : c) total += codec_of<decltype(e)>::size(e);
    return total;
  }
  static std::byte* write(std::byte* out, const C& c) {
    out = write_varint(out, c.size());
    for (const auto& e : c) out = codec_of<decltype(e)>::write(out, e);
    return out;
  }
  static void read(source& in, C& c) {
    const std::size_t n = in.read_count(min_size_of<Element>, sizeof(typename C::value_type));
    c.clear();
    if (in.failed()) return;
    if constexpr (requires { c.reserve(n); }) c.reserve(n);
    fresh_scope scope(in);
    for (std::size_t i = 0; i < n; ++i) {
      const std::byte* at = in.position();
      Element e{};
      in.fresh = true;
      codec<Element>::read(in, e);
      if (in.failed()) [[unlikely]] return;
      if (!insert_element(c, std::move(e))) [[unlikely]] {
        in.rewind(at);
        in.fail(errc::duplicate_key);
        return;
      }
    }
  }

};

}  // namespace bifrons::detail

namespace bifrons {
template <detail::varint_range C>
struct codec<varint_ref<C>> {
  using inner = detail::varint_range_codec<std::remove_cv_t<C>>;
  static constexpr std::size_t min_size = inner::min_size;
  static std::size_t size(const varint_ref<C>& v) { return inner::size(v.value); }
  static std::byte* write(std::byte* out, const varint_ref<C>& v) { return inner::write(out, v.value); }
  static void read(detail::source& in, varint_ref<C>& v) { inner::read(in, v.value); }
};
}  // namespace bifrons
