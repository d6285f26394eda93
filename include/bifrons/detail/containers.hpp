// SPDX-License-Identifier: MIT
#pragma once
// Generic codecs for the standard containers; bifrons/types/<container>.hpp bind them to types.
//
// Sequences:   varint(count), then the elements. Elements of arithmetic type form one raw
//              little-endian block (bulk memcpy on little-endian hosts); others are encoded
//              one after another. vector, deque, list and forward_list share this encoding, so
//              a field may change between them.
// Fixed arrays: as sequences without the count (the size is part of the type).
// Sets, maps:  varint(count), then the elements (for maps: key, value) in iteration order
//              (associative.hpp).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "codec.hpp"
#include "creation.hpp"
#include "pointer_traits.hpp"
#include "record_codec.hpp"
#include "scalars.hpp"

namespace bifrons::detail {

template <class T>
concept memcpy_block_element = block_element<T> && block_is_memcpy<T>;

// ---- what a container allocates per element, for the allocation budget ---------------------
//
// The budget must cover what the standard library really allocates, or a few input bytes
// could cost gigabytes: a std::list node holds two links beside the element, a tree node four
// words, a hash table node a link and a cached hash plus a bucket pointer per element. The
// estimates follow libstdc++ (libc++ and MSVC use the same or smaller nodes) and round each
// node up to the allocator's granularity. Only std containers reach these codecs, so the
// concepts below tell them apart by their interface.

template <class C>
concept hash_table = requires(const C& c) { c.bucket_count(); };
template <class C>
concept ordered_tree = requires { typename C::key_compare; };
/// std::deque: random access without contiguous storage.
template <class C>
concept segmented_sequence = random_access_range<C> && !contiguous_range<C>;

/// Bytes a default-constructed T allocates beyond sizeof(T). libstdc++'s std::deque allocates
/// its map (8 pointers) and a first block of 512 bytes even when it is empty, so a sequence
/// of empty deques would otherwise cost 576 bytes per input byte. libc++'s allocates nothing
/// until its first element (first_segment_allocation). Other standard types allocate nothing
/// until they hold elements.
template <class T>
constexpr std::size_t construction_allocation() {
  if constexpr (segmented_sequence<T>) {
#if defined(_LIBCPP_VERSION)
    return 0;
#else
    return 8 * sizeof(void*) + std::max<std::size_t>(512, sizeof(range_value_t<T>));
#endif
  } else if constexpr (std::is_array_v<T>) {
    return std::extent_v<T> * construction_allocation<std::remove_extent_t<T>>();
  } else if constexpr (range<T> && requires { std::tuple_size<T>::value; }) {  // std::array
    return std::tuple_size_v<T> * construction_allocation<range_value_t<T>>();
  } else if constexpr (requires { std::tuple_size<T>::value; }) {  // pair, tuple
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::size_t{0} + ... + construction_allocation<std::remove_cv_t<std::tuple_element_t<I, T>>>());
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    return 0;
  }
}

/// A node of `bytes` as the allocator hands it out.
constexpr std::size_t node_size(std::size_t bytes) noexcept {
  constexpr std::size_t granule = alignof(std::max_align_t);
  return (bytes + granule - 1) / granule * granule;
}

/// Bytes a segmented sequence C (std::deque) allocates once it holds any element, beyond its
/// elements: libc++ allocates a block of 4 KiB (16 elements, for elements of 256 bytes or more)
/// and its map at the first element, so one element of input costs that much; a vector of
/// one-byte deques would otherwise cost 4 KiB per 2 input bytes beyond the budget. (libstdc++'s
/// first block and map come with construction_allocation.)
template <class C>
constexpr std::size_t first_segment_allocation() {
#if defined(_LIBCPP_VERSION)
  if constexpr (segmented_sequence<C>) {
    using V = typename C::value_type;
    return (sizeof(V) < 256 ? std::size_t{4096} : 16 * sizeof(V)) + 4 * sizeof(void*);
  }
#endif
  return 0;
}

