// SPDX-License-Identifier: MIT
#pragma once
// The pointer encoding of docs/format.md, "Pointers", by role. A pointer is a varint tag:
// 0 null, 1 a new object followed by its encoding, 3 + k a reference to the object with id k + 1.
// Every object that a pointer introduces, and every by-value object of a type with
// enable_identity, takes the next id. The roles differ in what they may write and accept:
//
//   role                               | writes        | accepts on reading
//   -----------------------------------+---------------+------------------------------------------
//   unique (unique_ptr, owning raw)    | 0, 1          | 0, 1
//   shared (shared_ptr)                | 0, 1, refs    | 0, 1, refs to shared objects not being read
//   weak (weak_ptr)                    | 0, 1, refs    | 0, 1, refs to shared objects
//   observer (T*, reference_wrapper)   | 0, refs       | 0, refs to any object of the type
//
// "Not being read": a shared_ptr back to an object whose encoding is still open would close a
// cycle of owners, which leaks; the writer refuses such a value and the reader such bytes. The
// owners along the way include a weak link when the object was opened by a weak_ptr below it.
//
// The size pass (write_session.hpp) decides the tags and the write pass replays them; reading
// resolves references against the source's object table (objects.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ranges>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "../identity.hpp"
#include "codec.hpp"
#include "creation.hpp"
#include "hooks.hpp"
#include "objects.hpp"
#include "record_codec.hpp"
#include "source.hpp"
#include "write_session.hpp"

namespace bifrons::detail {

inline constexpr std::uint64_t null_tag = 0;
inline constexpr std::uint64_t new_object_tag = 1;
inline constexpr std::uint64_t first_reference_tag = 3;

constexpr std::uint64_t reference_tag(std::uint64_t id) noexcept { return first_reference_tag + (id - 1); }

// ---- which values hold pointers ---------------------------------------------------------------

/// What a scan of a type's parts looks for: any pointer (the reader's guards for temporaries
/// and rereads), or what needs object ids (references are possible only with shared_ptr,
/// weak_ptr, raw pointers or by-value objects with identity; a value of unique_ptrs alone never
/// refers back, so neither side tracks its objects).
enum class pointer_scan : std::uint8_t { any_pointer, identity };

template <class T, class List>
inline constexpr bool listed = false;
template <class T, class... L>
inline constexpr bool listed<T, type_list<L...>> = (std::is_same_v<T, L> || ...);

template <class List, class T>
struct append_type;
template <class... L, class T>
struct append_type<type_list<L...>, T> {
  using type = type_list<L..., T>;
};

template <pointer_scan Scan, class T, class Seen>
constexpr bool scan_holds();

template <pointer_scan Scan, class Seen, class... F>
constexpr bool any_holds(type_list<F...>) {
  return (scan_holds<Scan, F, Seen>() || ...);
}
template <class Tuple, std::size_t... I>
type_list<std::tuple_element_t<I, Tuple>...> tuple_types(std::index_sequence<I...>);
template <class Variant, std::size_t... I>
type_list<std::variant_alternative_t<I, Variant>...> variant_types(std::index_sequence<I...>);

template <class T>
concept std_unique_ptr_like = std_smart_pointer_like<T> && requires { typename T::deleter_type; };

/// False only where T certainly holds nothing the scan looks for: scalars, strings, paths,
/// records, and standard containers and aggregates of such. A class with a hook (or a
/// load_and_construct) may write anything and runs user code, so it counts as holding pointers. Recursive types end the
/// scan where they recur (Seen).
template <pointer_scan Scan, class T, class Seen>
constexpr bool scan_holds() {
  using U = std::remove_cv_t<T>;
  using Next = typename append_type<Seen, U>::type;
  if constexpr (listed<U, Seen>) {
    return false;  // being scanned further up: its other parts decide
  } else if constexpr (std::is_pointer_v<U>) {
    return true;
  } else if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U> || std_path_like<U>) {
    return false;
  } else if constexpr (std_atomic_like<U>) {
    return scan_holds<Scan, typename U::value_type, Next>();
  } else if constexpr (std::is_array_v<U>) {
    return scan_holds<Scan, std::remove_extent_t<U>, Seen>();
  } else if constexpr (!std::is_class_v<U> || hook_count<U> != 0 || has_only_inherited_hooks<U> || enable_identity<U> ||
                       has_load_and_construct<U>) {
    return true;
  } else if constexpr (record<U>) {
    return false;
  } else if constexpr (reflected<U>) {
    return any_holds<Scan, Next>(member_types<U>{});
  } else if constexpr (std_unique_ptr_like<U> && Scan == pointer_scan::identity) {
    return scan_holds<Scan, typename U::element_type, Next>();
  } else if constexpr (std_smart_pointer_like<U>) {
    return true;
  } else if constexpr (std_string_like<U> || std_string_view_like<U> || std_bitset_like<U> || std_complex_like<U> ||
                       std_chrono_like<U> || std::is_same_v<U, std::monostate>) {
    return false;
  } else if constexpr (std_optional_like<U>) {
    return scan_holds<Scan, typename U::value_type, Next>();
  } else if constexpr (std_variant_like<U>) {
    return any_holds<Scan, Next>(decltype(variant_types<U>(std::make_index_sequence<std::variant_size_v<U>>{})){});
  } else if constexpr (std_adapter_like<U>) {
    return scan_holds<Scan, typename U::container_type, Next>();
  } else if constexpr (std::ranges::range<U>) {
    return scan_holds<Scan, std::ranges::range_value_t<U>, Next>();
  } else if constexpr (std_tuple_like<U>) {
    return any_holds<Scan, Next>(decltype(tuple_types<U>(std::make_index_sequence<std::tuple_size_v<U>>{})){});
  } else {
    return true;
  }
}

