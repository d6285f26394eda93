// SPDX-License-Identifier: MIT
#pragma once
// Schema evolution: every user class is a length envelope, so that
//   - an old reader skips the fields a newer writer appended (it jumps to the envelope's end),
//   - a new reader sees where an older writer's fields stop (the envelope ends early) and
//     leaves the rest at their defaults,
//   - an optional class version travels in the envelope header.
// Header: varint((body_length << 1) | has_version), then varint(version) if has_version, then
// the fields in declaration order with no tags. See docs/format.md, "Structs".

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "codec.hpp"
#include "creation.hpp"
#include "hooks.hpp"
#include "pointer_traits.hpp"
#include "record_codec.hpp"
#include "scalars.hpp"
#include "varint_run.hpp"

namespace bifrons {

namespace detail {

template <class T>
concept resettable = access::default_constructible<T> && std::is_move_assignable_v<T>;

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
    if (static_cast<std::uint8_t>(p[1]) < 0x80) {
      w = two_byte_varint(p);  // most small numbers that miss the one-byte case
    } else {
      const std::uint64_t word = load_le<std::uint64_t>(p);
      w = varint_in_word<codec<T>::max_size>(word);
      // The field's ten bytes lie within the body's bound, which the caller may read.
      if constexpr (wide_varint<T>)
        if (w.length == 0) w = long_varint(p, word);
    }
    p += w.length;
    v = varint_value<T>(w.value);
    // (Length 0: longer than 8 bytes, for a field of up to 8. Longer than max_size: varint_in_word
    // did not pack it all.)
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

/// Fields that a varint run decodes (varint_run.hpp): integers of up to 32 bits, and enums that
/// travel as one.
template <class T>
struct run_integer {
  using type = T;
};
template <class T>
  requires std::is_enum_v<T>
struct run_integer<T> {
  using type = std::underlying_type_t<T>;
};
template <class T>
concept run_field = (varint_integer<T> || (std::is_enum_v<T> && fixed_underlying_enum<T> &&
                                           varint_integer<typename run_integer<T>::type>)) &&
                    codec<T>::max_size <= max_run_varint;

template <class... F>
constexpr bool all_run_fields(type_list<F...>) {
  return sizeof...(F) != 0 && sizeof...(F) <= max_run_fields && (run_field<F> && ...);
}

/// For each field of a run, the bits of its raw varint that its type cannot hold (0 past the
/// last field).
template <class... F>
constexpr std::array<std::uint64_t, max_run_fields> run_excess_bits(type_list<F...>) noexcept {
  std::array<std::uint64_t, max_run_fields> bits{};
  std::size_t i = 0;
  ((bits[i++] = ~max_raw_varint<typename run_integer<F>::type>), ...);
  return bits;
}

template <run_field T>
BIFRONS_INLINE void set_run_field(T& field, std::uint64_t raw) noexcept {
  field = static_cast<T>(varint_value<typename run_integer<T>::type>(raw));
}

/// The raw varint a run field is written as.
template <run_field T>
BIFRONS_INLINE std::uint64_t run_raw(const T& field) noexcept {
  return varint_raw(static_cast<typename run_integer<T>::type>(field));
}

/// Fails the read with newer_version at `at`, naming the class and both versions.
BIFRONS_COLD inline void refuse_newer_version(source& in, const std::byte* at, std::string_view name,
                                              std::uint32_t found, std::uint32_t own) {
  if (in.failed()) return;
  in.fail_at(errc::newer_version, at);
  char data_version[20], own_version[20];
  note_failure(errc::newer_version, in.error_offset(),
               {"class ", name, " has version ", decimal(data_version, found),
                " in the data; this program reads versions up to ", decimal(own_version, own),
                " and refuses newer ones (bifrons_refuse_newer)"});
}

/// A struct envelope opened for a hook that constructs the object (load_and_construct): the
/// header read and the input narrowed to the body until it goes out of scope, when the input
/// jumps to the body's end (over fields the hook did not read). After an error, nothing is
/// narrowed and every field reads as missing.
class open_envelope {
 public:
  open_envelope(source& in, std::uint32_t own_version, bool refuse_newer, std::string_view name)
      : in_(in), start(in.position()) {
    if (!in.enter()) return;
    entered_ = true;
    const std::uint64_t h = in.read_varint();
    if (in.failed()) return;
    const std::uint64_t length = h >> 1;
    if (length > in.remaining()) {
      in.fail_short(length - in.remaining());
      return;
    }
    saved_ = in.narrow(static_cast<std::size_t>(length));
    body_end_ = in.position() + length;
    if (h & 1) version = in.read_varint_as<std::uint32_t>();
    if (refuse_newer && version > own_version && !in.failed())
      refuse_newer_version(in, start, name, version, own_version);
  }
  open_envelope(const open_envelope&) = delete;
  open_envelope& operator=(const open_envelope&) = delete;
  ~open_envelope() {
    if (body_end_) in_.widen(body_end_, saved_);
    if (entered_) in_.leave();
  }

