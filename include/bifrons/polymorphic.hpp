// SPDX-License-Identifier: MIT
#pragma once
// Polymorphic types (docs/format.md, "Pointers", tag 2). A pointer to a polymorphic class
// (unique_ptr<Shape>, shared_ptr<Shape>, weak_ptr<Shape>, Shape*, owning(Shape*&),
// reference_wrapper<Shape>) may hold an object of a derived class once that class is
// registered, with one line at namespace scope:
//
//   BIFRONS_REGISTER(Circle, "shapes.Circle");
//
// The name is part of the format: it is written with the first object of the type in each
// message, and a reader finds the class by it. Renaming a registered type breaks old data.
// Registering two types under one name, or one type under two names, throws
// bifrons::registration_error when the registration runs (before main, or when a library is
// loaded): never a silent mix-up.
//
// A pointer of declared type B may hold a registered class D when D reaches B through
// relations: `base<B>(*this)` in D's hook makes one, and a registration may list further
// bases, typically interfaces without data: `BIFRONS_REGISTER(Circle, "shapes.Circle", Shape)`.
// Pointers to other bases than the first (multiple inheritance) and to virtual bases are
// adjusted through those relations.
//
// The registry is one per process, also across shared libraries loaded with dlopen after main
// started (detail/registry.hpp): a library's registrations run when it is loaded and are
// removed when it is unloaded.

#include <memory>
#include <string_view>
#include <type_traits>
#include <typeinfo>

#include "detail/pointer_codec.hpp"
#include "detail/registry.hpp"
#include "detail/struct_codec.hpp"

namespace bifrons {

namespace detail {

/// The operations on objects of T that the registry hands to writers and readers. A class that
/// its load_and_construct makes is made by it here too (construct), as it is behind a pointer of
/// its own type; one that only that hook makes and that cannot be assigned is never read into.
template <class T>
const polymorphic_ops& polymorphic_ops_of() {
  using read_fn = void (*)(source&, void*);
  using create_fn = void* (*)();
  using create_shared_fn = std::shared_ptr<void> (*)();
  using construct_fn = void* (*)(source&, introduce_fn, void*);
  using construct_shared_fn = std::shared_ptr<void> (*)(source&, introduce_shared_fn, void*);
  static const polymorphic_ops ops{
      &type_of<T>(),
      sizeof(T),
      [](const void* object) { return codec<T>::size(*static_cast<const T*>(object)); },
      [](std::byte* out, const void* object) { return codec<T>::write(out, *static_cast<const T*>(object)); },
      []() -> read_fn {
        if constexpr (readable_in_place<T>)
          return [](source& in, void* object) { codec<T>::read(in, *static_cast<T*>(object)); };
        else
          return nullptr;
      }(),
      []() -> create_fn {
        if constexpr (created_by_hook<T>)
          return nullptr;
        else
          return []() -> void* { return access::make_new<T>(); };
      }(),
      [](void* object) noexcept { delete static_cast<T*>(object); },
      []() -> create_shared_fn {
        if constexpr (created_by_hook<T>)
          return nullptr;
        else if constexpr (std::default_initializable<T>)
          return []() -> std::shared_ptr<void> { return std::make_shared<T>(); };
        else  // a constructor private to bifrons::access
          return []() -> std::shared_ptr<void> { return std::shared_ptr<T>(access::make_new<T>()); };
      }(),
      []() -> construct_fn {
        if constexpr (created_by_hook<T>)
          return &construct_registered<T>;
        else
          return nullptr;
      }(),
      []() -> construct_shared_fn {
        if constexpr (created_by_hook<T>)
          return &construct_registered_shared<T>;
        else
          return nullptr;
      }(),
  };
  return ops;
}

}  // namespace detail

/// Registers T under a name while it lives, with Bases as further relations of T (use
/// BIFRONS_REGISTER, which makes one at namespace scope).
template <class T, class... Bases>
class registration {
  static_assert(BIFRONS_HAS_RTTI && sizeof(T) != 0,
                "bifrons: registering a polymorphic class needs RTTI, and the program is compiled without it "
                "(-fno-rtti): compile with RTTI to hold polymorphic objects by pointer");
  static_assert(std::is_polymorphic_v<T>,
                "bifrons: BIFRONS_REGISTER is for polymorphic classes (with a virtual function), whose objects "
                "pointers to a base may hold; other classes need no registration");
  static_assert(!std::is_abstract_v<T>,
                "bifrons: an abstract class cannot be registered: no object has it as its dynamic type. "
                "Register the concrete classes derived from it");
  static_assert(std::is_abstract_v<T> || access::default_constructible<T> || detail::created_by_hook<T>,
                "bifrons: a registered class must be one bifrons can create, to read its objects: give it "
                "`template <class Archive> static T load_and_construct(Archive& ar)`, which reads the fields into "
                "locals and returns the object, or a default constructor (public, or private with "
                "`friend bifrons::access;`)");
  // (A class whose hooks are refused has that refusal as its one error, from its codec.)
  static_assert(!std::is_polymorphic_v<T> || detail::struct_envelope<T> ||
                    detail::hook_refusal_of<T>() != detail::hook_refusal::none,
                "bifrons: a registered class is written as a struct (a class with a serialization hook)");
  static_assert((std::is_polymorphic_v<Bases> && ...),
                "bifrons: BIFRONS_REGISTER lists only polymorphic bases, which pointers may be declared as");
  static_assert((std::derived_from<T, Bases> && ...),
                "bifrons: BIFRONS_REGISTER(T, name, Bases...) lists public, unambiguous bases of T");

