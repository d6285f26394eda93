// SPDX-License-Identifier: MIT
#pragma once
// The pointer encoding of docs/format.md, "Pointers", by role. A pointer is a varint tag:
// 0 null, 1 a new object of the pointer's type followed by its encoding, 2 a new object of a
// registered polymorphic type (its type, the count of objects inside it, its encoding as that
// type), 3 + k a reference to the object with id k + 1. Every object that a pointer introduces,
// and every by-value object of a type with enable_identity, takes the next id. The roles differ
// in what they may write and accept (tag 1 stands for 1 and 2 here):
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
//
// Polymorphic pointees: a pointer to a polymorphic T whose object's dynamic type is T itself is
// written with tag 1, as for any T (so no registration is needed until a derived class is
// used). Any other dynamic type must be registered (registry.hpp) with a chain of relations to
// T; it is written with tag 2 and read back through that chain of casts, which adjusts the
// pointer for multiple and virtual inheritance. An object's identity is its complete object (the
// address dynamic_cast<void*> gives) and its registered type, so pointers to different bases of
// one object refer to one object.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "../identity.hpp"
#include "codec.hpp"
#include "creation.hpp"
#include "hooks.hpp"
#include "objects.hpp"
#include "pointer_traits.hpp"
#include "range_traits.hpp"
#include "record_codec.hpp"
#include "registry.hpp"
#include "source.hpp"
#include "write_session.hpp"

