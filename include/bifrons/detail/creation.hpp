// SPDX-License-Identifier: MIT
#pragma once
// Creating the objects a read needs: the one place that knows how to make a T that is about to
// be read, for every position that creates objects (the top level, container elements,
// optional, variant, the objects of pointers).
//
//   - a class with load_and_construct (hooks.hpp) is constructed by it, from its fields;
//   - a minimal type (save_minimal) without load_minimal is constructed from its value;
//   - any other T is default-constructed (privately too, for a class that befriends
//     bifrons::access) and then read into;
//   - a const T is read as a T and moved into place; a pair or tuple whose elements cannot all
//     be default-constructed is built in place from its elements, read in order. What the
//     object table recorded in the temporaries moves with them (object_table::relocate).
// A T that none of these can make is refused here with a bifrons message.
//
// Objects whose storage a standard type owns (optional, variant, containers) are made through
// an `emplace` callable (emplace_read); the objects of pointers, whose address must be known
// before their fields are read (pointers inside them may refer back), through new_read and
// new_shared_read.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "codec.hpp"
#include "hooks.hpp"
#include "source.hpp"

namespace bifrons::detail {

template <class T>
struct struct_codec;

/// Made by T's load_and_construct, from the fields of its envelope.
template <class T>
concept created_by_hook = has_load_and_construct<T> && !has_save_minimal<T>;
/// A minimal type made from its value by a constructor (it has no load_minimal to read into a
/// default-constructed one).
template <class T>
concept created_from_value = has_save_minimal<T> && constructible_from_minimal_value<T> &&
                             !(has_load_minimal<T> && access::default_constructible<T>);
/// Default-constructed, then read into.
template <class T>
concept created_by_default = !created_by_hook<T> && !created_from_value<T> && access::default_constructible<T>;

/// Made by a public default constructor and then read into: the usual case, which the containers
/// and the entry points handle as they always did (resize(), `T value{}`).
template <class T>
concept default_created = created_by_default<T> && std::default_initializable<T>;

template <class T>
inline constexpr bool creatable_pair_or_tuple = false;
template <class T>
concept creatable = created_by_hook<std::remove_const_t<T>> || created_from_value<std::remove_const_t<T>> ||
                    created_by_default<std::remove_const_t<T>> || creatable_pair_or_tuple<std::remove_const_t<T>>;

template <class... E>
inline constexpr bool creatable_pair_or_tuple<std::pair<E...>> = (creatable<E> && ...) &&
                                                                 (std::is_move_constructible_v<E> && ...);
template <class... E>
inline constexpr bool creatable_pair_or_tuple<std::tuple<E...>> = (creatable<E> && ...) &&
                                                                  (std::is_move_constructible_v<E> && ...);

/// An existing T can be read into (rather than replaced by a new object): not const, and not a
/// class that only a hook or a constructor makes unless it can be assigned a new one.
template <class T>
concept readable_in_place = !std::is_const_v<T> && (!std::is_class_v<T> || std::is_move_assignable_v<T> ||
                                                    loads_in_place<T> || (has_save_minimal<T> && has_load_minimal<T>) ||
                                                    (!has_load_and_construct<T> && !has_save_minimal<T>));

template <class T>
constexpr void check_creatable() {
  static_assert(creatable<T>,
                "bifrons: this type has no default constructor, so bifrons cannot create one to read into. Give it "
                "`template <class Archive> static T load_and_construct(Archive& ar)`, which reads the fields into "
                "locals and returns the object (a free `T load_and_construct(Archive& ar, std::type_identity<T>)` "
                "for a type you cannot edit); or, if the default constructor is private, `friend bifrons::access;`.");
}

// Converters handed to emplace-style constructors: the object is built inside the conversion,
// so that it is constructed in place (guaranteed copy elision), movable or not.
template <class T>
struct made_by_hook {
  source& in;
  operator T() const { return struct_codec<T>::construct(in); }
};
template <class T, class V>
struct made_from_value {
  V& value;
  operator T() const { return access::construct_from<T>(std::move(value)); }
};
template <class T>
struct made_by_default {
  operator T() const { return access::make<T>(); }
};

/// Reads a minimal type's value, for made_from_value.
template <class T>
minimal_value<T> read_minimal_value(source& in) {
  minimal_value<T> value{};
  fresh_guard guard(in, true);
  codec<minimal_value<T>>::read(in, value);
  return value;
}

template <class T, class Emplace>
decltype(auto) emplace_read(source& in, Emplace&& emplace);

/// Reads the elements of a pair or tuple E... in order, each into an optional (a tuple's
/// constructor may construct its elements in any order), and builds the object through
/// `emplace` from them. What the table recorded in each element moves with it (relocate).
template <class Emplace, class... E>
decltype(auto) emplace_from_elements(source& in, Emplace& emplace, std::type_identity<std::tuple<E...>>) {
  std::tuple<std::optional<E>...> parts;
  temporary_objects moved(in);  // after the parts: it acts before they die
  std::apply(
      [&](auto&... part) {
        (emplace_read<typename std::remove_cvref_t<decltype(part)>::value_type>(
             in, [&](auto&&... a) -> decltype(auto) { return part.emplace(std::forward<decltype(a)>(a)...); }),
         ...);
      },
      parts);
  decltype(auto) made = std::apply([&](auto&... part) -> decltype(auto) { return emplace(std::move(*part)...); },
                                   parts);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    moved.moved_to({object_table_base::moved_range{&*std::get<I>(parts), sizeof(E),
                                                   const_cast<void*>(static_cast<const void*>(&std::get<I>(made)))}...},
                   moves_in_place<E...>);
  }(std::index_sequence_for<E...>{});
  return made;
}

