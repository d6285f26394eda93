// SPDX-License-Identifier: MIT
#pragma once
// Field helpers for hooks: `ar(bifrons::base<Base>(*this), bifrons::fixed(hash_), x)`.
//   - deprecated<T>: a retired field that keeps its place;
//   - base<Base>(*this): a base-class subobject as its own struct envelope;
//   - fixed(x): an integer or enum as fixed-width little-endian instead of a varint;
//   - varint(x): an array of integers or enums as varints instead of a raw block;
//   - named("id", x): a field's name for the schema (docs/schema.md); the bytes do not change.
// See docs/format.md, sections 21 and 22, and docs/evolution.md.

#include <concepts>
#include <cstddef>
#include <iterator>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "detail/containers.hpp"
#include "detail/creation.hpp"
#include "detail/scalars.hpp"
#include "detail/struct_codec.hpp"

namespace bifrons {

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
  // A minimal type writes the default of its value (it may have no default of its own).
  using written = std::conditional_t<detail::has_save_minimal<T>, detail::minimal_value<T>, T>;
  static constexpr std::size_t min_size = detail::min_size_of<T>;
  static std::size_t size(const deprecated<T>&) {
    if constexpr (empty_envelope) {
      // An object with identity takes an id even when retired: the reader gives it one.
      if constexpr (enable_identity<T>) {
        detail::skip_by_value_id<T>();
      }
      return 1;
    } else {
      return codec<written>::size(written{});
    }
  }
  static std::byte* write(std::byte* out, const deprecated<T>&) {
    if constexpr (empty_envelope) {
      *out = std::byte{0};
      return out + 1;
    } else {
      return codec<written>::write(out, written{});
    }
  }
  static void read(detail::source& in, deprecated<T>&) {
    if constexpr (detail::default_created<T>) {
      T discarded{};
      read_discarded(in, [&] { codec<T>::read(in, discarded); });
    } else {
      std::optional<T> discarded;
      read_discarded(in, [&] {
        detail::emplace_read<T>(in,
                                [&](auto&&... a) -> T& { return discarded.emplace(std::forward<decltype(a)>(a)...); });
      });
    }
  }

 private:
  template <class Read>
  static void read_discarded(detail::source& in, Read&& read) {
    if constexpr (detail::may_hold_pointers<T>()) {
      // Nothing may refer to the objects of a value that is thrown away.
      detail::temporary_objects objects(in);
      read();
    } else {
      read();
    }
  }
};

/// A base-class subobject, serialized as its own struct envelope:
/// `ar(bifrons::base<Base>(*this), x, y)`. The base can then grow fields independently.
/// A virtual base is written once per complete object, where its first `base<>` meets it
/// (a diamond's shared base is not written twice); a polymorphic base also becomes a relation
/// that polymorphic pointers may follow (bifrons/polymorphic.hpp).
template <class Base, class Derived>
struct base_ref {
  Base& object;
};

namespace detail {
/// Base is a virtual base of Derived: the cast down from it cannot be static. (Asked through
/// access, so that a private base of a class that befriends it is seen too.)
template <class Base, class Derived>
concept virtual_base_of = std::is_base_of_v<Base, Derived> && !std::is_same_v<Base, Derived> &&
                          access::virtual_base<Base, Derived>;
}  // namespace detail

/// A private or protected base needs `friend bifrons::access;` in the derived class, as a private
/// hook does (the cast to the base is made by access).
template <class Base, class Derived>
  requires std::is_base_of_v<Base, std::remove_cv_t<Derived>>
constexpr auto base(Derived& derived) noexcept {
  using D = std::remove_cv_t<Derived>;
  using B = std::conditional_t<std::is_const_v<Derived>, const Base, Base>;
  static_assert(access::reaches_base<B, Derived>,
                "bifrons: this base class is private or protected in the class whose hook lists it: declare "
                "`friend bifrons::access;` in that class (bifrons then casts to the base as the class can)");
  if constexpr (!access::reaches_base<B, Derived>)
    return base_ref<B, D>{reinterpret_cast<B&>(derived)};  // refused above (one error, not two)
  else
    return base_ref<B, D>{access::as_base<B>(derived)};
}

