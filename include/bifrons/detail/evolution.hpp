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

#include "codec.hpp"
#include "hooks.hpp"

namespace bifrons {

namespace detail {

template <class T>
concept resettable = std::default_initializable<T> && std::is_move_assignable_v<T>;

template <class T>
struct struct_codec {
  static constexpr bool versioned = has_class_version<T>;
  static constexpr std::size_t min_size = 1;

  static std::size_t size(const T& v) {
    check_hooks<T>();
    size_archive ar;
    if constexpr (versioned) ar.add(varint_size(class_version<T>()));
    save_fields(ar, v);
    return varint_size(header(ar.size())) + ar.size();
  }

  static std::byte* write(std::byte* out, const T& v) {
    check_hooks<T>();
    // Reserve one header byte, write the body, and move the body only in the rare case that
    // its header needs more than one byte (bodies of 64 bytes or more). The size pass already
    // counted the real header, so the buffer has room for the move.
    std::byte* body = out + 1;
    output_archive ar(body);
    if constexpr (versioned) ar = output_archive(write_varint(body, class_version<T>()));
    save_fields(ar, v);
    std::byte* end = ar.position();
    const auto length = static_cast<std::size_t>(end - body);
    const std::uint64_t h = header(length);
    if (h < 0x80) [[likely]] {
      *out = static_cast<std::byte>(h);
      return end;
    }
    const std::size_t header_size = varint_size(h);
    std::memmove(out + header_size, body, length);
    write_varint(out, h);
    return end + (header_size - 1);
  }

  static void read(source& in, T& v) {
    check_hooks<T>();
    if (!in.enter()) return;
    const std::byte* start = in.position();
    const std::uint64_t h = in.read_varint();
    if (in.failed()) return;
    const std::uint64_t length = h >> 1;
    if (length > in.remaining()) {
      in.rewind(start);
      in.fail(errc::unexpected_end);
      return;
    }
    const std::byte* saved = in.narrow(static_cast<std::size_t>(length));
    const std::byte* body_end = in.position() + length;
    std::uint32_t version = 0;
    if (h & 1) version = in.read_varint_as<std::uint32_t>();
    const std::byte* fields = in.position();
    const std::size_t budget = in.budget_left();

    input_archive ar(in);
    load_fields(ar, v, version);
    if constexpr (resettable<T>) {
      // The data ended before some fields. A default-constructed object already holds their
      // defaults; an object being reused may hold stale values, so reset it and read again.
      // Data of an older class version counts too: a versioned hook may skip the fields that
      // version lacks (`if (version >= 2) ar(x);`) without the envelope ending early.
      if ((ar.missing() || (versioned && version < class_version<T>())) && !in.fresh && !in.failed()) [[unlikely]]
        reread_from_defaults(in, v, fields, budget, version);
    }
    in.widen(body_end, saved);
    in.leave();
  }

 private:
  // Out of line so that the common path has one copy of load_fields, which can then be inlined.
  [[gnu::noinline, gnu::cold]] static void reread_from_defaults(source& in, T& v, const std::byte* fields,
                                                                std::size_t budget, std::uint32_t version) {
    v = T{};
    in.rewind(fields);
    in.restore_budget(budget);  // the first pass's storage is gone: do not charge it twice
    in.fresh = true;
    input_archive again(in);
    load_fields(again, v, version);
    in.fresh = false;
  }

  static constexpr std::uint64_t header(std::size_t length) noexcept {
    return (static_cast<std::uint64_t>(length) << 1) | (versioned ? 1u : 0u);
  }
};

template <class T>
struct unsupported_codec {
  static_assert(always_false<T>, "bifrons: this type cannot be serialized");
};

}  // namespace detail

/// The primary codec: user classes (aggregates or classes with a hook) are struct envelopes.
/// Other types without a codec are refused with a message naming the reason.
template <class T>
struct codec : detail::struct_codec<T> {
  static_assert(!std::is_pointer_v<T>,
                "bifrons: raw pointers are not serialized; use std::unique_ptr, or a value");
  static_assert(!std::is_same_v<std::remove_cv_t<T>, long double>,
                "bifrons: long double has no portable encoding (80, 64 or 128 bits by platform); "
                "store a double, or two doubles");
  static_assert(!std::is_reference_v<T> && !std::is_function_v<T> && !std::is_union_v<T> &&
                    (std::is_class_v<T>),
                "bifrons: this type cannot be serialized: it is not a class, and no codec covers it");
};

// ---- field wrappers used in hooks -----------------------------------------------------------

/// A field retired from the middle of a struct. It keeps the field's place so that old and new
/// readers stay in step; it writes the encoding of a default T (one byte for integers, strings,
/// containers, optionals and structs) and reads and discards whatever an older writer stored.
template <class T>
class deprecated {
 public:
  constexpr deprecated() noexcept = default;
  friend constexpr bool operator==(const deprecated&, const deprecated&) noexcept = default;
};

template <class T>
struct codec<deprecated<T>> {
  // A retired struct is written as an empty envelope (the byte 0x00), not as the encoding of
  // T{} (which holds every field): a reader of T sees every field missing, so it gets T's
  // defaults all the same, for one byte.
  static constexpr bool empty_envelope = std::is_base_of_v<detail::struct_codec<T>, codec<T>>;
  static constexpr std::size_t min_size = detail::min_size_of<T>;
  static std::size_t size(const deprecated<T>&) {
    if constexpr (empty_envelope)
      return 1;
    else
      return codec<T>::size(T{});
  }
  static std::byte* write(std::byte* out, const deprecated<T>&) {
    if constexpr (empty_envelope) {
      *out = std::byte{0};
      return out + 1;
    } else {
      return codec<T>::write(out, T{});
    }
  }
  static void read(detail::source& in, deprecated<T>&) {
    T discarded{};
    codec<T>::read(in, discarded);
  }
};

/// A base-class subobject, serialized as its own struct envelope:
/// `ar(bifrons::base<Base>(*this), x, y)`. The base can then grow fields independently.
template <class Base>
struct base_ref {
  Base& object;
};

template <class Base, class Derived>
  requires std::derived_from<std::remove_cv_t<Derived>, Base>
constexpr auto base(Derived& derived) noexcept {
  if constexpr (std::is_const_v<Derived>)
    return base_ref<const Base>{static_cast<const Base&>(derived)};
  else
    return base_ref<Base>{static_cast<Base&>(derived)};
}

template <class Base>
struct codec<base_ref<Base>> {
  using base_codec = detail::struct_codec<std::remove_const_t<Base>>;
  static constexpr std::size_t min_size = 1;
  static std::size_t size(const base_ref<Base>& b) { return base_codec::size(b.object); }
  static std::byte* write(std::byte* out, const base_ref<Base>& b) { return base_codec::write(out, b.object); }
  static void read(detail::source& in, base_ref<Base>& b) { base_codec::read(in, b.object); }
};

}  // namespace bifrons