 private:
  source& in_;

 public:
  const std::byte* const start;
  std::uint32_t version = 0;

 private:
  const std::byte* saved_ = nullptr;
  const std::byte* body_end_ = nullptr;
  bool entered_ = false;
};

/// Where a struct's fields start in the object table: the objects and the type names (tag 2) read
/// before them. A struct read again from defaults rolls both back, so that the second pass reads
/// the same bytes as the first did.
struct object_mark {
  object_table_base::mark table{};
  std::size_t names = 0;
};

/// The move of struct_codec::write_object, out of line: GCC 12 cannot tell that it runs only on
/// bodies that the buffer has room for, and at -O2 warned in user code (a value with pointers
/// written into a 64-byte std::array with try_to_bytes) that it could overflow the buffer. It is
/// rare, and the body it moves is at least 64 bytes, so the call costs little.
[[gnu::noinline]] inline void move_body(std::byte* to, const std::byte* body, std::size_t length) noexcept {
  std::memmove(to, body, length);
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
    if constexpr (reflected<T> && !versioned && std::default_initializable<T> && std::is_move_assignable_v<T>)
      return max_body != unbounded && all_unchecked_fields(member_types<T>{});
    else
      return false;
  }();

  /// A body of varints that read_runs decodes several at a time where the processor can.
  static constexpr bool varint_run_body = [] {
    if constexpr (unchecked_body && !enable_identity<T>)
      return max_body < run_reach && all_run_fields(member_types<T>{});
    else
      return false;
  }();

  /// The type of every field of a run body whose fields all have one type and lie in memory as an
  /// array of it would (no padding): read and written as the object's bytes. void otherwise.
  using run_uniform_field = decltype([] {
    if constexpr (varint_run_body) {
      return []<class F, class... G>(type_list<F, G...>) {
        if constexpr ((std::is_same_v<F, G> && ...) && std::is_standard_layout_v<T> &&
                      std::is_trivially_copyable_v<T> && sizeof(T) == (1 + sizeof...(G)) * sizeof(F) && sizeof(F) <= 4)
          return F{};
      }(member_types<T>{});
    }
  }());
  static constexpr bool uniform_run = !std::is_void_v<run_uniform_field>;

  static constexpr std::array<std::uint64_t, max_run_fields> run_excess = [] {
    if constexpr (varint_run_body)
      return run_excess_bits(member_types<T>{});
    else
      return std::array<std::uint64_t, max_run_fields>{};
  }();

  static std::size_t size(const T& v) {
    if constexpr (may_have_virtual_bases<T>) {
      session_scope& s = write_scope();
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
      const std::size_t body = body_bound(v);
      return varint_size(header(body)) + body;
    } else {
      return size(v);
    }
  }
  /// An upper bound of the body's size (size_bound without the header).
  static std::size_t body_bound(const T& v)
    requires reflected<T>
  {
    bound_archive ar;
    if constexpr (versioned) ar.add(varint_size(class_version<T>()));
    save_fields(ar, v);
    return ar.size();
  }