/// Bytes charged to the budget for each element of C.
template <class C>
constexpr std::size_t allocation_per_element() {
  using V = typename C::value_type;
  constexpr std::size_t word = sizeof(void*);
  constexpr std::size_t inside = construction_allocation<V>();
  if constexpr (hash_table<C>)
    return node_size(2 * word + sizeof(V)) + word + inside;
  else if constexpr (ordered_tree<C>)
    return node_size(4 * word + sizeof(V)) + inside;
  else if constexpr (random_access_range<C>)  // vector, string, deque: in place
    return sizeof(V) + inside;
  else if constexpr (bidirectional_range<C>)  // list
    return node_size(2 * word + sizeof(V)) + inside;
  else  // forward_list
    return node_size(word + sizeof(V)) + inside;
}

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
  if constexpr (block_element<T> && contiguous_iterator<decltype(std::begin(r))>) {
    return write_block(out, std::to_address(std::begin(r)), n);
  } else if constexpr (block_element<T>) {
    (void)n;
    for (const T e : r) out = store_element(out, e);
    return out;
  } else {
    if constexpr (contiguous_iterator<decltype(std::begin(r))> &&
                  requires(const T* in) { codec<T>::write_runs(out, in, n); }) {
      // Structs of small integers, several fields at a time where the processor can.
      if (std::byte* end = codec<T>::write_runs(out, std::to_address(std::begin(r)), n)) return end;
    }
    (void)n;
    for (const auto& e : r) out = codec<T>::write(out, e);
    return out;
  }
}

/// After a block of n elements at p failed to load: fails at the first element that does not. A
/// bool byte other than 0/1 is an invalid value, as for a scalar bool; any other element that does
/// not load is a wide integer that does not fit the host's type.
template <block_element T>
BIFRONS_COLD_INLINE void fail_at_invalid_element(source& in, const std::byte* p, std::size_t n) {
  T v{};
  std::size_t i = 0;
  while (i + 1 < n && load_element(p + i * wire_width<T>, v)) ++i;
  in.fail_at(std::is_same_v<T, bool> ? errc::invalid_value : errc::value_out_of_range, p + i * wire_width<T>);
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
    if constexpr (contiguous_iterator<It>) {
      ok = read_block(p, std::to_address(first), n);
    } else {
      for (std::size_t i = 0; i < n; ++i, ++first) ok &= load_element(p + i * wire_width<T>, *first);
    }
    if (!ok) [[unlikely]]
      fail_at_invalid_element<T>(in, p, n);
  } else if constexpr (min_size_of<T> == 0) {
    // Elements that can take no bytes are made of std::monostate, std::tuple<>, std::array<T, 0>
    // and std::bitset<0> alone (a struct, a tag or a count takes a byte): there is nothing to
    // read, and a count of them costs what the container allocates, not a loop over them.
    (void)in, (void)first, (void)n, (void)reused;
  } else {
    // Elements that were there before are as fresh as the container's owner; the rest were just
    // constructed. (Two loops rather than computing the flag per element.)
    const bool parent_fresh = in.fresh;
    fresh_guard guard(in, parent_fresh);
    [[maybe_unused]] auto path = element_path<T>(in);
    std::size_t i = 0;
    if constexpr (contiguous_iterator<It> && requires(T* out) { codec<T>::read_runs(in, out, n); }) {
      // Structs of small integers, several fields at a time where the processor can; read() takes
      // the first element that read_runs does not, and the rest.
      i = codec<T>::read_runs(in, std::to_address(first), n);
      first += static_cast<std::iter_difference_t<It>>(i);
    }
    for (; i < reused; ++i, ++first) {
      in.fresh = parent_fresh;
      path.element(i);
      codec<T>::read(in, *first);
      if (in.failed()) [[unlikely]]
        return;
    }
    for (; i < n; ++i, ++first) {
      in.fresh = true;
      path.element(i);
      codec<T>::read(in, *first);
      if (in.failed()) [[unlikely]]
        return;
    }
  }
}

/// The most elements of a misaligned block that replace_with_block reads with an element loop.
inline constexpr std::size_t small_block_elements = 16;