namespace bifrons::detail {

/// A pointer to a polymorphic class needs RTTI to find the class of the object it points to:
/// without it, every pointer codec refuses such a pointee in its class, with
/// BIFRONS_RTTI_REFUSAL, and its functions do nothing (so that the refusal is the only error).
template <class T>
inline constexpr bool rtti_if_polymorphic = BIFRONS_HAS_RTTI || !std::is_polymorphic_v<T>;
#define BIFRONS_RTTI_REFUSAL                                                                              \
  "bifrons: a pointer to a polymorphic class (one with a virtual function) needs RTTI to find the class " \
  "of the object it points to, and the program is compiled without it (-fno-rtti): compile with RTTI, "   \
  "or hold the object by value"

inline constexpr std::uint64_t null_tag = 0;
inline constexpr std::uint64_t new_object_tag = 1;
inline constexpr std::uint64_t polymorphic_tag = 2;
inline constexpr std::uint64_t first_reference_tag = 3;

constexpr std::uint64_t reference_tag(std::uint64_t id) noexcept { return first_reference_tag + (id - 1); }

// ---- writing ---------------------------------------------------------------------------------

/// The encoding of an object that a pointer introduces (tag 1): one level deeper.
template <class T>
BIFRONS_INLINE std::size_t pointee_size(write_session& s, const T& object) {
  if (!s.enter()) return 0;
  const std::size_t n = codec<T>::size(object);
  s.leave();
  return n;
}

/// What the writer knows of the object a pointer points to.
struct pointee {
  const void* address;  // the complete object
  const void* key;  // its identity in the session: type_key<T> or its registered type
  const registered_type* dynamic;  // tag 2: its registered type, which is not the pointer's type
  std::size_t dynamic_index;  // ...and its entry in the session
};

/// The note of errc::unregistered_type: which dynamic type, behind which pointer.
BIFRONS_COLD inline void note_unregistered(const std::type_info& dynamic, std::string_view pointer_type) {
  std::string name;
#if BIFRONS_HAS_EXCEPTIONS
  try {
    name = readable_name(dynamic);
  } catch (...) {
  }
#else
  name = readable_name(dynamic);
#endif
  note_failure(errc::unregistered_type, 0,
               {"a pointer to ", pointer_type, " holds an object of dynamic type ", name,
                ", which this program has not registered (BIFRONS_REGISTER), or registered without ", pointer_type,
                " among its bases (bifrons::base<", pointer_type, ">(*this) in its hook)"});
}

/// The note of errc::unwritten_pointee for a pointer whose object the value has not written.
BIFRONS_COLD inline void note_unwritten(std::string_view pointee_type) {
  note_failure(errc::unwritten_pointee, 0,
               {"a non-owning pointer to ", pointee_type,
                " points at an object that the value does not write before it: write that object in an earlier "
                "field, through an owning pointer (unique_ptr, shared_ptr, bifrons::owning) or by value with "
                "bifrons::enable_identity"});
}

/// The complete object of *p and its identity, or false (and the error) when it cannot be
/// written: a dynamic type that is not registered, or not as derived from T.
template <class T>
BIFRONS_INLINE bool identify(write_session& s, const T* p, pointee& out) {
  if constexpr (!std::is_polymorphic_v<T>) {
    out = {p, type_key<T>, nullptr, 0};
    return true;
  } else {
    const std::size_t i = s.dynamic(dynamic_type_of(p));
    const write_session::dynamic_type& d = s.relate(i, type_of<T>());
    if (d.same) {
      out = {p, d.registered != nullptr ? static_cast<const void*>(d.registered) : type_key<T>, nullptr, i};
      return true;
    }
    if (!d.derives) {
      if (s.error() == errc::ok) note_unregistered(dynamic_type_of(p), derived_type_name<T>.view());
      s.fail(errc::unregistered_type);
      return false;
    }
    out = {dynamic_cast<const void*>(p), d.registered, d.registered, i};
    return true;
  }
}

/// Size pass: a new object with its tag. Tag 1: the object as T (the shared and observer roles
/// record the 1 themselves). Tag 2 (a derived type): records 2, the number of names its header
/// lists, its type index and the count of objects inside its encoding; the last is known only
/// after the encoding is sized, and so is the first: the header of the outermost polymorphic
/// object lists every type first used inside it (so that a reader that skips the object, or
/// fields of it, still knows every type index after it).
template <class T>
std::size_t new_object_size(write_session& s, const T& object, const pointee& o) {
  if (o.dynamic == nullptr) {
    if constexpr (std::is_abstract_v<T>)
      return 1;  // unreachable: no object's dynamic type is abstract
    else
      return 1 + pointee_size(s, object);
  }
  const bool outermost = s.enter_polymorphic();
  const std::size_t first_name = s.name_count();
  const std::uint64_t index = s.type_index(o.dynamic_index);
  // Four tags: 2, the number of names listed (set below), the type index, the count of objects
  // inside (set below).
  const std::size_t first = s.record_later(4);
  const std::size_t names_at = first + 1;
  const std::size_t count_at = first + 3;
  s.set_recorded(first, polymorphic_tag);
  s.set_recorded(names_at, 0);
  s.set_recorded(first + 2, index);
  const std::uint64_t first_inside = s.next_id();
  std::size_t body = 0;
  if (s.enter()) {
    body = o.dynamic->ops->size(o.address);
    s.leave();
  }
  s.leave_polymorphic();
  const std::uint64_t inside = s.next_id() - first_inside;
  s.set_recorded(count_at, inside);
  std::size_t header = varint_size(index) + varint_size(inside);
  if (outermost && s.name_count() != first_name) {
    const std::size_t listed = s.name_count() - first_name;
    s.set_recorded(names_at, listed);
    header += 1 + varint_size(listed);
    for (std::size_t i = first_name; i < s.name_count(); ++i) {
      const std::size_t length = s.named(i + 1)->name.size();
      header += varint_size(length) + length;
    }
  }
  return 1 + header + body;
}

/// Write pass, after the size pass recorded tag 2 (and the caller replayed it): the names the
/// header lists, the type index, the count of objects inside, then the object as its type.
inline std::byte* write_polymorphic(std::byte* out, const void* object) {
  write_session& s = session();
  const std::uint64_t listed = s.replay();
  const std::uint64_t index = s.replay();
  const std::uint64_t inside = s.replay();
  out = write_varint(out, polymorphic_tag);
  if (listed != 0) {
    out = write_varint(write_varint(out, 0), listed);
    for (std::uint64_t i = 0; i < listed; ++i) {
      const std::string& name = s.next_listed_name()->name;
      out = write_varint(out, name.size());
      std::memcpy(out, name.data(), name.size());
      out += name.size();
    }
  }
  out = write_varint(write_varint(out, index), inside);
  return s.named(index)->ops->write(out, object);
}

/// unique_size for a pointer that is not null.
template <class T, bool OwnerCheck>
std::size_t unique_object_size(const T* p) {
  write_session& s = session();
  // Not tracked: the value holds no pointer that refers back, nor polymorphic objects whose
  // headers count ids (either makes may_hold_identity true).
  if constexpr (!std::is_polymorphic_v<T>) {
    if (!s.tracks_unique()) return 1 + pointee_size(s, *p);
  }
  pointee o;
  if (!identify(s, p, o)) return 1;
  // The write pass replays the tag of a polymorphic object rather than comparing type_infos
  // again (operator== runs strcmp on the names of two different types).
  if (std::is_polymorphic_v<T> && o.dynamic == nullptr) s.record(new_object_tag);
  if (!s.tracks_unique()) return new_object_size(s, *p, o);
  if (OwnerCheck && s.find(o.address, o.key) != nullptr) {
    s.fail(errc::ownership_conflict);
    return 1;
  }
  const std::size_t index = s.introduce(o.address, o.key, object_kind::unique);
  const write_session::opened opened = s.open(index, false);
  const std::size_t n = new_object_size(s, *p, o);
  s.close(index, opened);
  return n;
}
/// unique_ptr (OwnerCheck false) and owning raw pointers (true): the size pass gives the object
/// its id where something of the value can refer to it (a value of unique_ptrs alone never refers
/// back). An owning raw pointer to an object the message already holds is refused
/// (ownership_conflict); two unique_ptrs cannot own one object in a valid program, so theirs
/// are not looked up (a value of unique_ptrs never builds the hash index).
/// A null pointer is sized and written inline: a tree has about as many null pointers (at its
/// leaves) as objects, and the call cost each of them a function's entry and exit.
template <class T, bool OwnerCheck>
BIFRONS_INLINE std::size_t unique_size(const T* p) {
  return p == nullptr ? 1 : unique_object_size<T, OwnerCheck>(p);
}
/// unique_write for a pointer that is not null.
template <class T>
std::byte* unique_object_write(std::byte* out, const T* p) {
  if constexpr (std::is_polymorphic_v<T>) {
    // The size pass recorded 1 or 2 for every polymorphic object.
    if (session().replay() == polymorphic_tag) return write_polymorphic(out, dynamic_cast<const void*>(p));
  }
  if constexpr (std::is_abstract_v<T>)
    return out;  // unreachable: no object's dynamic type is abstract
  else
    return codec<T>::write(write_varint(out, new_object_tag), *p);
}

template <class T>
BIFRONS_INLINE std::byte* unique_write(std::byte* out, const T* p) {
  return p == nullptr ? write_varint(out, null_tag) : unique_object_write(out, p);
}

/// shared_size for a pointer that is not null.
template <class T, class Pointee>
std::size_t shared_object_size(const std::shared_ptr<Pointee>& p, bool weak_link) {
  write_session& s = session();
  pointee o;
  if (!identify<T>(s, p.get(), o)) {
    s.record(null_tag);
    return 1;
  }
  if (write_session::object* found = s.find(o.address, o.key)) {
    // The same address with another owner: a shared_ptr made with the aliasing constructor,
    // whose object cannot be restored as part of its owner.
    const bool same_owner = !found->owner.owner_before(p) && !p.owner_before(found->owner);
    if (found->kind != object_kind::shared || !same_owner) {
      s.fail(errc::ownership_conflict);
    } else if (!weak_link && !s.own(*found)) {
      s.fail(errc::ownership_cycle);
    }
    const std::uint64_t tag = reference_tag(found->id);
    s.record(tag);
    return varint_size(tag);
  }
  const std::size_t index = s.introduce(o.address, o.key, object_kind::shared, p);
  if (o.dynamic == nullptr) s.record(new_object_tag);
  const write_session::opened opened = s.open(index, weak_link);
  const std::size_t n = new_object_size<T>(s, *p, o);
  s.close(index, opened);
  return n;
}

/// shared_ptr (weak_link false) and the object a weak_ptr locks (weak_link true); T is the
/// pointee without const. A null pointer is sized inline: a tree has about as many null
/// pointers (at its leaves) as objects, and a call would cost each of them.
template <class T, class Pointee>
BIFRONS_INLINE std::size_t shared_size(const std::shared_ptr<Pointee>& p, bool weak_link) {
  if (p) return shared_object_size<T>(p, weak_link);
  session().record(null_tag);
  return 1;
}

/// observer_size for a pointer that is not null.
template <class T>
std::size_t observer_object_size(const T* p) {
  write_session& s = session();
  pointee o;
  write_session::object* found = identify(s, p, o) ? s.find(o.address, o.key) : nullptr;
  if (found == nullptr) {
    if (s.error() == errc::ok) note_unwritten(derived_type_name<T>.view());
    s.fail(errc::unwritten_pointee);  // (after unregistered_type, if identify failed: the first error stays)
    s.record(null_tag);
    return 1;
  }
  // An object in a shared object dies after reading unless the value owns that object, which is
  // known at the end of the size pass: checked there.
  if (s.shared_holder(*found) != nullptr) s.observed_in_shared(*found);
  const std::uint64_t tag = reference_tag(found->id);
  s.record(tag);
  return varint_size(tag);
}

/// Non-owning pointers: a reference to an object written before, never a new object. Null
/// inline, as shared_size.
template <class T>
BIFRONS_INLINE std::size_t observer_size(const T* p) {
  if (p != nullptr) return observer_object_size(p);
  session().record(null_tag);
  return 1;
}

/// replayed_write for a new object (tag 1 or 2).
template <class T, class Pointee>
std::byte* replayed_write_object(std::byte* out, std::uint64_t tag, const Pointee& pointee) {
  const auto& p = pointee();
  if constexpr (std::is_polymorphic_v<T>) {
    if (tag == polymorphic_tag) return write_polymorphic(out, dynamic_cast<const void*>(std::to_address(p)));
  }
  out = write_varint(out, tag);
  if constexpr (std::is_abstract_v<T>)
    return out;  // tag 1 is never decided for an abstract T
  else
    return codec<T>::write(out, *p);
}

/// shared, weak and observer pointers: the tag the size pass decided, then a new object's
/// encoding. `pointee()` gives the object (a T* or a shared_ptr that keeps it alive while it is
/// written) and is called only for a new object: a weak_ptr's lock() is an atomic
/// compare-and-swap even in a single-threaded program, and most weak_ptrs of a message (parent
/// links) are references. Null pointers and references are written inline, a new object by a
/// call (it recurses).
template <class T, class Pointee>
BIFRONS_INLINE std::byte* replayed_write(std::byte* out, const Pointee& pointee) {
  const std::uint64_t tag = session().replay();
  if (tag != new_object_tag && tag != polymorphic_tag) return write_varint(out, tag);
  return replayed_write_object<T>(out, tag, pointee);
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

/// Enters an object that a pointer of static type T introduces with tag 1 in the reader's table
/// and returns its entry (its index: size() - 1). Its identity: its registered type if T is
/// polymorphic and registered (so that pointers to its bases can refer to it), else type_key<T>.
template <class T>
BIFRONS_INLINE object_table::entry& enter_static(object_table& table, void* address, object_kind kind) {
  if constexpr (std::is_polymorphic_v<T>) {
    if (const registered_type* type = table.registered(type_of<T>())) return table.add(address, type, kind, true);
  }
  return table.add(address, type_key<T>, kind, false);
}

/// Marks the entry of an object of tag 1 that its load_and_construct is making (`in_progress`:
/// until the hook returns it): a registered class's entry casts references to the pointer's base,
/// and one through a virtual base is refused until the object exists (resolve_other_reference).
/// Nothing for the other classes.
template <class T>
BIFRONS_INLINE void being_made(object_table::entry& e, bool in_progress) noexcept {
  if constexpr (std::is_polymorphic_v<T> && created_by_hook<T>) e.unconstructed = in_progress;
}

/// Enters an object of registered type `type` introduced with tag 2.
BIFRONS_INLINE object_table::entry& enter_dynamic(object_table& table, void* address, const registered_type* type,
                                                  object_kind kind) {
  return table.add(address, type, kind, true);
}

/// Gives `count` objects that the read skips (an unregistered type, or what an older class's
/// reader does not read of a newer writer's object) their ids, so that the ids after them stay
/// in step; references to them follow read_options::unknown_types.
inline bool add_skipped(source& in, const std::byte* at, std::uint64_t count) {
  object_table& table = in.objects();
  for (std::uint64_t i = 0; i < count; ++i) {
    if (!in.count_object(at)) return false;
    table.add(nullptr, nullptr, object_kind::skipped, false).in_progress = false;
  }
  return true;
}

/// A reference (tag at `at`) to object `tag`'s object, as a pointer to T.
struct reference {
  object_table::entry* entry;  // nullptr: the pointer reads as null (a skipped object)
  void* address;  // the T subobject
};

/// Resolves a reference tag: the object must exist and be a T (or, for a polymorphic T, of a
/// registered type derived from T), else invalid_value; a skipped object fails the read with
/// unknown_type, or reads as null under unknown_type_policy::null where the pointer may be null.
/// False after an error.
/// resolve_reference when the object is not simply a T: a skipped object, or one of a registered
/// type that may derive from T; anything else (another type, an object destroyed) is refused,
/// never reinterpreted.
template <class T>
BIFRONS_COLD bool resolve_other_reference(source& in, const std::byte* at, object_table::entry& e, bool nullable,
                                          reference& out) {
  e.named_early = e.named_early || e.in_progress;  // see resolve_reference
  if (e.kind == object_kind::skipped) {
    if (!nullable || in.unknown_types() != unknown_type_policy::null) {
      if (!in.failed()) {
        in.fail_at(errc::unknown_type, at);
        note_failure(errc::unknown_type, in.error_offset(),
                     {"a reference to an object of a type this program has not registered, which "
                      "unknown_type_policy::null skipped, from a pointer that cannot be null (",
                      derived_type_name<T>.view(), ")"});
      }
      return false;
    }
    out = {nullptr, nullptr};
    return true;
  }
  if constexpr (std::is_polymorphic_v<T>) {
    if (e.registered && e.address != nullptr) {
      if (const cast_path* path = in.objects().cast(e.dynamic(), type_of<T>())) {
        // A virtual base of an object that its load_and_construct is still making does not exist
        // yet (finding it reads the object's vtable): such a reference is refused.
        if (!(e.unconstructed && path->through_virtual_base)) {
          out = {&e, path->apply(e.address)};
          return true;
        }
      }
    }
  }
  in.fail_at(errc::invalid_value, at);
  return false;
}

template <class T>
BIFRONS_INLINE bool resolve_reference(source& in, const std::byte* at, std::uint64_t tag, bool nullable,
                                      reference& out) {
  const std::uint64_t index = tag - first_reference_tag;
  if (index >= in.object_count()) [[unlikely]] {
    in.fail_at(errc::invalid_value, at);  // a forward reference, or past every object
    return false;
  }
  object_table::entry& e = in.objects().at(static_cast<std::size_t>(index));
  // Only an object a hook makes, of a class with enable_shared_from_this, asks (shared_read_new);
  // a reference of another type goes through resolve_other_reference, which marks it too.
  if constexpr (shares_from_this<T> && !created_by_default<T>) e.named_early = e.named_early || e.in_progress;
  if (e.type == type_key<T>) [[likely]] {
    out = {&e, e.address};
    return true;
  }
  return resolve_other_reference<T>(in, at, e, nullable, out);
}

/// Reads a tag; false after an error.
inline bool read_tag(source& in, std::uint64_t& tag) {
  tag = in.read_varint();
  return !in.failed();
}
/// read_tag for the roles that accept references: two-byte tags, references to objects 126 to
/// 16,382 (every parent link of a tree past its first levels), are decoded inline.
BIFRONS_INLINE bool read_reference_tag(source& in, std::uint64_t& tag) {
  tag = in.read_length_varint();
  return !in.failed();
}

/// What follows tag 2: the object's registered type (nullptr: not registered here) and the
/// count of objects inside its encoding.
struct polymorphic_header {
  const registered_type* type = nullptr;
  std::size_t index = 0;  // its type index - 1
  std::uint64_t inside = 0;
};

/// Reads one type name of a tag-2 header (1 to 255 bytes) and gives it the next type index.
inline bool read_type_name(source& in) {
  const std::byte* at = in.position();
  const std::uint64_t length = in.read_varint();
  if (in.failed()) return false;
  if (length == 0 || length > max_type_name) {
    in.fail_at(errc::invalid_value, at);
    return false;
  }
  const std::byte* name = in.take(static_cast<std::size_t>(length));
  if (name == nullptr) return false;
  const std::string_view spelled(reinterpret_cast<const char*>(name), static_cast<std::size_t>(length));
  const registered_type* type = the_registry().find(spelled);
  // Its entry in the table's list of names (and, unknown here, in the list of their spellings),
  // which grow by doubling.
  const std::size_t entry = object_table::name_entry_size + (type == nullptr ? object_table::unknown_name_size : 0);
  if (!in.charge(at, 1, 2 * entry)) return false;
  in.objects().add_name(type, spelled);
  return true;
}

/// Reads what follows tag 2: a type index, or 0, a count k and k new type names and then the
/// type index; then the count of objects inside the encoding. False after an error.
BIFRONS_INLINE bool read_polymorphic_header(source& in, object_table& table, polymorphic_header& h) {
  const std::byte* at = in.position();
  std::uint64_t index = in.read_varint();
  if (in.failed()) return false;
  if (index == 0) {
    const std::byte* count_at = in.position();
    const std::uint64_t names = in.read_varint();
    if (in.failed()) return false;
    if (names == 0 || names > in.remaining() / 2) {  // a name takes at least 2 bytes
      in.fail_at(errc::invalid_value, count_at);
      return false;
    }
    for (std::uint64_t i = 0; i < names; ++i)
      if (!read_type_name(in)) return false;
    at = in.position();
    index = in.read_varint();
    if (in.failed()) return false;
  }
  if (index == 0 || index > table.name_count()) {
    in.fail_at(errc::invalid_value, at);  // a type not named before it
    return false;
  }
  h.index = static_cast<std::size_t>(index - 1);
  h.type = table.named(h.index);
  const std::byte* count_at = in.position();
  h.inside = in.read_varint();
  if (in.failed()) return false;
  // Every object inside takes at least one byte of the encoding that follows, a struct envelope:
  // counted against its length, not the rest of the input (a small object must not make a
  // reader that skips fields of it give out ids for the whole input).
  const std::byte* body = in.position();
  const std::uint64_t envelope = in.read_varint();
  if (in.failed()) return false;
  in.rewind(body);
  if (h.inside > (envelope >> 1) || h.inside > in.remaining()) {
    in.fail_at(errc::invalid_value, count_at);
    return false;
  }
  return true;
}

/// The note of errc::unknown_type: the type the data names (escaped: it is the data's), and the fix.
BIFRONS_COLD inline void note_unknown_type(std::size_t offset, std::string_view name) noexcept {
  std::string spelled;
#if BIFRONS_HAS_EXCEPTIONS
  try {
#endif
    spelled = data_spelling(name);
#if BIFRONS_HAS_EXCEPTIONS
  } catch (...) {
  }
#endif
  note_failure(errc::unknown_type, offset,
               {"the data holds an object of type \"", spelled,
                "\", which this program has not registered (BIFRONS_REGISTER); read with "
                "read_options::unknown_types = unknown_type_policy::null to read such pointers as null"});
}

/// An object of a type this program has not registered (tag at `at`): the read fails with
/// unknown_type, or, under unknown_type_policy::null, its encoding (a struct envelope) is skipped
/// and it and the objects inside it get their ids. True if the pointer is to read as null.
inline bool skip_unknown_object(source& in, const std::byte* at, const polymorphic_header& h) {
  const std::uint64_t inside = h.inside;
  if (in.unknown_types() != unknown_type_policy::null) {
    if (!in.failed()) {
      in.fail_at(errc::unknown_type, at);
      note_unknown_type(in.error_offset(), in.objects().unknown_name(h.index));
    }
    return false;
  }
  const std::uint64_t header = in.read_varint();
  if (in.failed()) return false;
  const std::uint64_t length = header >> 1;
  if (length > in.remaining()) {
    in.fail_short(length - in.remaining());  // where the input ends, as everywhere
    return false;
  }
  if (inside > length) {
    in.fail_at(errc::invalid_value, at);
    return false;
  }
  (void)in.skip(static_cast<std::size_t>(length));
  return add_skipped(in, at, 1 + inside);
}

/// The cast from the type a tag-2 header named to T, or nullptr and invalid_value at `at` (a type
/// that does not derive from T: never reinterpret an object).
template <class T>
BIFRONS_INLINE const cast_path* cast_to(source& in, object_table& table, const std::byte* at,
                                        const polymorphic_header& h) {
  const cast_path* path = table.cast_named(h.index, type_of<T>());
  if (path == nullptr) in.fail_at(errc::invalid_value, at);
  return path;
}

/// Object `index` is read (object_table::close): the read fails at `at` when the chain of owners it
/// heads is longer than read_options::max_depth, for destroying it would recurse that deep.
BIFRONS_INLINE void close_object(source& in, object_table& table, std::size_t index, object_table::opened opened,
                                 const std::byte* at) noexcept {
  if (!table.close(index, opened, in.max_depth()) && !in.failed()) in.fail_at(errc::depth_limit_exceeded, at);
}

/// Tag 1: no count of objects inside to check.
inline constexpr std::uint64_t no_count = ~std::uint64_t{0};

/// The end of read_new_object (below): closes object `index` and checks the count of objects inside.
BIFRONS_INLINE void end_new_object(source& in, object_table& table, const std::byte* at, std::size_t index,
                                   object_table::opened opened, std::uint64_t inside) {
  close_object(in, table, index, opened, at);
  if (inside != no_count && !in.failed()) {
    const std::size_t read = table.size() - (index + 1);
    if (read > inside) return in.fail_at(errc::invalid_value, at);
    if (read < inside) add_skipped(in, at, inside - read);
  }
}

/// Reads the encoding of a new object (with read_body), the table's last entry (`index`);
/// `fresh`: whether the object was just created. For tag 2, `inside` is what the header counted:
/// an older reader may have read fewer objects (the rest were in fields it skips: they get their
/// ids, so that the ids after them stay in step), never more.
template <class ReadBody>
BIFRONS_INLINE void read_new_object(source& in, object_table& table, const std::byte* at, std::size_t index,
                                    bool weak_link, std::uint64_t inside, bool fresh, ReadBody read_body) {
  const object_table::opened opened = table.open(index, weak_link);
  {
    fresh_guard guard(in, fresh);
    read_body();
  }
  end_new_object(in, table, at, index, opened, inside);
}

/// Tag 2 of a class that its load_and_construct makes (its ops have construct instead of create):
/// the registry's construct op calls introduce() with the object's storage before any field is
/// read, and the object enters the table there, unconstructed (resolve_other_reference) until
/// the hook returns it; then end() closes it. If the hook throws, the op frees the storage (a
/// shared object's, with its owner) and the exception goes on, as for an object of tag 1.
class dynamic_construction {
 public:
  dynamic_construction(source& in, object_table& table, const registered_type* type, std::uint64_t inside,
                       object_kind kind, bool weak_link) noexcept
      : in_(in), table_(table), type_(type), inside_(inside), kind_(kind), weak_link_(weak_link) {}

  /// The complete object, made by ops->construct.
  void* construct() { return type_->ops->construct(in_, &introduce, this); }
  /// The complete object's owner, made by ops->construct_shared.
  std::shared_ptr<void> construct_shared() { return type_->ops->construct_shared(in_, &introduce_shared, this); }
  [[nodiscard]] object_table::entry& entry() noexcept { return table_.at(index_); }
  /// The object is made: its bases exist, and the objects inside it are counted.
  void end(const std::byte* at) {
    table_.at(index_).unconstructed = false;
    end_new_object(in_, table_, at, index_, opened_, inside_);
  }

 private:
  static void introduce(void* context, void* storage) {
    auto& self = *static_cast<dynamic_construction*>(context);
    enter_dynamic(self.table_, storage, self.type_, self.kind_).unconstructed = true;
    self.index_ = self.table_.size() - 1;
    self.opened_ = self.table_.open(self.index_, self.weak_link_);
  }
  static void introduce_shared(void* context, const std::shared_ptr<void>& owner) {
    introduce(context, owner.get());
    auto& self = *static_cast<dynamic_construction*>(context);
    self.table_.at(self.index_).owner = owner;
  }

  source& in_;
  object_table& table_;
  const registered_type* type_;
  std::uint64_t inside_;
  object_kind kind_;
  bool weak_link_;
  std::size_t index_ = 0;
  object_table::opened opened_{};
};

// Tag 2 of a class that its load_and_construct makes (`type`, with `inside` objects inside), for each
// role; out of line, given no address of the caller's locals and at most six arguments (a seventh,
// passed on the stack, gave the inlined read a frame pointer, and every object a default
// constructor makes paid for it), so that those objects keep the inlined path they had.
template <class T>
BIFRONS_COLD void construct_unique(source& in, const std::byte* at, const registered_type* type, std::uint64_t inside,
                                   const cast_path& path, std::unique_ptr<T>& p) {
  object_table& table = in.objects();
  p.reset();
  dynamic_construction made(in, table, type, inside, object_kind::unique, false);
  void* const object = made.construct();
  p.reset(static_cast<T*>(path.apply(object)));
  made.end(at);
}
template <class T>
BIFRONS_COLD void construct_owned(source& in, const std::byte* at, const registered_type* type, std::uint64_t inside,
                                  const cast_path& path, T*& p) {
  object_table& table = in.objects();
  dynamic_construction made(in, table, type, inside, object_kind::unique, false);
  void* const object = made.construct();
  p = static_cast<T*>(path.apply(object));
  // The table's from here on: a failure deletes the object and nulls the pointer.
  made.entry().slot = &p;
  made.entry().ops = &owned_ops_for<T>;
  made.end(at);
}
template <class U>
BIFRONS_COLD void construct_shared(source& in, const std::byte* at, std::size_t type_index, std::uint64_t inside,
                                   std::shared_ptr<U>& p, bool weak_link) {
  object_table& table = in.objects();
  dynamic_construction made(in, table, table.named(type_index), inside, object_kind::shared, weak_link);
  const std::shared_ptr<void> owner = made.construct_shared();
  // (the path cast_to found, which the table keeps)
  p = std::shared_ptr<U>(owner, static_cast<U*>(table.cast_named(type_index, type_of<U>())->apply(owner.get())));
  made.end(at);
}

/// unique_ptr: a null or a new object, which reuses the pointer's object if it has one of the
/// data's type (and that type can be read into: not const). Objects are made by new_read
/// (creation.hpp), or by the registry for tag 2.
template <class T>
void unique_read_new(source& in, const std::byte* at, std::uint64_t tag, std::unique_ptr<T>& p) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_polymorphic_v<U>) {
    if (tag == polymorphic_tag) {
      object_table& table = in.objects();
      polymorphic_header h;
      if (!read_polymorphic_header(in, table, h)) return;
      if (h.type == nullptr) {
        if (skip_unknown_object(in, at, h)) p.reset();
        return;
      }
      const cast_path* path = cast_to<U>(in, table, at, h);
      if (path == nullptr || !in.count_object(at)) return;
      const bool created = !p || !readable_in_place<T> || dynamic_type_of(p) != *h.type->type ||
                           h.type->ops->read == nullptr;
      void* object;
      if (created) {
        if (!in.charge(at, 1, h.type->ops->object_size)) return;
        if (h.type->ops->create == nullptr) [[unlikely]]
          return construct_unique(in, at, h.type, h.inside, *path, p);
        object = h.type->ops->create();
        p.reset(static_cast<T*>(path->apply(object)));
      } else {
        object = dynamic_cast<void*>(const_cast<U*>(p.get()));
      }
      (void)enter_dynamic(table, object, h.type, object_kind::unique);
      return read_new_object(in, table, at, table.size() - 1, false, h.inside, created || in.fresh,
                             [&] { h.type->ops->read(in, object); });
    }
  }
  if (tag != new_object_tag) return in.fail_at(errc::invalid_value, at);
  if constexpr (std::is_abstract_v<U>) {
    return in.fail_at(errc::invalid_value, at);  // tag 1 would create an abstract T
  } else {
    if (!in.count_object(at)) return;
    if constexpr (std::is_polymorphic_v<U>) {
      if (p && dynamic_type_of(p) != type_of<U>()) p.reset();  // the data holds a T, not the derived object
    }
    // Only where something can refer to the object does it go into the table.
    object_table* table = in.tracks_objects() ? &in.objects() : nullptr;
    std::size_t index = 0;
    object_table::opened opened{};
    const auto introduced = [&](U* object) {
      if (table) {
        (void)enter_static<U>(*table, object, object_kind::unique);
        index = table->size() - 1;
        opened = table->open(index, false);
      }
    };
    bool read_into_existing = false;
    if constexpr (readable_in_place<T>) {
      if (p) {
        introduced(const_cast<U*>(p.get()));
        fresh_guard guard(in, in.fresh);
        codec<U>::read(in, const_cast<U&>(*p));
        read_into_existing = true;
      }
    }
    if (!read_into_existing) {
      if (!in.charge(at, 1, sizeof(U))) return;
      p.reset();
      (void)new_read<U>(
          in,
          [&](U* object) {
            introduced(object);
            if (table) being_made<U>(table->at(index), true);
          },
          [&](U* object) {
            p.reset(object);
            if (table) being_made<U>(table->at(index), false);
          });
    }
    if (table) close_object(in, *table, index, opened, at);
  }
}

