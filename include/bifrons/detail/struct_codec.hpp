// SPDX-License-Identifier: MIT
#pragma once
// Schema evolution: every user class is a length envelope, so that
//   - an old reader skips the fields a newer writer appended (it jumps to the envelope's end),
//   - a new reader sees where an older writer's fields stop (the envelope ends early) and
//     leaves the rest at their defaults,
//   - an optional class version travels in the envelope header.
// Header: varint((body_length << 1) | has_version), then varint(version) if has_version, then
// the fields in declaration order with no tags. See docs/format.md, "Structs".

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "codec.hpp"
#include "hooks.hpp"
#include "pointer_codec.hpp"
#include "record_codec.hpp"
#include "scalars.hpp"

namespace bifrons {

namespace detail {

template <class T>
concept resettable = std::default_initializable<T> && std::is_move_assignable_v<T>;

/// Classes that may have virtual bases (a class with one is never standard-layout, and only
/// hooks can name bases). A virtual base is written once per complete object, where
/// `base<B>(*this)` first names it (fields.hpp): a complete object of such a class keeps the
/// list of the virtual bases written so far, in the write session or the reader's object table.
template <class T>
concept may_have_virtual_bases = hook_count<T> != 0 && !std::is_standard_layout_v<T>;

// ---- reading a body of scalars without per-field checks ---------------------------------------
//
// A struct whose fields are all scalars (varint integers, enums, floating point, one-byte types,
// arrays of bytes or host-layout numbers) reads at most max_fields_size_of<T>() bytes of fields
// from a well-formed body, plus 7 bytes past a varint for its 8-byte load. Where the input holds
// that many bytes from the body on, the fields are decoded without bounds or error checks, and
// one comparison at the end tells whether they all lay in the body; if not (an older writer's
// shorter body) or if a value was invalid, the object is reset and read again on the checked
// path, which finds the field that is missing or the error and its offset.

template <class T>
concept unchecked_scalar = varint_integer<T> || block_element<T> ||
                           (std::is_enum_v<T> && fixed_underlying_enum<T> && !std::is_same_v<T, std::byte>);

template <class T>
concept unchecked_field = unchecked_scalar<T> ||
                          (std::is_array_v<T> && std::rank_v<T> == 1 && std::extent_v<T> != 0 &&
                           block_element<std::remove_extent_t<T>> && block_is_memcpy<std::remove_extent_t<T>>);

/// Decodes one field at p without bounds checks (p may read 8 bytes); false if the value is
/// invalid or is a varint of more than 8 bytes (left to the checked path).
template <unchecked_field T>
BIFRONS_INLINE bool read_unchecked(const std::byte*& p, T& v) noexcept {
  if constexpr (std::is_enum_v<T> && !block_element<T>) {
    std::underlying_type_t<T> u{};
    if (!read_unchecked(p, u)) return false;
    v = static_cast<T>(u);
    return true;
  } else if constexpr (varint_integer<T>) {
    const auto first = static_cast<std::uint8_t>(*p);
    if (first < 0x80) [[likely]] {
      ++p;
      v = small_varint_value<T>(first);
      return true;
    }
    word_varint w;
    if (const auto second = static_cast<std::uint8_t>(p[1]); second < 0x80) {
      // Two bytes (values below 2^14: most small numbers that miss the one-byte case).
      w = {2, second != 0, (first & 0x7fu) | (std::uint64_t{second} << 7)};
    } else {
      w = varint_in_word<codec<T>::max_size>(load_le<std::uint64_t>(p));
    }
    p += w.length;
    v = varint_value<T>(w.value);
    // (Length 0: longer than 8 bytes. Longer than max_size: varint_in_word did not pack it all.)
    return w.length - 1 < codec<T>::max_size && w.canonical && w.value <= max_raw_varint<T>;
  } else if constexpr (block_element<T>) {
    const bool ok = load_element(p, v);
    p += wire_width<T>;
    return ok;
  } else {
    std::memcpy(&v, p, sizeof(T));
    p += sizeof(T);
    return true;
  }
}

template <class... F>
constexpr bool all_unchecked_fields(type_list<F...>) {
  return (unchecked_field<F> && ...);
}

template <class T>
struct struct_codec {
  static constexpr bool versioned = has_class_version<T>;
  static constexpr std::uint64_t header(std::size_t length) noexcept {
    return (static_cast<std::uint64_t>(length) << 1) | (versioned ? 1u : 0u);
  }
  static constexpr std::size_t min_size = 1;