/// Creates a T read from `in` through `emplace`, which constructs the object from the arguments
/// it is given (optional::emplace, vector::emplace_back, ...) and returns a reference to it.
/// The object always exists afterwards; if the read failed, it holds what was read until then.
/// Every object is read where it stays, except a const T made by default (read into a temporary,
/// then moved) and a pair or tuple made from its elements: there the table relocates what it
/// recorded in them (object_table::relocate).
template <class T, class Emplace>
decltype(auto) emplace_read(source& in, Emplace&& emplace) {
  using U = std::remove_const_t<T>;
  check_creatable<T>();
  if constexpr (!creatable<T>) {
    std::abort();  // refused above: never compiled into a program
  } else if constexpr (created_by_hook<U>) {
    return emplace(made_by_hook<U>{in});
  } else if constexpr (created_from_value<U>) {
    const std::byte* start = in.position();
    minimal_value<U> value = read_minimal_value<U>(in);
    return call_user_hook(in, start,
                          [&]() -> decltype(auto) { return emplace(made_from_value<U, minimal_value<U>>{value}); });
  } else if constexpr (created_by_default<U> && !std::is_const_v<T>) {
    U& object = [&]() -> U& {
      if constexpr (std::default_initializable<U>)
        return emplace();
      else
        return emplace(made_by_default<U>{});
    }();
    fresh_guard guard(in, true);
    codec<U>::read(in, object);
    return object;
  } else if constexpr (created_by_default<U>) {  // a const T
    std::optional<U> object;
    temporary_objects moved(in);  // after the temporary: it acts before the temporary dies
    emplace_read<U>(in, [&](auto&&... a) -> U& { return object.emplace(std::forward<decltype(a)>(a)...); });
    decltype(auto) made = emplace(std::move(*object));
    moved.moved_to({{&*object, sizeof(U), const_cast<void*>(static_cast<const void*>(&made))}}, moves_in_place<U>);
    return made;
  } else {
    return emplace_from_elements(in, emplace, std::type_identity<decltype(std::tuple_cat(std::declval<U>()))>{});
  }
}

// ---- the objects of pointers -------------------------------------------------------------------

/// Storage for one T from the allocator a delete-expression of T will free it with.
template <class T>
void* allocate_object() {
  if constexpr (requires { T::operator new(sizeof(T)); })
    return T::operator new(sizeof(T));
  else if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
    return ::operator new(sizeof(T), std::align_val_t{alignof(T)});
  else
    return ::operator new(sizeof(T));
}
template <class T>
void free_object(void* storage) noexcept {
  if constexpr (requires { T::operator delete(storage); })
    T::operator delete(storage);
  else if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
    ::operator delete(storage, std::align_val_t{alignof(T)});
  else
    ::operator delete(storage);
}

