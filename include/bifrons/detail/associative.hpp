// SPDX-License-Identifier: MIT
#pragma once
// The generic codec of sets and maps, ordered and unordered (bifrons/types/{map,set,
// unordered_map,unordered_set}.hpp bind it to types): varint(count), then the elements (for maps:
// key, value) in iteration order, or in the canonical order where iteration order depends on the
// host (docs/format.md). Apart from containers.hpp because it alone sorts: <algorithm> stays out
// of the core's include graph (codec.hpp says why).

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "containers.hpp"

namespace bifrons::detail {

/// Inserts one element read from the input: where it went, or end() (duplicate_key) if a unique
/// container already holds its key.
template <class C, class V>
typename C::iterator insert_element(C& c, V&& v) {
  const std::size_t before = c.size();
  typename C::iterator it;
  if constexpr (requires { c.emplace_hint(c.end(), std::forward<V>(v)); })
    it = c.emplace_hint(c.end(), std::forward<V>(v));
  else
    it = c.emplace(std::forward<V>(v));
  return c.size() != before ? it : c.end();
}

/// The objects read inside element e (pointer_codec.hpp) moved with it to *it. A map's element is
/// read as pair<Key, T> and stored as pair<const Key, T>: its halves are moved separately (the
/// layouts may differ), and only the key is frozen (object_table::moved_range); a set's element,
/// a pair or not, is all key.
template <class Element, class It>
void element_moved(temporary_objects& objects, Element& e, It it) {
  if constexpr (!std::is_same_v<std::remove_cvref_t<decltype(*it)>, Element>) {
    objects.moved_to({{&e.first, sizeof e.first, const_cast<std::remove_const_t<decltype(it->first)>*>(&it->first),
                       true},
                      {&e.second, sizeof e.second, &it->second}},
                     moves_in_place<std::remove_cvref_t<decltype(e.first)>, std::remove_cvref_t<decltype(e.second)>>);
  } else {
    objects.moved_to({{&e, sizeof e, const_cast<Element*>(&*it), true}}, moves_in_place<Element>);
  }
}

/// std::unordered_set and std::unordered_map (not the multi forms, whose equal keys share a
/// bucket legitimately).
template <class C>
concept unique_hash_table = hash_table<C> && requires(C& c, typename C::value_type v) {
  { c.emplace(std::move(v)).second } -> std::convertible_to<bool>;
};

/// set, map, unordered_set and unordered_map: one element per key.
template <class C>
concept unique_keys = requires(C& c, typename C::value_type v) {
  { c.emplace(std::move(v)).second } -> std::convertible_to<bool>;
};

/// The key of an element (of the container's value_type, or of the pair<Key, T> read for a map).
template <class C, class E>
const typename C::key_type& key_of(const E& v) noexcept {
  if constexpr (requires { typename C::mapped_type; })
    return v.first;
  else
    return v;
}

// ---- the canonical order of sets and maps ---------------------------------------------------------
//
// An ordered set or map is written in its comparator's order, and `<` on char depends on the host:
// {'a', '\x80'} iterates 80 61 where char is signed (x86) and 61 80 where it is unsigned (ARM,
// PowerPC, s390x), and likewise for wchar_t. The canonical order compares char and wchar_t as
// unsigned code units, as std::string already does (char_traits<char> compares unsigned chars),
// also inside pairs, tuples, arrays, sequences and optionals; where the host's `<` differs, the
// writer sorts the elements into that order (docs/format.md, section 12).

/// Whether `<` on T depends on the signedness of char or wchar_t on this host.
template <class T>
constexpr bool host_dependent_order() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, char> || std::is_same_v<U, wchar_t>)
    return std::is_signed_v<U>;
  else if constexpr (requires { typename U::traits_type; })  // basic_string: Traits::compare
    return std::is_same_v<typename U::traits_type, std::char_traits<wchar_t>> && std::is_signed_v<wchar_t>;
  else if constexpr (requires { typename U::key_compare; })  // nested sets and maps: see format.md
    return false;
  else if constexpr (requires {
                       typename U::first_type;
                       typename U::second_type;
                     })
    return host_dependent_order<typename U::first_type>() || host_dependent_order<typename U::second_type>();
  else if constexpr (range<U>)
    return host_dependent_order<range_value_t<U>>();
  else if constexpr (requires(const U& u) {
                       typename U::value_type;
                       u.has_value();
                     })
    return host_dependent_order<typename U::value_type>();
  else if constexpr (requires { std::tuple_size<U>::value; })
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (false || ... || host_dependent_order<std::tuple_element_t<I, U>>());
    }(std::make_index_sequence<std::tuple_size_v<U>>{});
  else
    return false;
}