  // Small structs whose body can never reach 64 bytes (records of a few scalars) always have a
  // one-byte header: no header width to compute in size(), no check in write().
  // (Absurdly large bounds count as unbounded, so that header(max_body) cannot overflow.)
  static constexpr std::size_t max_body = [] {
    const std::size_t body = add_bounds(versioned ? varint_size(class_version<T>()) : 0, max_fields_size_of<T>());
    return body < unbounded / 16 ? body : unbounded;
  }();
  static constexpr bool short_body = max_body != unbounded && header(max_body) < 0x80;
  static constexpr std::size_t max_size = max_body == unbounded ? unbounded : varint_size(header(max_body)) + max_body;
  static constexpr bool unchecked_body = [] {
    if constexpr (reflected<T> && !versioned && resettable<T>)
      return max_body != unbounded && all_unchecked_fields(member_types<T>{});
    else
      return false;
  }();

  static std::size_t size(const T& v) {
    if constexpr (may_have_virtual_bases<T>) {
      write_session& s = session();
      const std::size_t bases = s.virtual_base_count();
      const std::size_t n = size_of(v);
      s.forget_virtual_bases(bases);
      return n;
    } else {
      return size_of(v);
    }
  }

  /// size() of a base-class subobject (base<B>(*this)): part of the complete object's scope of
  /// virtual bases.
  static std::size_t size_subobject(const T& v) { return size_of(v); }

  BIFRONS_INLINE static std::size_t size_of(const T& v) {
    check_hooks<T>();
    if constexpr (enable_identity<T>) introduce_by_value(v);
    size_archive ar;
    if constexpr (versioned) ar.add(varint_size(class_version<T>()));
    save_fields(ar, v);
    if constexpr (short_body)
      return 1 + ar.size();
    else
      return varint_size(header(ar.size())) + ar.size();
  }

  /// See size_bound_of. Structs with hooks fall back to the exact size.
  static std::size_t size_bound(const T& v) {
    if constexpr (reflected<T>) {
      bound_archive ar;
      if constexpr (versioned) ar.add(varint_size(class_version<T>()));
      save_fields(ar, v);
      return varint_size(header(ar.size())) + ar.size();
    } else {
      return size(v);
    }
  }

  static std::byte* write(std::byte* out, const T& v) {
    if constexpr (may_have_virtual_bases<T>) {
      write_session& s = session();
      const std::size_t bases = s.virtual_base_count();
      std::byte* end = write_object(out, v);
      s.forget_virtual_bases(bases);
      return end;
    } else {
      return write_object(out, v);
    }
  }

  static std::byte* write_subobject(std::byte* out, const T& v) { return write_object(out, v); }

  BIFRONS_INLINE static std::byte* write_object(std::byte* out, const T& v) {
    check_hooks<T>();
    // Reserve one header byte, write the body, and move the body only in the rare case that
    // its header needs more than one byte (bodies of 64 bytes or more). The size pass already
    // counted the real header, so the buffer has room for the move.
    std::byte* body = out + 1;
    std::byte* end = write_body(body, v);
    const auto length = static_cast<std::size_t>(end - body);
    const std::uint64_t h = header(length);
    if (short_body || h < 0x80) [[likely]] {
      *out = static_cast<std::byte>(h);
      return end;
    }
    const std::size_t header_size = varint_size(h);
    std::memmove(out + header_size, body, length);
    write_varint(out, h);
    return end + (header_size - 1);
  }

  /// write() into room for `bound` bytes, an upper bound of the size of the form
  /// varint_size(header(body_bound)) + body_bound (as size_bound returns): the body goes after
  /// room for the widest header it could need, and moves only if its header is narrower.
  static std::byte* write_bounded(std::byte* out, const T& v, std::size_t bound) {
    check_hooks<T>();
    const std::size_t room = header_width(bound);
    std::byte* body = out + room;
    std::byte* end = write_body(body, v);
    const auto length = static_cast<std::size_t>(end - body);
    const std::size_t k = varint_size(header(length));
    if (k != room) [[unlikely]] {
      std::memmove(out + k, body, length);
      end -= room - k;
    }
    write_varint(out, header(length));
    return end;
  }