/// unique_ptr: inlined up to a new object (a null, half the pointers of a tree, costs no call).
template <class T>
BIFRONS_INLINE void unique_read(source& in, std::unique_ptr<T>& p) {
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_tag(in, tag)) return;
  if (tag == null_tag) return p.reset();
  unique_read_new(in, at, tag, p);
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
  // The data's type, and how to make and read an object of it.
  const registered_type* type = nullptr;
  const cast_path* path = nullptr;
  std::uint64_t inside = no_count;
  if constexpr (std::is_polymorphic_v<T>) {
    if (tag == polymorphic_tag) {
      object_table& table = in.objects();
      polymorphic_header h;
      if (!read_polymorphic_header(in, table, h)) return;
      if (h.type == nullptr) {
        if (skip_unknown_object(in, at, h)) {
          delete p;
          p = nullptr;
        }
        return;
      }
      if ((path = cast_to<T>(in, table, at, h)) == nullptr) return;
      type = h.type;
      inside = h.inside;
    }
  }
  if (type == nullptr && tag != new_object_tag) return in.fail_at(errc::invalid_value, at);
  if constexpr (std::is_abstract_v<T>) {
    if (type == nullptr) return in.fail_at(errc::invalid_value, at);  // tag 1 would create an abstract T
  }
  if (!in.count_object(at)) return;
  if (p != nullptr) {
    // An object of another dynamic type than the data's, or one that cannot be read into, is replaced.
    bool replaced = !readable_in_place<T>;
    if constexpr (std::is_polymorphic_v<T>)
      replaced = replaced || dynamic_type_of(p) != (type != nullptr ? *type->type : type_of<T>()) ||
                 (type != nullptr && type->ops->read == nullptr);
    if (replaced) {
      delete p;
      p = nullptr;
    }
  }
  const bool created = p == nullptr;
  if (created && !in.charge(at, 1, type != nullptr ? type->ops->object_size : sizeof(T))) return;
  void* object = nullptr;
  if constexpr (std::is_polymorphic_v<T>) {
    if (type != nullptr && created && type->ops->create == nullptr) [[unlikely]]
      return construct_owned(in, at, type, inside, *path, p);
    if (type != nullptr) {
      object = created ? type->ops->create() : dynamic_cast<void*>(p);
      if (created) p = static_cast<T*>(path->apply(object));
    }
  }
  if (type == nullptr) {
    if constexpr (!std::is_abstract_v<T>) {
      if (created) {
        // In the table's hands as soon as it exists: a failure from then on deletes the object
        // and nulls the pointer.
        object_table& table = in.objects();
        std::size_t index = 0;
        object_table::opened opened{};
        (void)new_read<T>(
            in,
            [&](T* made) {
              being_made<T>(enter_static<T>(table, made, object_kind::unique), true);
              index = table.size() - 1;
              opened = table.open(index, false);
            },
            [&](T* made) {
              being_made<T>(table.at(index), false);
              p = made;
              table.at(index).slot = &p;
              table.at(index).ops = &owned_ops_for<T>;
            });
        close_object(in, table, index, opened, at);
        return;
      }
    }
    object = p;
  }
  object_table& table = in.objects();
  object_table::entry& e = type != nullptr ? enter_dynamic(table, object, type, object_kind::unique)
                                           : enter_static<T>(table, object, object_kind::unique);
  if (created) {  // tag 2: in the table at once, so a failure from here on deletes the object
    e.slot = &p;
    e.ops = &owned_ops_for<T>;
  }
  read_new_object(in, table, at, table.size() - 1, false, inside, created || in.fresh, [&] {
    if (type != nullptr) {
      type->ops->read(in, object);
    } else if constexpr (!std::is_abstract_v<T> && readable_in_place<T>) {
      codec<T>::read(in, *p);  // (an object that cannot be read into was replaced above)
    }
  });
}