/// `<` with char and wchar_t compared as unsigned code units, for the types host_dependent_order
/// looks into; `<` itself for the others.
template <class T>
bool code_unit_less(const T& a, const T& b) {
  using U = std::remove_cv_t<T>;
  if constexpr (!host_dependent_order<U>()) {
    return a < b;
  } else if constexpr (std::is_same_v<U, char> || std::is_same_v<U, wchar_t>) {
    return static_cast<std::make_unsigned_t<U>>(a) < static_cast<std::make_unsigned_t<U>>(b);
  } else if constexpr (requires { typename U::first_type; }) {
    return code_unit_less(a.first, b.first) ||
           (!code_unit_less(b.first, a.first) && code_unit_less(a.second, b.second));
  } else if constexpr (range<U>) {
    return std::lexicographical_compare(std::begin(a), std::end(a), std::begin(b), std::end(b),
                                        [](const auto& x, const auto& y) { return code_unit_less(x, y); });
  } else if constexpr (requires { a.has_value(); }) {
    return !a.has_value() ? b.has_value() : b.has_value() && code_unit_less(*a, *b);
  } else {
    return []<std::size_t... I>(const U& x, const U& y, std::index_sequence<I...>) {
      // Lexicographic: the first element that differs decides.
      int order = 0;
      (void)((order = code_unit_less(std::get<I>(x), std::get<I>(y))   ? -1
                      : code_unit_less(std::get<I>(y), std::get<I>(x)) ? 1
                                                                       : 0,
              order == 0) &&
             ...);
      return order < 0;
    }(a, b, std::make_index_sequence<std::tuple_size_v<U>>{});
  }
}

/// 1 (ascending) or -1 (descending) when the canonical order of the ordered set or map C differs
/// from its iteration order on this host: keys whose `<` depends on the host, compared by
/// std::less or std::greater. 0 otherwise: any other comparator's order is the canonical one.
template <class C>
constexpr int canonical_sort() {
  if constexpr (!requires { typename C::key_compare; }) {
    return 0;
  } else {
    using K = typename C::key_type;
    using Compare = typename C::key_compare;
    if constexpr (!host_dependent_order<K>())
      return 0;
    else if constexpr (std::is_same_v<Compare, std::less<K>> || std::is_same_v<Compare, std::less<>>)
      return 1;
    else if constexpr (std::is_same_v<Compare, std::greater<K>> || std::is_same_v<Compare, std::greater<>>)
      return -1;
    else
      return 0;
  }
}

/// Calls f on each element of the set or map c, in the canonical order.
template <class C, class F>
void for_each_in_canonical_order(const C& c, F&& f) {
  constexpr int direction = canonical_sort<C>();
  if constexpr (direction == 0) {
    for (const auto& e : c) f(e);
  } else {
    // Sorted by the code units; equal keys of a multiset or multimap keep their order (the
    // position breaks ties: std::stable_sort's temporary buffer is deprecated in C++20).
    // Only these rare key types pay for the allocation.
    using element = typename C::value_type;
    std::vector<std::pair<const element*, std::size_t>> sorted;
    sorted.reserve(c.size());
    for (const auto& e : c) sorted.emplace_back(&e, sorted.size());
    std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) {
      const auto& a = key_of<C>(*(direction > 0 ? x : y).first);
      const auto& b = key_of<C>(*(direction > 0 ? y : x).first);
      if (code_unit_less(a, b)) return true;
      if (code_unit_less(b, a)) return false;
      return x.second < y.second;
    });
    for (const auto& entry : sorted) f(*entry.first);
  }
}

/// set, multiset, map, multimap and their unordered forms.
/// Map elements are written as the container's pair<const Key, T> and read as pair<Key, T>.
template <class C, class Element>
struct associative_codec {
  static constexpr std::size_t min_size = 1;