  // In line in its caller, as write_object is in it: at -O2 GCC called each element's write in a
  // vector of small structs (Kelpie's entries: 15% of the write in calls).
  BIFRONS_INLINE static std::byte* write(std::byte* out, const T& v) {
    if constexpr (may_have_virtual_bases<T>) {
      session_scope& s = write_scope();
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
    move_body(out + header_size, body, length);
    write_varint(out, h);
    return end + (header_size - 1);
  }

  /// write() into room for `bound` bytes, an upper bound of the size of the form
  /// varint_size(header(body_bound)) + body_bound (as size_bound returns): the body goes after
  /// room for the widest header it could need, and moves only if its header is narrower.
  static std::byte* write_bounded(std::byte* out, const T& v, std::size_t bound) {
    if constexpr (short_body) {
      // A short body's header is one byte whatever the bound: no width to find, nothing to move.
      // (The move below, which cannot run here, made GCC 12 warn at -O2, even without -Wall, that
      // it overflowed the small buffer that from_bytes' check of canonical input writes into.)
      (void)bound;
      return write_object(out, v);
    } else {
      return write_in_room(out, v, header_width(bound));
    }
  }
  /// write() with the body after `room` bytes, room for the header of any body up to the bound
  /// the caller has checked the buffer for; the body moves back if its header is narrower.
  BIFRONS_INLINE static std::byte* write_in_room(std::byte* out, const T& v, std::size_t room) {
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

  /// Writes the n structs at `in` (a block of them) where the processor decodes runs, and returns
  /// the end; returns nullptr, having written nothing, where it does not (write() then writes
  /// them one by one, with the same bytes).
  static std::byte* write_runs(std::byte* out, const T* in, std::size_t n) noexcept
    requires varint_run_body
  {
#if BIFRONS_SIMD_RUNS
    if (!simd_runs_available()) return nullptr;
    return write_runs_simd(out, in, n);
#else
    (void)out, (void)in, (void)n;
    return nullptr;
#endif
  }

  /// Reads elements of a block of n, in order, while each is a struct whose body decode_varint_run
  /// can take (no version, within the input, every field valid), and returns how many it read; the
  /// caller reads the next one with read(), which reports what is wrong with it, if anything.
  /// Each element's fields are all written, so that it does not matter whether it was fresh.
  static std::size_t read_runs(source& in, T* out, std::size_t n) noexcept
    requires varint_run_body
  {
#if BIFRONS_SIMD_RUNS
    if (n == 0 || !simd_runs_available() || in.depth_left() == 0) return 0;
    const std::byte* p = in.position();
    const std::size_t done = read_runs_simd(p, p + in.remaining(), p + in.readable(), out, n);
    (void)in.skip(static_cast<std::size_t>(p - in.position()));
    return done;
#else
    (void)in, (void)out, (void)n;
    return 0;
#endif
  }
  /// read() of a base-class subobject (base<B>(*this)).
  static void read_subobject(source& in, T& v) { read_object<false>(in, v); }

  /// A new T made by its load_and_construct from the envelope at the current position (see
  /// creation.hpp). It is called after an error too, since it must return an object: the hook
  /// then finds every field missing.
  static T construct(source& in) {
    [[maybe_unused]] auto path = struct_path<T>(in);
    const open_envelope envelope(in, class_version<T>(), refuses_newer_versions<T>, derived_type_name<T>.view());
    input_archive ar(in);
    // What the hook reads into its locals dies with them, after the object is made from them.
    const hook_locals locals(in);
    return call_user_hook(in, envelope.start, [&] { return call_load_and_construct<T>(ar, envelope.version); });
  }

 private:
  template <bool Complete>
  static void read_object(source& in, T& v) {
    if constexpr (!loads_in_place<T>) {
      replace(in, v);
    } else {
      if constexpr (enable_identity<T>) {
        if (!enter_by_value(in, v)) return;
      }
      // An unchecked body reads no nested struct: it only needs the depth to allow one more level.
      if constexpr (unchecked_body) {
        if (in.depth_left() == 0) [[unlikely]] {
          (void)in.enter();
          return;
        }
      } else {
        if (!in.enter()) return;
      }
      const std::byte* start = in.position();
      [[maybe_unused]] auto path = struct_path<T>(in);
      // Headers of bodies under 64 bytes are one byte, which cannot fail: no error check then.
      std::uint64_t h;
      if (std::uint8_t small; in.read_small_varint(small)) [[likely]] {
        h = small;
      } else {
        // Bodies of 64 to 8,191 bytes have 2-byte headers, decoded inline. (Not for structs that
        // cannot have one: it cost small structs per element.)
        if constexpr (short_body)
          h = in.read_varint();
        else
          h = in.read_longer_length_varint();
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
            return;
          }
          v = T{};
        }
        (void)in.enter();
      }
      const std::byte* saved = in.narrow(static_cast<std::size_t>(length));
      const std::byte* body_end = in.position() + length;
      std::uint32_t version = 0;
      if (h & 1) version = in.read_varint_as<std::uint32_t>();
      if constexpr (refuses_newer_versions<T>) {
        if (version > class_version<T>())
          return refuse_newer_version(in, start, derived_type_name<T>.view(), version, class_version<T>());
      }
      const std::byte* fields = in.position();
      const std::size_t budget = in.budget_left();
      object_mark objects{};
      if constexpr (may_hold_pointers<T>()) objects = {in.objects_mark(), in.type_name_count()};

      input_archive ar(in);
      if constexpr (reflected<T>) {
#if BIFRONS_ERROR_PATHS
        ar.names_ = member_names<T>.data();
#endif
        load_fields(ar, v, version);
        if constexpr (resettable<T>) {
          // The data ended before some fields. A default-constructed object already holds their
          // defaults; an object being reused may hold stale values there, so those fields get
          // their defaults. (An aggregate's fields are read in order, so the ones read are a
          // prefix, and each was read whole: unlike a hook's, nothing needs reading again.)
          if (ar.missing() && !in.fresh && !in.failed()) [[unlikely]]
            reset_missing_fields(v, ar.first_missing());
        }
      } else {
        read_with_hook<Complete>(in, ar, v, version, fields, budget, objects, start, body_end);
      }
      in.widen(body_end, saved);
      in.leave();
    }
  }

#if BIFRONS_SIMD_RUNS
  /// read_runs' loop, with the instruction sets decode_varint_run needs: p moves past the
  /// elements read; `limit` ends the bytes they may hold, `end` the bytes that may be loaded.
  BIFRONS_SIMD_RUN_TARGET [[gnu::noinline]] static std::size_t read_runs_simd(const std::byte*& p,
                                                                              const std::byte* limit,
                                                                              const std::byte* end, T* out,
                                                                              std::size_t n) noexcept {
    std::size_t done = 0;
    for (; done < n && end - p > static_cast<std::ptrdiff_t>(run_reach); ++done) {
      // A one-byte header without a version (max_body < 64), and a body within the input.
      const auto header = static_cast<std::uint8_t>(*p);
      if (header >= 0x80 || (header & 1) != 0) break;
      // (limit may be p: the enclosing body ended, or an error pulled the limit down.)
      const std::size_t length = header >> 1;
      if (length >= static_cast<std::size_t>(limit - p)) break;
      run_lanes lanes;
      if (!decode_varint_run<member_count<T>>(p + 1, length, run_excess.data(), lanes)) break;
      // (Through an array, field by field: the compiler turns it into vector stores where the
      // fields allow, and on Zen 4 that was faster than narrowing the lanes into masked stores.)
      std::uint64_t raw[max_run_fields];
      store_run<member_count<T>>(raw, lanes);
      visit_members<member_count<T>>(out[done], [&](auto&... fields) BIFRONS_INLINE_LAMBDA {
        std::size_t i = 0;
        (set_run_field(fields, raw[i++]), ...);
      });
      p += 1 + length;
    }
    return done;
  }