/// What a shared_ptr's control block and allocation overhead cost the budget, besides the object.
inline constexpr std::size_t shared_overhead = 4 * sizeof(void*);

/// enable_shared_from_this for an object its hook made (`e` its entry, `p` its owner): an owner it
/// knows, unless a pointer inside the object already has the first one (then shared_from_this()
/// stays unavailable: two owners would not know each other). References to it later in the
/// message share the table's owner.
template <class T>
void share_from_this(object_table::entry& e, std::shared_ptr<T>& p) {
  if constexpr (shares_from_this<T> && !created_by_default<T>) {
    if (p && !e.named_early) {
      rehome_for_shared_from_this(p);
      e.owner = p;
    }
  }
}

/// The registry's construct ops for a registered class that its load_and_construct makes
/// (polymorphic.hpp): its objects are made as those of tag 1 are (creation.hpp).
template <class T>
void* construct_registered(source& in, introduce_fn introduce, void* context) {
  return new_read<T>(in, [&](T* storage) { introduce(context, storage); }, [](T*) noexcept {});
}
template <class T>
std::shared_ptr<void> construct_registered_shared(source& in, introduce_shared_fn introduce, void* context) {
  std::size_t index = 0;
  std::shared_ptr<T> made = new_shared_read<T>(in, [&](const std::shared_ptr<T>& owner) {
    introduce(context, owner);
    index = in.objects().size() - 1;
  });
  share_from_this(in.objects().at(index), made);
  return made;
}