template <class Base, class Derived>
struct codec<base_ref<Base, Derived>> {
  using B = std::remove_const_t<Base>;
  // A user class is a nested envelope; a standard type (`struct Path : std::string`) is written as
  // itself, with its own encoding.
  static constexpr bool envelope = detail::record<B> || detail::struct_envelope<B>;
  static constexpr bool is_virtual = detail::virtual_base_of<B, Derived>;
  // A virtual base met before takes no bytes.
  static constexpr std::size_t min_size = !envelope ? detail::min_size_of<B> : is_virtual ? 0 : 1;

  static std::size_t size(const base_ref<Base, Derived>& b) {
    if constexpr (!envelope) {
      return codec<B>::size(b.object);
    } else {
      register_relation();
      if constexpr (is_virtual) {
        if (!first_time(detail::write_scope(), b.object)) return 0;
      }
      return detail::struct_codec<B>::size_subobject(b.object);
    }
  }
  static std::byte* write(std::byte* out, const base_ref<Base, Derived>& b) {
    if constexpr (!envelope) {
      return codec<B>::write(out, b.object);
    } else {
      if constexpr (is_virtual) {
        if (!first_time(detail::write_scope(), b.object)) return out;
      }
      return detail::struct_codec<B>::write_subobject(out, b.object);
    }
  }
  /// A virtual base read before takes no bytes where it is met again: its field is not one the
  /// data lacks (input_archive), or a reused object would be read again from defaults.
  static bool met_before(detail::source& in, const base_ref<Base, Derived>& b)
    requires(envelope && is_virtual)
  {
    return read_table(in).has_virtual_base(&b.object, detail::type_key<B>);
  }
  static void read(detail::source& in, base_ref<Base, Derived>& b) {
    if constexpr (!envelope) {
      codec<B>::read(in, b.object);
    } else {
      register_relation();
      if constexpr (is_virtual) {
        if (!first_time(read_table(in), b.object)) return;
      }
      detail::struct_codec<B>::read_subobject(in, b.object);
    }
  }

 private:
  // Loading the code that serializes Derived registers Derived -> B for polymorphic pointers.
  static void register_relation() noexcept {
    if constexpr (std::is_polymorphic_v<B> && BIFRONS_HAS_RTTI) {
      static_assert(detail::registry_included<B>,
                    "bifrons: base<B> of a polymorphic B registers the class as derived from B for polymorphic "
                    "pointers: #include <bifrons/polymorphic.hpp> (or <bifrons/bifrons.hpp>)");
      if constexpr (detail::registry_included<B>) (void)&detail::relation_registration<Derived, B>::instance;
    }
  }
  // The reader's virtual bases are kept in its object table, which is the pointers' machinery.
  static detail::object_table_base& read_table(detail::source& in) {
    static_assert(detail::pointer_machinery_included<B>,
                  "bifrons: reading a virtual base (base<B> of a virtual B) takes the object table of pointers: "
                  "#include <bifrons/pointers.hpp> (or <bifrons/bifrons.hpp>)");
    if constexpr (detail::pointer_machinery_included<B>)
      return in.template objects<detail::object_table_of<B>>();
    else
      return in.existing_objects();  // refused above (one error, not two)
  }
  // The virtual bases met so far in the complete object (a write session or the object table).
  template <class Scope>
  static bool first_time(Scope& scope, const B& object) {
    if (scope.has_virtual_base(&object, detail::type_key<B>)) return false;
    scope.add_virtual_base(&object, detail::type_key<B>);
    return true;
  }
};

// ---- owning raw pointers (their codec: pointers.hpp) -------------------------------------------

/// A raw pointer that owns its object, for a hook: `ar(bifrons::owning(child_))`. Writing or
/// reading it needs <bifrons/pointers.hpp>.
template <class T>
struct owning_ref {
  T*& pointer;
};