  static constexpr bool accepted = std::is_polymorphic_v<T> && !std::is_abstract_v<T> &&
                                   (access::default_constructible<T> || detail::created_by_hook<T>);

 public:
  explicit registration(std::string_view name) {
    // After a refusal above, nothing more to say: one error only.
    if constexpr (accepted) add(name);
  }
  ~registration() {
    if constexpr (accepted) remove();
  }
  registration(const registration&) = delete;
  registration& operator=(const registration&) = delete;

 private:
  void add(std::string_view name) {
    detail::registry& r = detail::the_registry();
    r.add_type(name, &detail::polymorphic_ops_of<T>());
#if BIFRONS_HAS_EXCEPTIONS
    try {
      (r.add_relation(detail::type_of<T>(), detail::type_of<Bases>(), &detail::relation_registration<T, Bases>::cast,
                      detail::relation_registration<T, Bases>::virtual_base),
       ...);
    } catch (...) {
      r.remove_type(&detail::polymorphic_ops_of<T>());
      throw;
    }
#else
    (r.add_relation(detail::type_of<T>(), detail::type_of<Bases>(), &detail::relation_registration<T, Bases>::cast,
                    detail::relation_registration<T, Bases>::virtual_base),
     ...);
#endif
  }
  void remove() noexcept {
    detail::registry& r = detail::the_registry();
    (r.remove_relation(detail::type_of<T>(), detail::type_of<Bases>(), &detail::relation_registration<T, Bases>::cast),
     ...);
    r.remove_type(&detail::polymorphic_ops_of<T>());
  }
};

}  // namespace bifrons

#define BIFRONS_DETAIL_CONCAT_(a, b) a##b
#define BIFRONS_DETAIL_CONCAT(a, b) BIFRONS_DETAIL_CONCAT_(a, b)

/// Registers a polymorphic class under a stable name, at namespace scope:
/// `BIFRONS_REGISTER(Circle, "shapes.Circle");` or, with bases that the class's hook does not
/// name with base<B> (interfaces without data), `BIFRONS_REGISTER(Circle, "shapes.Circle", Shape);`.
/// A type with commas (a template with several arguments) needs an alias first; one line holds
/// one registration (the line number names the registration object: __COUNTER__ would allow
/// two, but clang 22 calls it a C2y extension under -Wpedantic).
#undef BIFRONS_REGISTER  // core.hpp's refusal
#define BIFRONS_REGISTER(Type, Name, ...)                                                                            \
  static const ::bifrons::registration<Type __VA_OPT__(, ) __VA_ARGS__> BIFRONS_DETAIL_CONCAT(bifrons_registration_, \
                                                                                              __LINE__) {            \
    Name                                                                                                             \
  }

/// Registrations in a static library: a linker takes an object file from a static library only
/// when the program refers to something in it, and an object file whose only content is
/// BIFRONS_REGISTER lines is referred to by nothing, so its registrations are silently dropped
/// (cereal's trap too: CEREAL_FORCE_DYNAMIC_INIT). Name the registrations in the library's source
/// file that holds them, at namespace scope:
///   BIFRONS_REGISTER(Circle, "shapes.Circle");
///   BIFRONS_REGISTRATIONS(shapes);
/// and, in a source file of the program that is linked for sure (main's):
///   BIFRONS_LINK_REGISTRATIONS(shapes);
/// which refers to that file, so that the linker takes it and its registrations run. The name is
/// an identifier, one per library.
#define BIFRONS_REGISTRATIONS(name)  \
  namespace bifrons::registrations { \
  void name() noexcept {}            \
  }                                  \
  static_assert(true, "a semicolon after BIFRONS_REGISTRATIONS(name)")
#define BIFRONS_LINK_REGISTRATIONS(name)                                                                              \
  namespace bifrons::registrations {                                                                                  \
  void name() noexcept;                                                                                               \
  [[maybe_unused]] static const bool BIFRONS_DETAIL_CONCAT(linked_, name) = (::bifrons::registrations::name(), true); \
  }                                                                                                                   \
  static_assert(true, "a semicolon after BIFRONS_LINK_REGISTRATIONS(name)")