  static std::size_t size(const C& c) {
    std::size_t total = varint_size(c.size());
    const auto add = [&](const auto& e) { total += codec_of<decltype(e)>::size(e); };
    // The size pass decides pointers' ids, in the order the write pass will visit them.
    if constexpr (may_hold_pointers<Element>())
      for_each_in_canonical_order(c, add);
    else
      for (const auto& e : c) add(e);
    return total;
  }
  static std::byte* write(std::byte* out, const C& c) {
    out = write_varint(out, c.size());
    for_each_in_canonical_order(c, [&](const auto& e) { out = codec_of<decltype(e)>::write(out, e); });
    return out;
  }
  static void read(source& in, C& c) {
    const std::size_t n = in.read_count(min_size_of<Element>, allocation_per_element<C>(), c.max_size());
    c.clear();
    if (in.failed()) return;
    // The count was charged for a bucket per element, so this stays within the budget.
    if constexpr (requires { c.reserve(n); }) c.reserve(n);
    fresh_guard guard(in, true);
    [[maybe_unused]] auto path = element_path<Element>(in);
    for (std::size_t i = 0; i < n; ++i) {
      const std::byte* at = in.position();
      path.element(i);
      if constexpr (default_created<Element>) {
        Element e{};
        if (!read_one(in, c, e, at, [&] { codec<Element>::read(in, e); })) return;
      } else {  // made by creation.hpp, into the optional
        std::optional<Element> e;
        if (!read_one(in, c, e, at, [&] {
              emplace_read<Element>(in, [&](auto&&... a) -> Element& {
                return e.emplace(std::forward<decltype(a)>(a)...);
              });
            }))
          return;
      }
    }
  }

 private:
  static Element& element(Element& e) noexcept { return e; }
  static Element& element(std::optional<Element>& e) noexcept { return *e; }

  /// Reads one element into `holder` (an Element, or an optional that the read fills) and
  /// inserts it; false once the read has failed.
  template <class Holder, class Read>
  static bool read_one(source& in, C& c, Holder& holder, const std::byte* at, Read&& read) {
    if constexpr (may_hold_pointers<Element>()) {
      temporary_objects objects(in);  // after the holder: it acts before the holder dies
      read();
      if (in.failed()) [[unlikely]]
        return false;
      Element& e = element(holder);
      // A duplicate is found before e moves: the copy a container makes and destroys when it
      // refuses a key would take e's owning raw pointers with it.
      if constexpr (unique_keys<C>) {
        if (c.find(key_of<C>(e)) != c.end()) [[unlikely]] {
          in.fail_at(errc::duplicate_key, at);
          return false;
        }
      }
      if (const auto it = insert_read(in, c, std::move(e), at); it != c.end()) element_moved(objects, e, it);
    } else {
      read();
      if (in.failed()) [[unlikely]]
        return false;
      (void)insert_read(in, c, std::move(element(holder)), at);
    }
    return !in.failed();
  }

  /// Inserts an element read at `at`: where it went, or end() for a duplicate key (the error).
  /// Past the bucket limit, the element is in (its iterator) but the read has failed.
  BIFRONS_INLINE static typename C::iterator insert_read(source& in, C& c, Element&& e, const std::byte* at) {
    if constexpr (unique_hash_table<C>) {
      const auto [it, inserted] = c.emplace(std::move(e));
      if (!inserted) [[unlikely]] {
        in.fail_at(errc::duplicate_key, at);
        return c.end();
      }
      // Colliding keys make every insertion scan their bucket: refuse a bucket past the limit.
      // (While the table holds fewer keys than the limit, no bucket can pass it.)
      if (c.size() > in.max_bucket_size() && c.bucket_size(c.bucket(key_of<C>(*it))) > in.max_bucket_size())
          [[unlikely]]
        in.fail_at(errc::bucket_limit_exceeded, at);
      return it;
    } else {
      const auto it = insert_element(c, std::move(e));
      if (it == c.end()) [[unlikely]]
        in.fail_at(errc::duplicate_key, at);
      return it;
    }
  }
};

}  // namespace bifrons::detail