/// shared_read of a tag below the references other than 0 (at `at`): a new object.
template <class T>
void shared_read_new(source& in, const std::byte* at, std::uint64_t tag, std::shared_ptr<T>& p, bool weak_link) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_polymorphic_v<U>) {
    if (tag == polymorphic_tag) {
      object_table& table = in.objects();
      polymorphic_header h;
      if (!read_polymorphic_header(in, table, h)) return;
      if (h.type == nullptr) {
        if (skip_unknown_object(in, at, h)) p.reset();
        return;
      }
      const cast_path* path = cast_to<U>(in, table, at, h);
      if (path == nullptr || !in.count_object(at) || !in.charge(at, 1, h.type->ops->object_size + shared_overhead))
        return;
      if (h.type->ops->create_shared == nullptr) [[unlikely]]
        return construct_shared(in, at, h.index, h.inside, p, weak_link);
      std::shared_ptr<void> owner = h.type->ops->create_shared();
      void* object = owner.get();
      p = std::shared_ptr<U>(owner, static_cast<U*>(path->apply(object)));
      enter_dynamic(table, object, h.type, object_kind::shared).owner = std::move(owner);
      return read_new_object(in, table, at, table.size() - 1, weak_link, h.inside, true,
                             [&] { h.type->ops->read(in, object); });
    }
  }
  if (tag == new_object_tag) {
    if constexpr (std::is_abstract_v<U>) {
      return in.fail_at(errc::invalid_value, at);  // tag 1 would create an abstract T
    } else {
      if (!in.count_object(at) || !in.charge(at, 1, sizeof(U) + shared_overhead)) return;
      object_table& table = in.objects();
      // Closed even when a hook throws: objects begun inside it are not inside this one.
      struct open_object {
        source& in;
        object_table& table;
        const std::byte* at;
        std::size_t index = 0;
        object_table::opened opened{};
        bool is_open = false;
        ~open_object() {
          if (is_open) close_object(in, table, index, opened, at);
        }
      } object{in, table, at};
      p = new_shared_read<U>(in, [&](const std::shared_ptr<U>& made) {
        object_table::entry& e = enter_static<U>(table, made.get(), object_kind::shared);
        e.owner = made;
        being_made<U>(e, true);
        object.index = table.size() - 1;
        object.opened = table.open(object.index, weak_link);
        object.is_open = true;
      });
      being_made<U>(table.at(object.index), false);
      share_from_this(table.at(object.index), p);
      return;
    }
  }
  in.fail_at(errc::invalid_value, at);
}