template <class T>
constexpr owning_ref<T> owning(T*& pointer) noexcept {
  return {pointer};
}
template <class T>
constexpr owning_ref<T> owning(T* const& pointer) noexcept {
  return {const_cast<T*&>(pointer)};  // a const hook writes only: the pointer is never assigned
}

// ---- per-field encoding overrides --------------------------------------------------------------

/// `ar(bifrons::fixed(x))`: an integer or enum as fixed-width little-endian instead of a varint.
/// Worth it for values that are usually large (hashes, random ids).
template <class T>
struct fixed_ref {
  T& value;
};

template <class T>
  requires std::is_integral_v<std::remove_cv_t<T>> || std::is_enum_v<std::remove_cv_t<T>>
constexpr fixed_ref<T> fixed(T& value) noexcept {
  return {value};
}

template <class T>
struct codec<fixed_ref<T>> {
  using value_type = std::remove_cv_t<T>;
  // An enum's own codec refuses the enums that cannot be read safely.
  static_assert(!std::is_enum_v<value_type> || codec<value_type>::min_size != 0);
  using integer = typename std::conditional_t<std::is_enum_v<value_type>, std::underlying_type<value_type>,
                                              std::type_identity<value_type>>::type;
  static constexpr std::size_t min_size = detail::wire_width<integer>;
  static constexpr std::size_t fixed_width = min_size;
  static constexpr std::size_t max_size = min_size;
  BIFRONS_INLINE static constexpr std::size_t size(const fixed_ref<T>&) noexcept { return min_size; }
  BIFRONS_INLINE static std::byte* write(std::byte* out, const fixed_ref<T>& f) noexcept {
    return detail::store_element(out, static_cast<integer>(f.value));
  }
  BIFRONS_INLINE static void read(detail::source& in, fixed_ref<T>& f) noexcept {
    if (const std::byte* p = in.take(min_size)) read_fixed(in, p, f);
  }
  BIFRONS_INLINE static void read_fixed(detail::source& in, const std::byte* p, fixed_ref<T>& f) noexcept {
    integer v{};
    if (!detail::load_element(p, v)) [[unlikely]] {
      in.fail_at(errc::value_out_of_range, p);
      return;
    }
    f.value = static_cast<value_type>(v);
  }
};

/// `ar(bifrons::varint(v))`: an array of integers as varints instead of a raw block, for arrays
/// of mostly small values. (On a scalar integer it changes nothing: that is the default.)
template <class T>
struct varint_ref {
  T& value;
};

template <class T>
  requires detail::varint_integer<std::remove_cv_t<T>> || std::is_enum_v<std::remove_cv_t<T>> ||
           (requires(T& t) {
             std::begin(t);
             std::end(t);
           } && (detail::varint_integer<std::remove_cvref_t<decltype(*std::begin(std::declval<T&>()))>> ||
                 std::is_enum_v<std::remove_cvref_t<decltype(*std::begin(std::declval<T&>()))>>))
constexpr varint_ref<T> varint(T& value) noexcept {
  return {value};
}

template <class T>
  requires detail::varint_integer<std::remove_cv_t<T>> || std::is_enum_v<std::remove_cv_t<T>>
struct codec<varint_ref<T>> {
  using inner = codec<std::remove_cv_t<T>>;
  static constexpr std::size_t min_size = inner::min_size;
  BIFRONS_INLINE static std::size_t size(const varint_ref<T>& v) noexcept { return inner::size(v.value); }
  BIFRONS_INLINE static std::byte* write(std::byte* out, const varint_ref<T>& v) noexcept {
    return inner::write(out, v.value);
  }
  BIFRONS_INLINE static void read(detail::source& in, varint_ref<T>& v) noexcept { inner::read(in, v.value); }
};