  static void read(source& in, T& v) { read_object<true>(in, v); }
  /// read() of a base-class subobject (base<B>(*this)).
  static void read_subobject(source& in, T& v) { read_object<false>(in, v); }

 private:
  template <bool Complete>
  static void read_object(source& in, T& v) {
    check_hooks<T>();
    if constexpr (enable_identity<T>) {
      if (!enter_by_value(in, v)) return;
    }
    if (!in.enter()) return;
    // Headers of bodies under 64 bytes are one byte, which cannot fail: no error check then.
    std::uint64_t h;
    if (std::uint8_t small; in.read_small_varint(small)) [[likely]] {
      h = small;
    } else {
      h = in.read_varint();
      if (in.failed()) return;
    }
    const std::uint64_t length = h >> 1;
    if (length > in.remaining()) {
      in.fail_short(length - in.remaining());
      return;
    }
    if constexpr (unchecked_body) {
      if ((h & 1) == 0 && in.readable() >= max_body + 7) [[likely]] {
        const std::byte* p = in.position();
        const bool ok = visit_members<member_count<T>>(v, [&](auto&... members) BIFRONS_INLINE_LAMBDA {
          return (read_unchecked(p, members) && ...);
        });
        if (ok && p <= in.position() + length) [[likely]] {
          (void)in.skip(static_cast<std::size_t>(length));
          in.leave();
          return;
        }
        v = T{};
      }
    }
    const std::byte* saved = in.narrow(static_cast<std::size_t>(length));
    const std::byte* body_end = in.position() + length;
    std::uint32_t version = 0;
    if (h & 1) version = in.read_varint_as<std::uint32_t>();
    const std::byte* fields = in.position();
    const std::size_t budget = in.budget_left();
    std::size_t objects = 0;
    if constexpr (may_hold_pointers<T>()) objects = in.object_count();
    [[maybe_unused]] std::size_t bases = 0;
    [[maybe_unused]] bool outer_base_missing = false;
    if constexpr (may_have_virtual_bases<T>) {
      bases = in.virtual_base_count();
      if constexpr (Complete) outer_base_missing = std::exchange(in.base_missing, false);
    }

    input_archive ar(in);
    load_fields(ar, v, version);
    // The data ended before some fields. A default-constructed object already holds their
    // defaults; an object being reused may hold stale values, so reset it and read again.
    // Data of an older class version counts too: a versioned hook may skip the fields that
    // version lacks (`if (version >= 2) ar(x);`) without the envelope ending early.
    [[maybe_unused]] const bool missing = ar.missing() || (versioned && version < class_version<T>());
    if constexpr (may_have_virtual_bases<T> && !Complete) {
      // Resetting a base subobject would also reset the virtual bases it shares with its
      // siblings, which may have been read already: the complete object reads again instead.
      if (missing) in.base_missing = true;
    } else if constexpr (resettable<T>) {
      bool reread = missing;
      if constexpr (may_have_virtual_bases<T>) reread = reread || in.base_missing;
      if (reread && !in.fresh && !in.failed()) [[unlikely]]
        reread_from_defaults(in, v, fields, budget, objects, bases, version);
    }
    if constexpr (may_have_virtual_bases<T> && Complete) {
      in.base_missing = outer_base_missing;
      in.forget_virtual_bases(bases);
    }
    in.widen(body_end, saved);
    in.leave();
  }

  // Out of line so that the common path has one copy of load_fields, which can then be inlined.
  BIFRONS_COLD static void reread_from_defaults(source& in, T& v, const std::byte* fields, std::size_t budget,
                                                [[maybe_unused]] std::size_t objects,
                                                [[maybe_unused]] std::size_t bases, std::uint32_t version) {
    // The objects the first pass read are read again, with the same ids.
    if constexpr (may_hold_pointers<T>()) {
      if (in.object_count() > objects) in.objects().rollback(objects);
    }
    if constexpr (may_have_virtual_bases<T>) in.forget_virtual_bases(bases);
    v = T{};
    in.rewind(fields);
    in.restore_budget(budget);  // the first pass's storage is gone: do not charge it twice
    fresh_guard guard(in, true);
    input_archive again(in);
    load_fields(again, v, version);
  }