/// How the object table resets a shared_ptr<T> (object_table::release, after a failure).
template <class T>
inline constexpr object_table::pointer_ops shared_pointer_ops{
    [](const void* slot) noexcept -> void* {
      return const_cast<std::remove_cv_t<T>*>(static_cast<const std::shared_ptr<T>*>(slot)->get());
    },
    [](void* slot, void*) noexcept { static_cast<std::shared_ptr<T>*>(slot)->reset(); }};

/// shared_ptr (weak_link false) and weak_ptr (weak_link true): a new object is always a new
/// allocation (an object being reused may be shared with owners outside the message). Inlined
/// up to the new object: a null or a reference (most pointers of a tree: its leaves' children,
/// its parent links) then costs no call.
template <class T>
BIFRONS_INLINE void shared_read(source& in, std::shared_ptr<T>& p, bool weak_link) {
  using U = std::remove_cv_t<T>;
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_reference_tag(in, tag)) return;
  if (tag == null_tag) return p.reset();
  if (tag < first_reference_tag) return shared_read_new(in, at, tag, p, weak_link);
  reference r;
  if (!resolve_reference<U>(in, at, tag, true, r)) return;
  if (r.entry == nullptr) return p.reset();
  const auto index = static_cast<std::size_t>(tag - first_reference_tag);
  if (r.entry->kind != object_kind::shared) return in.fail_at(errc::invalid_value, at);
  // The table keeps where this owner is, to reset it if the value fails (object_table::release).
  if (!weak_link && !in.objects().own(index, &p, &shared_pointer_ops<T>, at))
    return in.fail_at(errc::invalid_value, at);
  p = std::shared_ptr<U>(r.entry->owner, static_cast<U*>(r.address));
}