/// Replaces the contents of c with the n elements whose bytes are at p, for elements whose memory
/// layout is their wire layout (memcpy_block_element, or records with memory_is_wire), in one
/// pass where the standard library allows. The input is readable from `readable` on (its first
/// byte): a block is never at its very start, since a count comes before it.
///
/// A string or vector that already holds at least n elements (an object being reused) is
/// overwritten in place and cut: assign() takes an out-of-line path (std::string::_M_replace)
/// that costs several times more for short strings (docs/design.md). Otherwise, from a pointer
/// range of a trivially copyable type the standard libraries' assign() is a single memmove into
/// fresh storage at every optimization level; from any other iterator it is an element loop,
/// which GCC vectorizes only at -O3. A `const T*` into the
/// input is only valid where the block is aligned for T (clang assumes the alignment of
/// memmove's typed arguments, and UBSan checks it). A block after a varint count rarely is, and
/// then every way to fill new storage writes each byte twice:
///   - resize() then one copy: resize() zero-fills with memset, which above 2 KiB (glibc's
///     x86_rep_stosb_threshold, 2,048 bytes) takes the `rep stosb` path, slow on some virtual
///     machines as `rep movsb` is (the benchmark report's memcpy probe);
///   - assign() from the aligned address just before the block, which is still input, then the
///     bytes moved down into place: the second copy overlaps the first and runs at about half
///     the speed of a plain one, so up to 2 KiB it loses (measurements: docs/design.md).
/// Neither wins everywhere: where glibc's memmove itself takes `rep movsb` (its default on this
/// machine, which the benchmark switches off), the overlapping move loses at every size.
/// Up to small_block_elements elements, the element loop wins instead: it writes each byte once
/// and calls neither memset nor memcpy, whose fixed cost is most of a small block's (Account's
/// three orders as records; measurements: docs/design.md).
template <class C>
BIFRONS_INLINE void replace_with_block(C& c, const std::byte* p, std::size_t n, const std::byte* readable) {
  using T = typename C::value_type;
  if constexpr (contiguous_range<C> && requires { c.erase(c.begin(), c.end()); }) {
    if (n <= c.size()) {
      // Cut, then copy: with nothing left to do after the copy, memcpy is a tail call.
      c.erase(c.begin() + static_cast<std::ptrdiff_t>(n), c.end());
      copy_bytes(std::data(c), p, n * sizeof(T));
      return;
    }
  }
  const std::size_t misalignment = sizeof(T) == 1 ? 0 : reinterpret_cast<std::uintptr_t>(p) % alignof(T);
  if (misalignment == 0) {
    const auto* first = reinterpret_cast<const T*>(p);
    c.assign(first, first + n);
  } else if constexpr (contiguous_range<C>) {
    const std::size_t size = n * sizeof(T);
    if (n <= small_block_elements) {
      c.assign(block_iterator<T>(p), block_iterator<T>(p + size));
    } else if (size > 2048 && static_cast<std::size_t>(p - readable) >= misalignment) {
      const auto* first = reinterpret_cast<const T*>(p - misalignment);
      c.assign(first, first + n);
      auto* bytes = reinterpret_cast<std::byte*>(std::data(c));
      std::memmove(bytes, bytes + misalignment, size - misalignment);
      copy_bytes(bytes + size - misalignment, p + size - misalignment, misalignment);
    } else {
      c.resize(n);
      copy_bytes(std::data(c), p, size);
    }
  } else {
    c.assign(block_iterator<T>(p), block_iterator<T>(p + n * sizeof(T)));
  }
}

/// replace_with_block, out of line (see sequence_codec::read_whole).
template <class C>
[[gnu::noinline]] void replace_with_block_out_of_line(C& c, const std::byte* p, std::size_t n,
                                                      const std::byte* readable) {
  replace_with_block(c, p, n, readable);
}

