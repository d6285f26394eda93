// SPDX-License-Identifier: MIT
#pragma once
// Records (bifrons/record.hpp): structs of fixed-width fields, stored as blocks in arrays.
//
// A record's encoding is its fields back to back, each at a fixed width, so that its size K is
// known at compile time. Alone, a record is an envelope like a struct's (header
// varint(K << 1), then the K bytes), and so a struct field may hold a record. In a sequence or a
// fixed array, records form one block: the count (sequences only), then varint(stride), then
// count x stride bytes. The stride is the writer's K; a reader whose K differs reads the fields
// that lie wholly inside the stride and leaves the rest at their defaults, which is why a stride
// must end on one of the reader's field boundaries (or beyond its last field).
// See docs/format.md, "Records".

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "../record.hpp"
#include "codec.hpp"
#include "hooks.hpp"
#include "reflection.hpp"
#include "scalars.hpp"

namespace bifrons::detail {

template <class T>
concept record = enable_record<std::remove_cv_t<T>>;

/// How one field type is laid out inside a record: its width, whether its memory layout is its
/// wire layout (so that a block of records can be one memcpy), and how to store and load it.
/// load() returns errc::ok or the reason the bytes are not a value of the field's type.
template <class T>
struct record_field {
  static constexpr bool fixed = false;
};

/// Numbers, bool, char, std::byte: the element encoding of arithmetic blocks (scalars.hpp).
template <block_element T>
struct record_field<T> {
  static constexpr bool fixed = true;
  static constexpr std::size_t width = wire_width<T>;
  static constexpr bool memory_is_wire = block_is_memcpy<T>;
  BIFRONS_INLINE static std::byte* store(std::byte* out, const T& v) noexcept { return store_element(out, v); }
  BIFRONS_INLINE static errc load(const std::byte* p, T& v) noexcept {
    if (load_element(p, v)) [[likely]]
      return errc::ok;
    return std::is_same_v<T, bool> ? errc::invalid_value : errc::value_out_of_range;
  }
};

/// Enums: their underlying integer (codec<E> refuses enums without a fixed underlying type).
template <class E>
  requires std::is_enum_v<E> && (!std::is_same_v<E, std::byte>) && fixed_underlying_enum<E>
struct record_field<E> {
  using U = std::underlying_type_t<E>;
  static constexpr bool fixed = true;
  static constexpr std::size_t width = wire_width<U>;
  static constexpr bool memory_is_wire = block_is_memcpy<U>;
  BIFRONS_INLINE static std::byte* store(std::byte* out, const E& v) noexcept {
    return store_element(out, static_cast<U>(v));
  }
  BIFRONS_INLINE static errc load(const std::byte* p, E& v) noexcept {
    U u{};
    const errc e = record_field<U>::load(p, u);
    v = static_cast<E>(u);
    return e;
  }
};

/// C arrays and std::array of fixed-width fields.
template <class A, class T, std::size_t N>
struct record_array_field {
  static constexpr bool fixed = record_field<T>::fixed;
  static constexpr std::size_t width = N * record_field<T>::width;
  static constexpr bool memory_is_wire = record_field<T>::memory_is_wire && sizeof(A) == width;
  BIFRONS_INLINE static std::byte* store(std::byte* out, const A& a) noexcept {
    if constexpr (memory_is_wire) {
      std::memcpy(out, std::data(a), width);
      return out + width;
    } else {
      for (const T& e : a) out = record_field<T>::store(out, e);
      return out;
    }
  }
  BIFRONS_INLINE static errc load(const std::byte* p, A& a) noexcept {
    if constexpr (memory_is_wire) {
      std::memcpy(std::data(a), p, width);
      return errc::ok;
    } else {
      for (T& e : a) {
        if (const errc r = record_field<T>::load(p, e); r != errc::ok) [[unlikely]]
          return r;
        p += record_field<T>::width;
      }
      return errc::ok;
    }
  }
};
template <class T, std::size_t N>
struct record_field<T[N]> : record_array_field<T[N], T, N> {};
template <class T, std::size_t N>
struct record_field<std::array<T, N>> : record_array_field<std::array<T, N>, T, N> {};

template <class R>
struct record_layout;

/// Nested records: their own fields, in place. (Their size is fixed inside the outer record, so
/// a nested record cannot grow; see docs/evolution.md.)
template <record R>
struct record_field<R> {
  static constexpr bool fixed = true;
  static constexpr std::size_t width = record_layout<R>::size;
  static constexpr bool memory_is_wire = record_layout<R>::memory_is_wire;
  BIFRONS_INLINE static std::byte* store(std::byte* out, const R& v) noexcept {
    return record_layout<R>::store(out, v);
  }
  BIFRONS_INLINE static errc load(const std::byte* p, R& v) noexcept {
    const std::byte* bad = nullptr;
    return record_layout<R>::load(p, width, v, bad);
  }
};

/// Instantiated for each field of a record, so that a refusal names the record, the field's
/// position (0-based) and its type in the compiler's "required from" line.
template <class Record, std::size_t Index, class Field>
struct record_field_check {
  static_assert(record_field<Field>::fixed,
                "bifrons: every field of a record must have a fixed width: integers, enums, floating point, "
                "bool, char, std::byte, C arrays and std::array of these, or records. The record, the "
                "field's position and its type are the arguments of record_field_check<Record, Index, Field> "
                "in the lines above. Store a string as a char array, or do not declare the type a record.");
};

/// Derives from record_field_check for every field, whose static_assert is the refusal, without
/// using a result of it (clang then reports a second error), so that a refusal stays the only
/// error.
template <class R, class Fields, class Indices>
struct record_field_checks;
template <class R, class... F, std::size_t... I>
struct record_field_checks<R, type_list<F...>, std::index_sequence<I...>> : record_field_check<R, I, F>... {};

template <class... F>
constexpr bool all_fields_fixed(type_list<F...>) {
  return (record_field<F>::fixed && ...);
}

template <class R>
constexpr bool record_is_reflectable() {
  static_assert(reflectable_aggregate<R> && hook_count<R> == 0,
                "bifrons: a record must be an aggregate without serialization hooks (its fields are its "
                "members, in declaration order); remove the hook, or do not declare the type a record");
  static_assert(!has_class_version<R>,
                "bifrons: a record has no class version: it evolves by appending fields, which readers "
                "see from the stride; remove the version");
  return reflectable_aggregate<R> && hook_count<R> == 0;
}

template <class R, bool Reflectable>
struct record_fields_of {
  using type = type_list<>;
};
template <class R>
struct record_fields_of<R, true> {
  using type = member_types<R>;
};

template <class F>
constexpr std::size_t record_width() {
  if constexpr (record_field<F>::fixed)
    return record_field<F>::width;
  else
    return 0;
}

template <class... F>
constexpr auto record_field_ends(type_list<F...>) {
  std::array<std::size_t, sizeof...(F) + 1> ends{};
  std::size_t i = 0;
  ((ends[i + 1] = ends[i] + record_width<F>(), ++i), ...);
  return ends;
}

template <class F>
constexpr bool field_memory_is_wire() {
  if constexpr (record_field<F>::fixed)
    return record_field<F>::memory_is_wire;
  else
    return false;
}

template <class... F>
constexpr bool all_memory_is_wire(type_list<F...>) {
  return (field_memory_is_wire<F>() && ...);
}

template <class R>
struct record_layout {
  // Each refusal below is the only error: what follows is computed only for valid records.
  static constexpr bool reflectable = record_is_reflectable<R>();
  static constexpr std::size_t count = [] {
    if constexpr (reflectable)
      return member_count<R>;
    else
      return std::size_t{0};
  }();
  using fields = typename record_fields_of<R, reflectable>::type;
  static constexpr bool valid = reflectable && all_fields_fixed(fields{});
  // The refusal of a field, naming the record, the field's position and its type.
  static_assert(sizeof(record_field_checks<R, fields, std::make_index_sequence<count>>) > 0);