/// T may hold a pointer of any kind, or an object with identity.
template <class T>
constexpr bool may_hold_pointers() {
  return scan_holds<pointer_scan::any_pointer, T, type_list<>>();
}
/// T may hold something that takes part in references: writers and readers then track the
/// objects of unique owners too.
template <class T>
constexpr bool may_hold_identity() {
  return scan_holds<pointer_scan::identity, T, type_list<>>();
}
/// The entry points write these values under a session (write_session.hpp).
template <class T>
inline constexpr bool needs_write_session = may_hold_pointers<T>();

// ---- writing ---------------------------------------------------------------------------------

/// The encoding of an object that a pointer introduces (tag 1): one level deeper.
template <class T>
std::size_t pointee_size(write_session& s, const T& object) {
  if (!s.enter()) return 0;
  const std::size_t n = codec<T>::size(object);
  s.leave();
  return n;
}

/// unique_ptr and owning raw pointers: the size pass gives the object its id.
/// unique_ptr and owning raw pointers: the size pass gives the object its id where something
/// of the value can refer to it (a value of unique_ptrs alone never refers back).
template <class T>
std::size_t unique_size(const T* p) {
  if (p == nullptr) return 1;
  write_session& s = session();
  if (!s.tracks_unique()) return 1 + pointee_size(s, *p);
  if (s.find(p, type_key<T>) != nullptr) {
    s.fail(errc::ownership_conflict);
    return 1;
  }
  const std::size_t index = s.introduce(p, type_key<T>, object_kind::unique);
  const std::size_t n = 1 + pointee_size(s, *p);
  s.at(index).in_progress = false;
  return n;
}
template <class T>
std::byte* unique_write(std::byte* out, const T* p) {
  if (p == nullptr) return write_varint(out, null_tag);
  return codec<T>::write(write_varint(out, new_object_tag), *p);
}

/// shared_ptr (weak_link false) and the object a weak_ptr locks (weak_link true); T is the
/// pointee without const.
template <class T, class Pointee>
std::size_t shared_size(const std::shared_ptr<Pointee>& p, bool weak_link) {
  write_session& s = session();
  if (!p) {
    s.record(null_tag);
    return 1;
  }
  if (write_session::object* o = s.find(p.get(), type_key<T>)) {
    // The same address with another owner: a shared_ptr made with the aliasing constructor,
    // whose object cannot be restored as part of its owner.
    const bool same_owner = !o->owner.owner_before(p) && !p.owner_before(o->owner);
    if (o->kind != object_kind::shared || !same_owner) {
      s.fail(errc::ownership_conflict);
    } else if (!weak_link && !s.may_own(*o)) {
      s.fail(errc::ownership_cycle);
    }
    if (!weak_link) o->owned = true;
    const std::uint64_t tag = reference_tag(o->id);
    s.record(tag);
    return varint_size(tag);
  }
  const std::size_t index = s.introduce(p.get(), type_key<T>, object_kind::shared);
  s.at(index).owner = p;
  s.at(index).owned = !weak_link;
  s.record(new_object_tag);
  const std::uint64_t floor = weak_link ? s.raise_floor(s.at(index).id) : 0;
  const std::size_t n = 1 + pointee_size<T>(s, *p);
  if (weak_link) s.restore_floor(floor);
  s.at(index).in_progress = false;
  return n;
}