/// Allocates a T (freed with `delete`) and reads it from `in`. `introduced(address)` runs before
/// any of its fields is read (it gives the object its id: pointers inside it may refer back to
/// it); `owned(object)` runs as soon as the object is constructed: before its fields are read if it
/// is default-constructed, after them if a hook constructs it. If a hook throws, the storage is
/// freed and owned() never runs.
template <class T, class Introduced, class Owned>
BIFRONS_INLINE T* new_read(source& in, Introduced&& introduced, Owned&& owned) {
  check_creatable<T>();
  if constexpr (!creatable<T>) {
    std::abort();  // refused above
  } else if constexpr (created_by_default<T>) {
    T* object;
    if constexpr (std::default_initializable<T>)
      object = new T();
    else
      object = access::make_new<T>();
    // Nothing owns the object until owned(): if the table cannot record it (std::bad_alloc),
    // it is deleted here.
#if BIFRONS_HAS_EXCEPTIONS
    try {
      introduced(object);
    } catch (...) {
      delete object;
      throw;
    }
#else
    introduced(object);
#endif
    owned(object);
    fresh_guard guard(in, true);
    codec<T>::read(in, *object);
    return object;
  } else {
    void* storage = allocate_object<T>();
    const auto place = [&](auto&&... a) -> T& { return *::new (storage) T(std::forward<decltype(a)>(a)...); };
    T* object;
#if BIFRONS_HAS_EXCEPTIONS
    try {
      introduced(static_cast<T*>(storage));  // (inside: storage is freed if the table cannot record it)
      object = &emplace_read<T>(in, place);
    } catch (...) {
      free_object<T>(storage);
      throw;
    }
#else
    introduced(static_cast<T*>(storage));
    object = &emplace_read<T>(in, place);
#endif
    owned(object);
    return object;
  }
}

/// The storage of a shared object that a hook constructs: its control block exists before it
/// does, so that weak_ptrs read inside it can refer back to it.
template <class T>
class deferred_object {
 public:
  deferred_object() noexcept {}
  deferred_object(const deferred_object&) = delete;
  deferred_object& operator=(const deferred_object&) = delete;
  ~deferred_object() {
    if (constructed_) object()->~T();
  }
  T* object() noexcept { return reinterpret_cast<T*>(storage_); }
  template <class... A>
  T& emplace(A&&... a) {
    ::new (static_cast<void*>(storage_)) T(std::forward<A>(a)...);
    constructed_ = true;
    return *object();
  }

 private:
  alignas(T) std::byte storage_[sizeof(T)];
  bool constructed_ = false;
};

/// T derives from std::enable_shared_from_this.
template <class T>
concept shares_from_this = requires(T& t) { t.weak_from_this(); };

/// An object made by its hook lives in storage owned through the aliasing constructor, which does
/// not set enable_shared_from_this's reference: only a shared_ptr made from the object's own
/// pointer does. This gives `owner` (the only owner handed out so far) a second control block,
/// whose deleter lets go of the first, so that shared_from_this() works. (The caller calls it
/// only when no pointer to the object was handed out while it was being read: such a pointer
/// would keep the first block, and the object would have two owners that do not know each other.)
template <class T>
void rehome_for_shared_from_this(std::shared_ptr<T>& owner) {
  if (owner->weak_from_this().expired())
    owner = std::shared_ptr<T>(owner.get(), [keep = owner](T*) mutable { keep.reset(); });
}

/// A new shared T read from `in`; `introduced(owner)` runs before any of its fields is read.
template <class T, class Introduced>
BIFRONS_INLINE std::shared_ptr<T> new_shared_read(source& in, Introduced&& introduced) {
  check_creatable<T>();
  if constexpr (!creatable<T>) {
    std::abort();  // refused above
  } else if constexpr (created_by_default<T>) {
    std::shared_ptr<T> object;
    if constexpr (std::default_initializable<T>)
      object = std::make_shared<T>();
    else
      object = std::shared_ptr<T>(access::make_new<T>());
    introduced(object);
    fresh_guard guard(in, true);
    codec<T>::read(in, *object);
    return object;
  } else {
    auto holder = std::make_shared<deferred_object<T>>();
    std::shared_ptr<T> object(holder, holder->object());
    introduced(object);
    emplace_read<T>(in, [&](auto&&... a) -> T& { return holder->emplace(std::forward<decltype(a)>(a)...); });
    return object;
  }
}

}  // namespace bifrons::detail