namespace detail {

/// `ar(bifrons::varint(v))` on an array of integers or enums: the elements as varints (zigzag for
/// signed) instead of one raw block. Sequences keep their count; fixed arrays have none.
template <class C>
concept varint_range = detail::range<C> &&
                       (varint_integer<detail::range_value_t<C>> || std::is_enum_v<detail::range_value_t<C>>);

template <class C>
struct varint_range_codec {
  using T = std::remove_cv_t<detail::range_value_t<C>>;
  static constexpr bool counted = requires(C& c, std::size_t n) { c.resize(n); };
  static_assert(
      counted || std::is_array_v<C> || requires { std::tuple_size<C>::value; },
      "bifrons: varint() applies to the integers or enums of a vector, deque, list, std::array or "
      "C array; a set or map of integers is already written element by element as varints");
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
      const std::size_t n = in.read_count(codec<T>::min_size, allocation_per_element<C>(), c.max_size());
      if (in.failed()) return;
      c.resize(n);
    }
    for (auto& e : c) {
      codec<T>::read(in, e);
      if (in.failed()) [[unlikely]]
        return;
    }
  }
};

}  // namespace detail

template <detail::varint_range C>
struct codec<varint_ref<C>> {
  using inner = detail::varint_range_codec<std::remove_cv_t<C>>;
  static constexpr std::size_t min_size = inner::min_size;
  static std::size_t size(const varint_ref<C>& v) { return inner::size(v.value); }
  static std::byte* write(std::byte* out, const varint_ref<C>& v) { return inner::write(out, v.value); }
  static void read(detail::source& in, varint_ref<C>& v) { inner::read(in, v.value); }
};

// ---- field names -------------------------------------------------------------------------------

/// `ar(bifrons::named("id", id_))`: gives a hook's field its name in the schema
/// (docs/schema.md, "Names"), which the bytes never hold. Wraps any field, helpers included:
/// `bifrons::named("hash", bifrons::fixed(hash_))`. Reading and writing see only the field.
template <class Field>
struct named_field {
  const char* name;
  Field field;  // a reference for a member, the helper itself for fixed(), base<B>(), ...
};

template <class Field>
constexpr named_field<Field> named(const char* name, Field&& field) noexcept {
  return {name, std::forward<Field>(field)};
}

/// `ar(BIFRONS_NVP(id_))` is `ar(bifrons::named("id_", id_))`: a field named as it is spelled
/// (cereal's CEREAL_NVP).
#define BIFRONS_NVP(field) ::bifrons::named(#field, field)

namespace detail {
/// The optional members of codec<named_field<F>>: those of the field's codec, so that the
/// archives take the same paths (fixed-width reads, bounded sizes) as for the bare field.
template <class F>
struct named_codec_extras {};
template <class F>
  requires(max_size_of<F> != unbounded && !fixed_width_codec<F>)
struct named_codec_extras<F> {
  static constexpr std::size_t max_size = max_size_of<F>;
};
template <class F>
  requires fixed_width_codec<F>
struct named_codec_extras<F> {
  static constexpr std::size_t max_size = max_size_of<F>;
  static constexpr std::size_t fixed_width = codec_of<F>::fixed_width;
  template <class N>
  BIFRONS_INLINE static void read_fixed(source& in, const std::byte* p, N& named) noexcept {
    codec_of<F>::read_fixed(in, p, named.field);
  }
};
}  // namespace detail

template <class Field>
struct codec<named_field<Field>> : detail::named_codec_extras<Field> {
  using inner = detail::codec_of<Field>;
  static constexpr std::size_t min_size = inner::min_size;
  BIFRONS_INLINE static std::size_t size(const named_field<Field>& f) { return inner::size(f.field); }
  BIFRONS_INLINE static std::size_t size_bound(const named_field<Field>& f) { return detail::size_bound_of(f.field); }
  BIFRONS_INLINE static std::byte* write(std::byte* out, const named_field<Field>& f) {
    return inner::write(out, f.field);
  }
  BIFRONS_INLINE static void read(detail::source& in, named_field<Field>& f) { inner::read(in, f.field); }
};

}  // namespace bifrons