  BIFRONS_SIMD_RUN_TARGET [[gnu::noinline]] static std::byte* write_runs_simd(std::byte* out, const T* in,
                                                                              std::size_t n) noexcept {
    for (std::size_t k = 0; k < n; ++k) {
      if constexpr (uniform_run) {
        using F = run_uniform_field;
        out = encode_varint_run<member_count<T>>(
            out, load_run<F, wire_integer_t<typename run_integer<F>::type>, member_count<T>>(
                     reinterpret_cast<const std::byte*>(in + k)));
      } else {
        std::uint64_t raw[max_run_fields] = {};
        visit_members<member_count<T>>(in[k], [&](const auto&... fields) BIFRONS_INLINE_LAMBDA {
          std::size_t i = 0;
          ((raw[i++] = run_raw(fields)), ...);
        });
        out = encode_varint_run<member_count<T>>(out, load_run<member_count<T>>(raw));
      }
    }
    return out;
  }
#endif

  /// Gives the fields of an aggregate from position `first` on the values a new T holds.
  //
  // Out of line and without the source. Resetting an aggregate this way, rather than reading it
  // again from defaults as a hook's class is, spares every program an out-of-line second copy of
  // each field's reader (docs/design.md has the measurements).
  BIFRONS_COLD static void reset_missing_fields(T& v, std::size_t first) {
    T defaults = access::make<T>();
    visit_members<member_count<T>>(v, [&](auto&... stale) {
      visit_members<member_count<T>>(defaults, [&](auto&... made) {
        std::size_t position = 0;
        ((position++ >= first ? reset_member(stale, made) : void()), ...);
      });
    });
  }
  template <class M>
  static void reset_member(M& stale, M& made) {
    if constexpr (std::is_array_v<M>) {
      for (std::size_t i = 0; i < std::extent_v<M>; ++i) reset_member(stale[i], made[i]);
    } else {
      stale = std::move(made);
    }
  }