  /// The header width k of a struct whose encoding takes `size` bytes in all:
  /// size = varint_size(header(length)) + length has exactly one solution, and it is the
  /// narrowest k whose header(size - k) fits in k bytes, i.e. is below 2^(7k).
  static std::size_t header_width(std::size_t size) noexcept {
    unsigned k = 1;
    while (k < max_varint_size - 1 && header(size - k) >> (7 * k) != 0) ++k;
    return k;
  }

  BIFRONS_INLINE static std::byte* write_body(std::byte* body, const T& v) {
    output_archive ar(body);
    if constexpr (versioned) ar = output_archive(write_varint(body, class_version<T>()));
    save_fields(ar, v);
    return ar.position();
  }
};

/// T is written as a struct envelope by the primary codec (not a user's own codec<T>).
template <class T>
concept struct_envelope = std::is_base_of_v<struct_codec<T>, codec<T>>;

}  // namespace detail

/// The primary codec: user classes (aggregates or classes with a hook) are struct envelopes, or
/// records where enable_record says so. Other types without a codec are refused with a message
/// naming the reason.
template <class T>
struct codec : std::conditional_t<detail::record<T>, detail::record_codec<T>, detail::struct_codec<T>> {
  // A standard type whose header is missing: name the header (one assertion per family, since a
  // static_assert message must be a literal).
  static constexpr bool missing = detail::needs_types_header<T>;
  static_assert(!(missing && detail::std_string_like<T>),
                "bifrons: std::basic_string needs #include <bifrons/types/string.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && (detail::std_string_view_like<T> || detail::std_span_like<T>)),
                "bifrons: string_view and span need #include <bifrons/types/views.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_vector_like<T>),
                "bifrons: std::vector needs #include <bifrons/types/vector.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_deque_like<T> && !detail::std_vector_like<T>),
                "bifrons: std::deque needs #include <bifrons/types/deque.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_list_like<T>),
                "bifrons: std::list needs #include <bifrons/types/list.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(
      !(missing && detail::std_forward_list_like<T>),
      "bifrons: std::forward_list needs #include <bifrons/types/forward_list.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && (detail::std_map_like<T> || detail::std_set_like<T>) && !detail::std_set_like<T>),
                "bifrons: std::map and std::multimap need #include <bifrons/types/map.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_set_like<T>),
                "bifrons: std::set and std::multiset need #include <bifrons/types/set.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(
      !(missing && detail::std_unordered_map_like<T>),
      "bifrons: std::unordered_map needs #include <bifrons/types/unordered_map.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(
      !(missing && detail::std_unordered_set_like<T>),
      "bifrons: std::unordered_set needs #include <bifrons/types/unordered_set.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_adapter_like<T>),
                "bifrons: std::queue, std::stack and std::priority_queue need #include <bifrons/types/adapters.hpp> "
                "(or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_optional_like<T>),
                "bifrons: std::optional needs #include <bifrons/types/optional.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_variant_like<T>),
                "bifrons: std::variant needs #include <bifrons/types/variant.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_smart_pointer_like<T>),
                "bifrons: std::unique_ptr needs #include <bifrons/types/memory.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_tuple_like<T> && detail::reflectable_aggregate<T>),
                "bifrons: std::array needs #include <bifrons/types/array.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(
      !(missing && detail::std_tuple_like<T> && !detail::reflectable_aggregate<T>),
      "bifrons: std::pair and std::tuple need #include <bifrons/types/utility.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_bitset_like<T>),
                "bifrons: std::bitset needs #include <bifrons/types/bitset.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_complex_like<T>),
                "bifrons: std::complex needs #include <bifrons/types/complex.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_chrono_like<T>),
                "bifrons: std::chrono types need #include <bifrons/types/chrono.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(enable_identity<T> && std::is_polymorphic_v<T>),
                "bifrons: enable_identity on a polymorphic class is not supported: hold its objects through "
                "unique_ptr or shared_ptr, which give them identity (and keep their dynamic type)");
  static_assert(!(detail::record<T> && enable_identity<T>),
                "bifrons: a record cannot have enable_identity: records are copied as blocks, without ids");
  static_assert(!std::is_same_v<std::remove_cv_t<T>, long double>,
                "bifrons: long double has no portable encoding (80, 64 or 128 bits by platform); "
                "store a double, or two doubles");
  static_assert(!std::is_reference_v<T> && !std::is_function_v<T> && !std::is_union_v<T> && (std::is_class_v<T>),
                "bifrons: this type cannot be serialized: it is not a class, and no codec covers it");
};

}  // namespace bifrons