/// weak_ptr: as shared_read into a shared_ptr that the weak_ptr then takes (so it is empty after
/// an error), but a reference goes into the weak_ptr without that shared_ptr.
template <class T>
BIFRONS_INLINE void weak_read(source& in, std::weak_ptr<T>& w) {
  using U = std::remove_cv_t<T>;
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_reference_tag(in, tag) || tag == null_tag) return w.reset();
  if (tag < first_reference_tag) {
    std::shared_ptr<T> p;
    shared_read_new(in, at, tag, p, true);
    w = std::move(p);
    return;
  }
  reference r;
  if (!resolve_reference<U>(in, at, tag, true, r) || r.entry == nullptr) return w.reset();
  if (r.entry->kind != object_kind::shared) {
    in.fail_at(errc::invalid_value, at);
    return w.reset();
  }
  w = std::shared_ptr<T>(r.entry->owner, static_cast<U*>(r.address));
}

/// How the object table reads and rewrites a non-owning T* (object_table::relocate, release).
template <class T>
inline constexpr object_table::pointer_ops raw_pointer_ops{
    [](const void* slot) noexcept -> void* { return const_cast<std::remove_cv_t<T>*>(*static_cast<T* const*>(slot)); },
    [](void* slot, void* to) noexcept { *static_cast<T**>(slot) = static_cast<T*>(to); }};