  /// Resets v and reads its fields again (see reread_on). It works on a copy of the source, which
  /// it copies back: passed by reference to the out-of-line function, the source's address would
  /// escape the flattened read (core.hpp's read_all), and GCC would then keep the cursor in memory
  /// for the whole read, not only on this rare path.
  /// An exception from a hook is caught there and thrown again here, after the copy back, so that
  /// the error it recorded stands. (A guard that copied back from its destructor kept the cursor
  /// in memory again.)
  BIFRONS_INLINE static void reread_from_defaults(source& in, T& v, const std::byte* fields, std::size_t budget,
                                                  object_mark objects, std::size_t bases, std::uint32_t version,
                                                  const std::byte* start) {
    source copy = in;
#if BIFRONS_HAS_EXCEPTIONS
    std::exception_ptr thrown = reread_catching(copy, v, fields, budget, objects, bases, version, start);
    in = std::move(copy);
    if (thrown) [[unlikely]]
      std::rethrow_exception(std::move(thrown));
#else
    reread_on(copy, v, fields, budget, objects, bases, version, start);
    in = std::move(copy);
#endif
  }

#if BIFRONS_HAS_EXCEPTIONS
  BIFRONS_COLD static std::exception_ptr reread_catching(source& in, T& v, const std::byte* fields, std::size_t budget,
                                                         object_mark objects, std::size_t bases, std::uint32_t version,
                                                         const std::byte* start) noexcept {
    try {
      reread_on(in, v, fields, budget, objects, bases, version, start);
      return nullptr;
    } catch (...) {
      return std::current_exception();
    }
  }
#endif

  // Out of line so that the common path has one copy of load_fields, which can then be inlined.
  // `start` is the struct's first byte, where an exception from its hook is reported.
  BIFRONS_COLD static void reread_on(source& in, T& v, const std::byte* fields, std::size_t budget,
                                     [[maybe_unused]] object_mark objects, [[maybe_unused]] std::size_t bases,
                                     std::uint32_t version, [[maybe_unused]] const std::byte* start) {
    // The objects the first pass read are read again, with the same ids.
    if constexpr (may_hold_pointers<T>()) {
      if (in.objects_since(objects.table) || in.type_name_count() > objects.names)
        in.existing_objects().rollback(objects.table, objects.names);
    }
    if constexpr (may_have_virtual_bases<T>) in.forget_virtual_bases(bases);
    v = access::make<T>();
    in.rewind(fields);
    in.restore_budget(budget);  // the first pass's storage is gone: do not charge it twice
    fresh_guard guard(in, true);
    input_archive again(in);
#if BIFRONS_ERROR_PATHS
    if constexpr (reflected<T>) again.names_ = member_names<T>.data();
    in.path_frames.back().in_field = false;
#endif
    if constexpr (reflected<T>)
      load_fields(again, v, version);
    else
      call_user_hook(in, start, [&] { load_fields(again, v, version); });
  }