/// Non-owning pointers: a reference to an object written before, never a new object.
template <class T>
std::size_t observer_size(const T* p) {
  write_session& s = session();
  if (p == nullptr) {
    s.record(null_tag);
    return 1;
  }
  write_session::object* o = s.find(p, type_key<T>);
  if (o == nullptr) {
    s.fail(errc::unwritten_pointee);
    s.record(null_tag);
    return 1;
  }
  // An object that only weak_ptrs hold so far dies after reading unless a shared_ptr later in
  // the message owns it: checked at the end of the size pass.
  if (o->kind == object_kind::shared && !o->owned) s.observed_unowned(*o);
  const std::uint64_t tag = reference_tag(o->id);
  s.record(tag);
  return varint_size(tag);
}

/// shared, weak and observer pointers: the tag the size pass decided, then a new object's
/// encoding.
template <class T>
std::byte* replayed_write(std::byte* out, const T* p) {
  const std::uint64_t tag = session().replay();
  out = write_varint(out, tag);
  return tag == new_object_tag ? codec<T>::write(out, *p) : out;
}

/// A by-value object of a type with enable_identity takes an id (size pass only: it writes no
/// bytes of its own). An object that a pointer introduces has its id already: the pointer's.
template <class T>
void introduce_by_value(const T& v) {
  write_session& s = session();
  if (s.current_pass() != write_session::pass::size) return;
  if (const write_session::object* o = s.find(&v, type_key<T>)) {
    if (!(o->in_progress && o->kind != object_kind::by_value)) s.fail(errc::ownership_conflict);
    return;
  }
  s.at(s.introduce(&v, type_key<T>, object_kind::by_value)).in_progress = false;
}

// ---- reading ---------------------------------------------------------------------------------

/// The object a reference tag names, if it exists and has the pointer's type; else the error
/// (invalid_value at `at`) and nullptr.
inline object_table::entry* referenced_object(source& in, const std::byte* at, std::uint64_t tag, const void* type) {
  const std::uint64_t index = tag - first_reference_tag;
  if (index >= in.object_count()) {
    in.fail_at(errc::invalid_value, at);  // a forward reference, or past every object
    return nullptr;
  }
  object_table::entry& e = in.objects().at(static_cast<std::size_t>(index));
  if (e.type != type) {
    in.fail_at(errc::invalid_value, at);  // another type: never reinterpret the object
    return nullptr;
  }
  return &e;
}

/// Reads a tag; false after an error.
inline bool read_tag(source& in, std::uint64_t& tag) {
  tag = in.read_varint();
  return !in.failed();
}

/// unique_ptr: a null or a new object, which reuses the pointer's object if it has one (and
/// its type can be read into: not const). Objects are made by new_read (creation.hpp).
template <class T>
void unique_read(source& in, std::unique_ptr<T>& p) {
  using U = std::remove_cv_t<T>;
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_tag(in, tag)) return;
  if (tag == null_tag) return p.reset();
  if (tag != new_object_tag) return in.fail_at(errc::invalid_value, at);
  if (!in.count_object(at)) return;
  // Only where something can refer to the object does it go into the table.
  object_table* table = in.tracks_objects() ? &in.objects() : nullptr;
  std::size_t index = 0;
  const auto introduced = [&](U* object) {
    if (table) index = table->add({object, type_key<U>, {}, nullptr, nullptr, object_kind::unique});
  };
  if (p && readable_in_place<T>) {
    introduced(const_cast<U*>(p.get()));
    fresh_guard guard(in, in.fresh);
    codec<U>::read(in, const_cast<U&>(*p));
  } else {
    if (!in.charge(at, 1, sizeof(U))) return;
    p.reset();
    (void)new_read<U>(in, introduced, [&](U* object) { p.reset(object); });
  }
  if (table) table->at(index).in_progress = false;
}