  /// ends[i] is where field i ends (ends[0] = 0); the record's size is ends[count].
  static constexpr auto ends = record_field_ends(fields{});
  static constexpr std::size_t size = ends[count];
  /// The record's bytes in memory are its encoding: a block of them is one memcpy each way.
  static constexpr bool memory_is_wire = valid && std::is_trivially_copyable_v<R> && sizeof(R) == size &&
                                         all_memory_is_wire(fields{});

  /// True if a record of `stride` bytes ends on a field boundary of this reader's layout or
  /// beyond its last field: then it holds a whole prefix of the fields.
  static constexpr bool whole_fields(std::uint64_t stride) noexcept {
    if (stride >= size) return true;
    for (std::size_t e : ends)
      if (e == stride) return true;
    return false;
  }

  BIFRONS_INLINE static std::byte* store(std::byte* out, const R& v) noexcept {
    if constexpr (!valid) {
      return out;
    } else if constexpr (memory_is_wire) {
      std::memcpy(out, &v, size);
      return out + size;
    } else {
      visit_members<count>(v, [&](const auto&... m) BIFRONS_INLINE_LAMBDA {
        ((out = record_field<std::remove_cvref_t<decltype(m)>>::store(out, m)), ...);
      });
      return out;
    }
  }

  /// Loads the fields that lie wholly within the first `length` bytes at p (whole_fields(length)
  /// holds); the others keep their values. On an invalid value returns its reason and sets bad to
  /// the field's first byte.
  BIFRONS_INLINE static errc load(const std::byte* p, std::size_t length, R& v, const std::byte*& bad) noexcept {
    if constexpr (!valid) {
      return errc::ok;
    } else if constexpr (memory_is_wire) {
      std::memcpy(&v, p, length < size ? length : size);
      return errc::ok;
    } else {
      errc result = errc::ok;
      std::size_t i = 0;
      visit_members<count>(v, [&](auto&... m) BIFRONS_INLINE_LAMBDA {
        // Left to right, stopping at the first field past `length` or the first invalid one.
        (void)((ends[i + 1] <= length &&
                (result = record_field<std::remove_cvref_t<decltype(m)>>::load(p + ends[i], m)) == errc::ok &&
                (++i, true)) &&
               ...);
      });
      if (result != errc::ok) bad = p + ends[i];
      return result;
    }
  }
};

/// Reads a record of `length` bytes at p into v, which holds the defaults for the fields the data
/// lacks or is reset to them. Returns false after recording an error.
template <class R>
BIFRONS_INLINE bool read_record(source& in, const std::byte* p, std::size_t length, R& v, bool reset) {
  using L = record_layout<R>;
  if (length < L::size && reset) v = R{};
  const std::byte* bad = nullptr;
  if (const errc e = L::load(p, length, v, bad); e != errc::ok) [[unlikely]] {
    in.fail_at(e, bad);
    return false;
  }
  return true;
}

/// Reads varint(stride) and checks that it ends on a field boundary of this reader's layout
/// (whether the input holds that many bytes is the caller's check). Returns 0 after an error.
template <class R>
BIFRONS_INLINE std::uint64_t read_stride(source& in) noexcept {
  const std::byte* at = in.position();
  const std::uint64_t stride = in.read_varint();
  if (!record_layout<R>::whole_fields(stride)) [[unlikely]]
    in.fail_at(errc::invalid_stride, at);
  return stride;
}

/// A block of records taken from the input: `count` records of `stride` bytes at `data`.
struct record_block {
  const std::byte* data = nullptr;
  std::size_t count = 0;
  std::size_t stride = 0;
};

/// Reads varint(count) and, when count > 0, varint(stride), checks them before anything is
/// allocated (the stride against the reader's layout and the bytes left, then the count as
/// source::check_count does, each record taking `stride` bytes: records of zero bytes are
/// bounded by the element limit and the budget) and takes the block. Errors are reported at the
/// count; an empty block, or one after an error, has count 0.
template <class R>
record_block take_record_block(source& in, std::size_t alloc_per_record, std::size_t max_count) noexcept {
  const std::byte* start = in.position();
  const std::uint64_t count = in.read_varint();
  if (in.failed() || count == 0) return {};
  const std::uint64_t stride = read_stride<R>(in);
  if (in.failed()) return {};
  if (stride > in.remaining())
    return in.fail_missing(errc::count_exceeds_input, start, in.missing_for(count, stride)), record_block{};
  const auto width = static_cast<std::size_t>(stride);
  const std::size_t n = in.check_count(start, count, width, alloc_per_record, max_count);
  if (in.failed()) return {};
  return {in.skip(n * width), n, width};
}

/// A record alone: varint(K << 1) then its K bytes, the envelope of a struct without version.
template <class R>
struct record_codec {
  using layout = record_layout<R>;
  static constexpr std::uint64_t header = static_cast<std::uint64_t>(layout::size) << 1;
  static constexpr std::size_t min_size = 1;
  static constexpr std::size_t max_size = varint_size(header) + layout::size;