/// Encoded size of a sequence of the n elements of r: the count, then the elements (records:
/// the stride and the block, when there are any).
template <class Range>
BIFRONS_INLINE std::size_t sequence_size(const Range& r, std::size_t n) {
  using T = std::remove_cvref_t<decltype(*std::begin(r))>;
  if constexpr (record<T>)
    return n == 0 ? 1 : varint_size(n) + varint_size(record_layout<T>::size) + n * record_layout<T>::size;
  else
    return varint_size(n) + elements_size(r, n);
}

template <class Range>
BIFRONS_INLINE std::byte* write_sequence(std::byte* out, const Range& r, std::size_t n) {
  using T = std::remove_cvref_t<decltype(*std::begin(r))>;
  out = write_varint(out, n);
  if constexpr (record<T>) {
    if (n == 0) return out;
    return write_records(write_varint(out, record_layout<T>::size), r, n);
  } else {
    return write_elements(out, r, n);
  }
}

/// vector, deque, list, forward_list, basic_string: count + elements.
template <class C>
struct sequence_codec {
  using T = typename C::value_type;
  static constexpr std::size_t min_size = 1;
  /// The elements are stored in one piece, each as its wire bytes.
  static constexpr bool elements_are_wire = [] {
    if constexpr (!contiguous_range<C>)
      return false;
    else if constexpr (record<T>)
      return record_layout<T>::memory_is_wire && sizeof(T) == record_layout<T>::size;
    else
      return memcpy_block_element<T>;
  }();