/// An owning raw pointer: as unique_ptr; an object the read allocates is the table's to free
/// until the value is read, and the caller's after.
template <class T>
void owning_read(source& in, T*& p) {
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_tag(in, tag)) return;
  if (tag == null_tag) {
    delete p;
    p = nullptr;
    return;
  }
  if (tag != new_object_tag) return in.fail_at(errc::invalid_value, at);
  if (!in.count_object(at)) return;
  if (p != nullptr && !readable_in_place<T>) {
    delete p;
    p = nullptr;
  }
  const bool created = p == nullptr;
  if (created && !in.charge(at, 1, sizeof(T))) return;
  object_table& table = in.objects();
  std::size_t index;
  if (created) {
    // In the table's hands as soon as it exists: a failure from then on deletes the object and
    // nulls the pointer.
    (void)new_read<T>(
        in, [&](T* object) { index = table.add({object, type_key<T>, {}, nullptr, nullptr, object_kind::unique}); },
        [&](T* object) {
          p = object;
          table.at(index).slot = &p;
          table.at(index).ops = &owned_ops_for<T>;
        });
  } else {
    index = table.add({p, type_key<T>, {}, nullptr, nullptr, object_kind::unique});
    fresh_guard guard(in, in.fresh);
    codec<T>::read(in, *p);
  }
  table.at(index).in_progress = false;
}

/// What a shared_ptr's control block and allocation overhead cost the budget, besides the object.
inline constexpr std::size_t shared_overhead = 4 * sizeof(void*);

/// shared_ptr (weak_link false) and weak_ptr (weak_link true): a new object is always a new
/// allocation (an object being reused may be shared with owners outside the message).
template <class T>
void shared_read(source& in, std::shared_ptr<T>& p, bool weak_link) {
  using U = std::remove_cv_t<T>;
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_tag(in, tag)) return;
  if (tag == null_tag) return p.reset();
  if (tag == new_object_tag) {
    if (!in.count_object(at) || !in.charge(at, 1, sizeof(U) + shared_overhead)) return;
    object_table& table = in.objects();
    std::size_t index = 0;
    // Objects begun inside one that a weak_ptr introduced are owned through a weak link.
    struct weak_floor {
      object_table& table;
      std::size_t saved = 0;
      bool raised = false;
      ~weak_floor() {
        if (raised) table.restore_floor(saved);
      }
    } floor{table};
    p = new_shared_read<U>(in, [&](const std::shared_ptr<U>& object) {
      index = table.add({object.get(), type_key<U>, object, nullptr, nullptr, object_kind::shared});
      if (weak_link) {
        floor.saved = table.raise_floor(index);
        floor.raised = true;
      }
    });
    table.at(index).in_progress = false;
    return;
  }
  if (tag < first_reference_tag) return in.fail_at(errc::invalid_value, at);
  object_table::entry* e = referenced_object(in, at, tag, type_key<U>);
  if (e == nullptr) return;
  const auto index = static_cast<std::size_t>(tag - first_reference_tag);
  if (e->kind != object_kind::shared || (!weak_link && !in.objects().may_own(index)))
    return in.fail_at(errc::invalid_value, at);
  p = std::shared_ptr<U>(e->owner, static_cast<U*>(e->address));
}

/// Non-owning pointers: null or a reference to any object of the type.
template <class T>
void observer_read(source& in, T*& p, bool nullable) {
  using U = std::remove_cv_t<T>;
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_tag(in, tag)) return;
  if (tag == null_tag && nullable) {
    p = nullptr;
    return;
  }
  if (tag < first_reference_tag) return in.fail_at(errc::invalid_value, at);
  if (object_table::entry* e = referenced_object(in, at, tag, type_key<U>)) {
    if (e->kind == object_kind::shared && e->observed_at == nullptr) e->observed_at = at;
    p = static_cast<U*>(e->address);
  }
}

/// A by-value object of a type with enable_identity takes the next id, unless a pointer has just
/// introduced it (the table's last object, still being read).
template <class T>
bool enter_by_value(source& in, T& v) {
  if (const std::size_t n = in.object_count(); n != 0) {
    const object_table::entry& last = in.objects().at(n - 1);
    if (last.address == &v && last.type == type_key<T> && last.in_progress && last.kind != object_kind::by_value)
      return true;
  }
  if (!in.count_object(in.position())) return false;
  in.objects().add({&v, type_key<T>, {}, nullptr, nullptr, object_kind::by_value, false});
  return true;
}

}  // namespace bifrons::detail