  static constexpr std::size_t size(const R&) noexcept { return max_size; }
  BIFRONS_INLINE static std::byte* write(std::byte* out, const R& v) noexcept {
    return layout::store(write_varint(out, header), v);
  }
  static void read(source& in, R& v) {
    const std::byte* start = in.position();
    const std::uint64_t h = in.read_varint();
    if (in.failed()) return;
    const std::uint64_t length = h >> 1;
    if (length > in.remaining()) return in.fail_short(length - in.remaining());
    // A record has no class version, and its length ends on a field boundary.
    if ((h & 1) != 0 || !layout::whole_fields(static_cast<std::size_t>(length))) [[unlikely]]
      return in.fail_at((h & 1) != 0 ? errc::invalid_value : errc::invalid_stride, start);
    const std::byte* p = in.skip(static_cast<std::size_t>(length));
    read_record(in, p, static_cast<std::size_t>(length), v, !in.fresh);
  }
};

// ---- blocks of records in sequences and fixed arrays -------------------------------------------

/// Writes the records of r (n of them) back to back.
template <class Range>
std::byte* write_records(std::byte* out, const Range& r, std::size_t n) {
  using R = std::remove_cvref_t<decltype(*std::begin(r))>;
  using L = record_layout<R>;
  if constexpr (L::memory_is_wire && contiguous_iterator<decltype(std::begin(r))>) {
    if (n != 0) std::memcpy(out, std::to_address(std::begin(r)), n * L::size);
    return out + n * L::size;
  } else {
    (void)n;
    for (const R& e : r) out = L::store(out, e);
    return out;
  }
}

/// Reads n records of `stride` bytes each from p (already taken from in) into the n elements
/// from first; the first `reused` of them held values before (reset where the data lacks fields).
template <class It>
void read_records(source& in, const std::byte* p, std::size_t stride, It first, std::size_t n, std::size_t reused) {
  using R = std::iter_value_t<It>;
  using L = record_layout<R>;
  if constexpr (L::memory_is_wire && contiguous_iterator<It>) {
    if (stride == L::size) {
      if (n != 0) std::memcpy(std::to_address(first), p, n * L::size);
      return;
    }
  }
  for (std::size_t i = 0; i < n; ++i, ++first, p += stride)
    if (!read_record(in, p, stride, *first, i < reused)) return;
}

}  // namespace bifrons::detail