  /// Reads the fields through T's hook. A hook that checks its fields may refuse, or throw on,
  /// values that a reused object held before the read: the fields the data lacks keep them until
  /// the object is reset. So when a read into a reused object lacks fields and fails inside its
  /// hook (ar.fail, a decoding error, an exception), it is read again from defaults, as a fresh
  /// read would: the outcome, error and offset included, is the fresh read's. An exception that
  /// escapes fails the read with user_error at the struct (`start`) and goes on to the caller.
  ///
  /// A virtual base (may_have_virtual_bases) is read once per complete object, so a base
  /// subobject (not Complete) is never reset on its own: that would also reset the virtual bases
  /// it shares with its siblings, which may have been read already. It tells the complete object
  /// to read again instead (source::base_missing).
  template <bool Complete>
  static void read_with_hook(source& in, input_archive& ar, T& v, std::uint32_t version, const std::byte* fields,
                             std::size_t budget, object_mark objects, const std::byte* start,
                             const std::byte* body_end) {
    const std::size_t depth = in.depth_left();
    // Only failures of the fields are retried (not one of the version before them).
    const bool failed_before = in.failed();
    [[maybe_unused]] std::size_t bases = 0;
    [[maybe_unused]] bool outer_base_missing = false;
    if constexpr (may_have_virtual_bases<T>) {
      bases = in.virtual_base_count();
      if constexpr (Complete) outer_base_missing = std::exchange(in.base_missing, false);
    }
    constexpr bool subobject_of_shared_bases = may_have_virtual_bases<T> && !Complete;
    const auto lacks_fields = [&] {
      return !in.fresh && !failed_before && (ar.missing() || (versioned && version < class_version<T>()));
    };
    const auto stale = [&] {
      if constexpr (may_have_virtual_bases<T>)
        return lacks_fields() || (!in.fresh && !failed_before && in.base_missing);
      else
        return lacks_fields();
    };
#if BIFRONS_HAS_EXCEPTIONS
    try {
      load_fields(ar, v, version);
    } catch (...) {
      if (!(resettable<T> && !subobject_of_shared_bases && !in.failed() && stale())) {
        if (!in.failed()) in.fail_at(errc::user_error, start);
        throw;
      }
      in.fail_at(errc::user_error, start);  // the retry below clears it
    }
#else
    load_fields(ar, v, version);
#endif
    if constexpr (subobject_of_shared_bases) {
      if (lacks_fields()) in.base_missing = true;
    } else if constexpr (resettable<T>) {
      if (stale()) [[unlikely]] {
        if (in.failed()) in.recover(fields, body_end, depth);
        reread_from_defaults(in, v, fields, budget, objects, bases, version, start);
      }
    }
    if constexpr (may_have_virtual_bases<T> && Complete) {
      in.base_missing = outer_base_missing;
      in.forget_virtual_bases(bases);
    }
  }