  static std::size_t size(const C& c) { return sequence_size(c, range_size(c)); }
  /// Elements of a bounded size (small structs, integers) are counted at their maximum, without
  /// visiting them; elements of an unbounded size that have a bound of their own (structs: each
  /// bounded field at its maximum, so that a 64-bit id costs no varint length) are summed by it.
  static std::size_t size_bound(const C& c) {
    constexpr std::size_t max = max_size_of<T>;
    if constexpr (!block_element<T> && !record<T>) {
      if constexpr (max != unbounded && max != 0) {
        const std::size_t n = range_size(c);
        if (n <= (unbounded - max_varint_size) / max) return varint_size(n) + n * max;
      } else if constexpr (requires(const T& e) { codec_of<T>::size_bound(e); }) {
        std::size_t total = varint_size(range_size(c));
        for (const T& e : c) total += codec_of<T>::size_bound(e);
        return total;
      }
    }
    return size(c);
  }
  static std::byte* write(std::byte* out, const C& c) { return write_sequence(out, c, range_size(c)); }
  /// The count (and a record block's stride), then the elements' bytes as they are in memory
  /// (see raw_tail_codec).
  static std::byte* write_head(std::byte* out, const C& c)
    requires elements_are_wire
  {
    const std::size_t n = range_size(c);
    out = write_varint(out, n);
    if constexpr (record<T>) {
      if (n != 0) out = write_varint(out, record_layout<T>::size);
    }
    return out;
  }
  static std::span<const std::byte> tail(const C& c) noexcept
    requires elements_are_wire
  {
    return {reinterpret_cast<const std::byte*>(std::data(c)), std::size(c) * sizeof(T)};
  }
  /// Reads c from a whole input, without a source, when that input is exactly a count of one or
  /// two bytes, then that many elements, within the limits of check_count: a top-level vector of
  /// numbers or string (from_bytes), where read_all's fixed cost outweighed the copy. A
  /// block of records whose memory is their wire layout too, when its stride is one byte and this
  /// program's record size: any other stride (an older or a newer writer's record) takes read().
  /// Returns false, having changed nothing, for any other input: read() then reads it and reports
  /// what is wrong, with its offset.
  ///
  /// Into a container being reused (not fresh) that holds enough elements, replace_with_block's
  /// reuse branch is all that is inlined (cut, then a tail-called memcpy), and new storage, which
  /// allocates anyway, is out of line: this path then sets up no frame. Inline, the frame and six
  /// saved registers of the new-storage paths took half the time of a short read. A fresh
  /// container keeps them inline, where it is known to be empty.
  BIFRONS_INLINE static bool read_whole(std::span<const std::byte> in, C& c, const read_options& options, bool fresh)
    requires elements_are_wire && (!record<T> || record_layout<T>::size < 0x80) &&
             requires(const T* p) { c.assign(p, p); }
  {
    const std::byte* p = in.data();
    if (in.empty()) return false;
    std::size_t n = static_cast<std::uint8_t>(p[0]);
    std::size_t head = 1;
    if (n >= 0x80) {
      if (in.size() < 2 || static_cast<std::uint8_t>(p[1]) >= 0x80) return false;
      const word_varint w = two_byte_varint(p);
      if (!w.canonical) return false;
      n = static_cast<std::size_t>(w.value);
      head = 2;
    }
    if constexpr (record<T>) {
      if (n != 0) {
        if (in.size() == head || static_cast<std::uint8_t>(p[head]) != record_layout<T>::size) return false;
        ++head;
      }
    }
    if (in.size() - head != n * sizeof(T) || n > options.max_elements || n > c.max_size() ||
        n > options.max_alloc_bytes / allocation_per_element<C>())
      return false;
    if (fresh || n <= c.size())
      replace_with_block(c, p + head, n, p);
    else
      replace_with_block_out_of_line(c, p + head, n, p);
    return true;
  }
  static void read(source& in, C& c) {
    if constexpr (record<T>) return read_record_block(in, c);
    [[maybe_unused]] const std::byte* start = in.position();
    if constexpr (memcpy_block_element<T> && requires(const T* p) { c.assign(p, p); }) {
      const std::size_t n = in.read_block_count(sizeof(T), allocation_per_element<C>(), c.max_size());
      if (in.failed() || !charge_first_segment(in, start, n)) return;
      // read_block_count checked that the input holds n elements of sizeof(T) bytes (their wire
      // width).
      const std::byte* p = in.skip(n * sizeof(T));
      if constexpr (sizeof(T) == 1 && contiguous_range<C>) {
        // Strings: the same steps as replace_with_block, written out here because behind the
        // helper GCC no longer inlined std::string's assign, on every string of every read.
        if (n <= c.size()) {
          copy_bytes(std::data(c), p, n);
          c.erase(c.begin() + static_cast<std::ptrdiff_t>(n), c.end());
        } else {
          const auto* first = reinterpret_cast<const T*>(p);
          c.assign(first, first + n);
        }
      } else {
        replace_with_block(c, p, n, in.begin());
      }
      return;
    }
    const std::size_t n = in.read_count(element_min_size<T>(), allocation_per_element<C>(), c.max_size());
    if (in.failed() || !charge_first_segment(in, start, n)) return;
    if constexpr (!default_created<T> || !readable_in_place<T>) {
      read_created(in, c, n);
    } else {
      const std::size_t reused = std::min(range_size(c), n);
      c.resize(n);
      read_elements(in, std::begin(c), n, reused);
    }
  }

 private:
  /// Charges first_segment_allocation (libc++'s deque) once c will hold any of the n elements
  /// whose count starts at `at`; false after a refusal.
  BIFRONS_INLINE static bool charge_first_segment([[maybe_unused]] source& in, [[maybe_unused]] const std::byte* at,
                                                  [[maybe_unused]] std::size_t n) noexcept {
    if constexpr (first_segment_allocation<C>() != 0)
      return n == 0 || in.charge(at, 1, first_segment_allocation<C>());
    else
      return true;
  }