/// Non-owning pointers: null or a reference to any object of the type. The table keeps the
/// pointer's address (`slot`, read and rewritten through `ops`; a T* unless the caller says):
/// where the library moves the object it points at, or the object dies with the value, it is
/// rewritten or set to null.
template <class T>
void observer_read(source& in, T*& p, bool nullable, void* slot = nullptr,
                   const object_table::pointer_ops* ops = &raw_pointer_ops<T>) {
  using U = std::remove_cv_t<T>;
  const std::byte* at = in.position();
  std::uint64_t tag;
  if (!read_reference_tag(in, tag)) return;
  if (tag == null_tag && nullable) {
    p = nullptr;
    return;
  }
  if (tag < first_reference_tag) return in.fail_at(errc::invalid_value, at);
  reference r;
  if (!resolve_reference<U>(in, at, tag, nullable, r)) return;
  if (r.entry == nullptr) {
    p = nullptr;
    return;
  }
  p = static_cast<U*>(r.address);
  in.objects().observe(slot != nullptr ? slot : static_cast<void*>(&p), ops,
                       static_cast<std::size_t>(tag - first_reference_tag), at);
}

/// A retired by-value object (deprecated<T>) of a type with enable_identity takes an id all the
/// same: the reader gives it one.
template <class T>
void skip_by_value_id() {
  if (session().current_pass() == write_session::pass::size) session().skip_id();
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
  in.objects().add(&v, type_key<T>, object_kind::by_value, false).in_progress = false;
  return true;
}

}  // namespace bifrons::detail