  /// A class with load_and_construct and no hook that loads: a new object replaces the old one.
  static void replace(source& in, T& v) {
    static_assert(std::is_move_assignable_v<T>,
                  "bifrons: this type is read into an existing object (from_bytes(bytes, object), a reader, a "
                  "reused container element), but it has only load_and_construct and no move assignment. "
                  "Give it a load hook (`template <class Archive> void load(Archive& ar)`), or make it assignable.");
    if constexpr (std::is_move_assignable_v<T>) v = construct(in);
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

// ---- minimal types -----------------------------------------------------------------------------

/// A class with save_minimal: written as the value it returns, with that value's bytes and nothing
/// else (docs/format.md, section 29). No envelope, so no appended fields and no version.
template <class T>
struct minimal_codec {
  using value_type = minimal_value<T>;
  static constexpr std::size_t min_size = min_size_of<value_type>;
  static constexpr std::size_t max_size = max_size_of<value_type>;

  static std::size_t size(const T& v) {
    const size_archive ar;
    return codec<value_type>::size(call_save_minimal(ar, v));
  }
  static std::byte* write(std::byte* out, const T& v) {
    const output_archive ar(out);
    return codec<value_type>::write(out, call_save_minimal(ar, v));
  }
  static void read(source& in, T& v) {
    const std::byte* start = in.position();
    if constexpr (has_load_minimal<T>) {
      value_type value{};
      {
        fresh_guard guard(in, true);
        codec<value_type>::read(in, value);
      }
      if (in.failed()) return;  // load_minimal sees only values that were read whole
      const input_archive ar(in);
      call_user_hook(in, start, [&] { call_load_minimal(ar, v, value); });
    } else {
      static_assert(std::is_move_assignable_v<T>,
                    "bifrons: this minimal type is read into an existing object (from_bytes(bytes, object), a "
                    "reader, a reused container element), but it has no load_minimal and no move assignment. Give "
                    "it `template <class Archive> void load_minimal(const Archive& ar, const V& value)`.");
      value_type value = read_minimal_value<T>(in);
      call_user_hook(in, start, [&] { v = access::construct_from<T>(std::move(value)); });
    }
  }
};

// ---- refusals ----------------------------------------------------------------------------------

/// The primary codec refuses T: a standard type whose header is missing, a type that is not a
/// class, a class whose hooks are wrong (hooks.hpp), or a combination of features that cannot
/// work. Such a codec derives from refused_codec, which has every member a caller uses and none
/// that would look into T, so that the refusal's static_assert is the only error.
template <class T>
constexpr bool primary_refused() {
  if constexpr (!std::is_class_v<T> || needs_types_header<T>)
    return true;
  else
    return owning_ref_like<T> || (enable_identity<T> && !pointer_machinery_included<T>) ||
           hook_refusal_of<T>() != hook_refusal::none || (enable_identity<T> && has_load_and_construct<T>) ||
           (enable_record<T> && enable_identity<T>) || (enable_identity<T> && std::is_polymorphic_v<T>);
}

template <class T>
struct refused_codec {
  static constexpr std::size_t min_size = 1;
  static constexpr std::size_t size(const T&) noexcept { return 0; }
  static std::byte* write(std::byte* out, const T&) noexcept { return out; }
  static void read(source&, T&) noexcept {}
  // (No function may return an array: a refused C array gets void, so that its refusal stays the
  // only error.)
  static std::conditional_t<std::is_array_v<T>, void, T> construct(source&);
};

template <class T>
using primary_codec_base =
    std::conditional_t<primary_refused<T>(), refused_codec<T>,
                       std::conditional_t<record<T>, record_codec<T>,
                                          std::conditional_t<has_save_minimal<T>, minimal_codec<T>, struct_codec<T>>>>;

}  // namespace detail

/// The primary codec: user classes (aggregates or classes with a hook) are struct envelopes,
/// records where enable_record says so, or their value for minimal types. Other types without a
/// codec are refused with a message naming the reason.
template <class T>
struct codec : detail::primary_codec_base<T> {
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
  static_assert(!(missing && detail::std_atomic_like<T>),
                "bifrons: std::atomic needs #include <bifrons/types/atomic.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(missing && detail::std_valarray_like<T>),
                "bifrons: std::valarray needs #include <bifrons/types/valarray.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(
      !(missing && detail::std_path_like<T>),
      "bifrons: std::filesystem::path needs #include <bifrons/types/filesystem.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!(enable_identity<T> && std::is_polymorphic_v<T>),
                "bifrons: enable_identity on a polymorphic class is not supported: hold its objects through "
                "unique_ptr or shared_ptr, which give them identity (and keep their dynamic type)");
  static_assert(!(enable_record<T> && enable_identity<T>),
                "bifrons: a record cannot have enable_identity: records are copied as blocks, without ids");
  static_assert(!(std::is_class_v<T> && enable_identity<T> && detail::has_load_and_construct<T>),
                "bifrons: a class with load_and_construct cannot have enable_identity: its objects are "
                "constructed after their fields are read, so nothing can point at them while they are");
  static_assert(!(enable_identity<T> && !detail::pointer_machinery_included<T> && !std::is_polymorphic_v<T> &&
                  !enable_record<T> && !detail::has_load_and_construct<T>),  // (each refused above)
                "bifrons: enable_identity gives objects ids for pointers, whose machinery this program does not "
                "include: #include <bifrons/pointers.hpp> (or the header of its pointers, or <bifrons/bifrons.hpp>)");
  static_assert(!std::is_pointer_v<T>,
                "bifrons: raw pointers need #include <bifrons/pointers.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!detail::owning_ref_like<T>,
                "bifrons: owning() needs #include <bifrons/pointers.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert(!std::is_same_v<std::remove_cv_t<T>, long double>,
                "bifrons: long double has no portable encoding (80, 64 or 128 bits by platform); "
                "store a double, or two doubles");
  static_assert(!detail::wide_integer<T>,
                "bifrons: integers wider than 64 bits (__int128) have no encoding in format v1; store two "
                "64-bit halves (a struct of a high and a low std::uint64_t)");
  static_assert(!std::is_array_v<T>,
                "bifrons: C arrays need #include <bifrons/types/array.hpp> (or <bifrons/bifrons.hpp>)");
  static_assert((!std::is_reference_v<T> && !std::is_function_v<T> && !std::is_union_v<T> && std::is_class_v<T>) ||
                    std::is_same_v<std::remove_cv_t<T>, long double> || std::is_array_v<T> || std::is_pointer_v<T> ||
                    detail::wide_integer<T>,  // refused above
                "bifrons: this type cannot be serialized: it is not a class, and no codec covers it");
  static_assert([] {
    if constexpr (std::is_class_v<T> && !missing) detail::check_hooks<T>();
    return true;
  }());
};

}  // namespace bifrons