  /// Elements that resize() cannot make (no public default constructor, see creation.hpp): the
  /// elements kept are read into where they can be, and each new one is created in place.
  static void read_created(source& in, C& c, std::size_t n) {
    if constexpr (random_access_range<C> || bidirectional_range<C>) {
      if (!readable_in_place<T>) c.clear();
      if (n < c.size()) c.erase(std::next(c.begin(), static_cast<std::ptrdiff_t>(n)), c.end());
      // Room for every element before any is read: growing later would move the elements read
      // already, and with them what the object table recorded in them (owning slots, objects
      // with identity).
      if constexpr (requires { c.reserve(n); }) c.reserve(n);
      const std::size_t reused = c.size();
      read_elements(in, std::begin(c), reused, reused);
      if (in.failed()) return;
      [[maybe_unused]] auto path = element_path<T>(in);
      for (std::size_t i = reused; i < n; ++i) {
        path.element(i);
        emplace_read<T>(in, [&](auto&&... a) -> T& { return c.emplace_back(std::forward<decltype(a)>(a)...); });
        if (in.failed()) [[unlikely]]
          return;
      }
    } else {  // forward_list: made afresh
      c.clear();
      auto last = c.before_begin();
      [[maybe_unused]] auto path = element_path<T>(in);
      for (std::size_t i = 0; i < n; ++i) {
        path.element(i);
        emplace_read<T>(in, [&](auto&&... a) -> T& {
          last = c.emplace_after(last, std::forward<decltype(a)>(a)...);
          return *last;
        });
        if (in.failed()) [[unlikely]]
          return;
      }
    }
  }

  /// varint(count), then (if count > 0) varint(stride) and count x stride bytes.
  static void read_record_block(source& in, C& c) {
    [[maybe_unused]] const std::byte* start = in.position();
    const record_block block = take_record_block<T>(in, allocation_per_element<C>(), c.max_size());
    if (in.failed()) return;
    const auto [p, n, stride] = block;
    if (n == 0) return c.clear();
    if (!charge_first_segment(in, start, n)) return;
    if constexpr (record_layout<T>::memory_is_wire && contiguous_range<C> &&
                  requires(const T* q) { c.assign(q, q + n); }) {
      if (stride == record_layout<T>::size) return replace_with_block(c, p, n, in.begin());
    }
    const std::size_t reused = std::min(range_size(c), n);
    c.resize(n);
    read_records(in, p, stride, std::begin(c), n, reused);
  }
};

/// std::array and C arrays: the elements only.
template <class A, class T, std::size_t N>
struct fixed_array_codec {
  static constexpr std::size_t min_size = [] {
    if constexpr (record<T>)
      return N == 0 ? 0 : 1;  // varint(stride), then N records of the stride
    else
      return N * element_min_size<T>();
  }();
  // Arrays of bytes and of host-layout numbers (char symbol[10], std::array<double, 3>) are one
  // memcpy of a size known at compile time, which the compiler turns into a few moves.
  static constexpr bool raw = memcpy_block_element<T> && N != 0;
  static constexpr std::size_t fixed_width = raw ? N * sizeof(T) : 0;
  static constexpr std::size_t max_size = [] {
    if constexpr (block_element<T>)
      return N * wire_width<T>;
    else if constexpr (record<T>)
      return N == 0 ? 0 : varint_size(record_layout<T>::size) + N * record_layout<T>::size;
    else if constexpr (max_size_of<T> >= unbounded / (N == 0 ? 1 : N))  // unbounded, or N of them would overflow
      return unbounded;
    else
      return N * max_size_of<T>;
  }();

  static std::size_t size(const A& a) {
    if constexpr (record<T>)
      return max_size;
    else
      return elements_size(a, N);
  }
  static std::byte* write(std::byte* out, const A& a) {
    if constexpr (record<T>) {
      if constexpr (N == 0) return out;
      return write_records(write_varint(out, record_layout<T>::size), a, N);
    } else if constexpr (raw) {
      std::memcpy(out, std::data(a), N * sizeof(T));
      return out + N * sizeof(T);
    } else {
      return write_elements(out, a, N);
    }
  }
  static void read(source& in, A& a) {
    if constexpr (record<T>) {
      if constexpr (N == 0) return;
      const std::uint64_t stride = read_stride<T>(in);
      if (in.failed()) return;
      if (stride != 0 && N > in.remaining() / stride) return in.fail_short(in.missing_for(N, stride));
      const auto width = static_cast<std::size_t>(stride);
      read_records(in, in.skip(N * width), width, std::begin(a), N, in.fresh ? 0 : N);
    } else if constexpr (raw) {
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

}  // namespace bifrons::detail
