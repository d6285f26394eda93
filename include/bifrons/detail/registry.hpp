// SPDX-License-Identifier: MIT
#pragma once
// The registry of polymorphic types (docs/format.md, "Pointers", tag 2): which class a type
// name stands for, how to write, read and create its objects, and how to turn a pointer to one
// of its objects into a pointer to one of its bases.
//
// There is one registry per process, shared by the program and every shared library it loads:
// the function that holds it is inline with default visibility, so the dynamic linker binds every
// copy to one (GNU unique symbols keep this true for libraries loaded with dlopen(RTLD_LOCAL) and
// built with -fvisibility=hidden). Registrations are static objects (polymorphic.hpp): a library
// loaded with dlopen after main started registers its types when it loads and removes them when
// it is unloaded. Every operation takes a lock; writers and readers look a type up once per
// message and keep what they found for the rest of it (write_session.hpp, objects.hpp).
//
// Relations (derived -> base) come from two places: every `base<B>(*this)` in the hook of a
// polymorphic class D registers D -> B when the program (or library) is loaded, and a
// registration may list bases that hold no data (interfaces), `BIFRONS_REGISTER(D, "D", Shape)`.
// A pointer of declared type B may then hold any registered type with a chain of relations to B.

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#if defined(__GNUG__)
#include <cxxabi.h>
#endif

#include "config.hpp"
#include "tracking.hpp"

namespace bifrons {

/// Thrown when a registration contradicts an earlier one: one name for two types, two names for
/// one type, or a name the format does not allow. (Registrations run when a program or library
/// is loaded, so this usually ends the program with its message, which is the point: two types
/// under one name must never be mixed up silently.)
class registration_error : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {

class source;

/// Type names on the wire take 1 to 255 bytes.
inline constexpr std::size_t max_type_name = 255;

/// Turns a pointer to an object of one class (as void*) into a pointer to one of its bases.
using upcast_fn = void* (*)(void*) noexcept;

/// What a construct op calls with the storage of the object it is about to make (the complete
/// object's address, or its owner for a shared one), before any of its fields is read: pointers
/// inside it may refer back to it.
using introduce_fn = void (*)(void* context, void* storage);
using introduce_shared_fn = void (*)(void* context, const std::shared_ptr<void>& owner);

/// How to handle the objects of one registered class T, given as a pointer to the complete T.
/// Made once per part of the program that registers T (polymorphic.hpp).
struct polymorphic_ops {
  const std::type_info* type;
  std::size_t object_size;  // sizeof(T), charged to the reader's budget
  std::size_t (*size)(const void* object);
  std::byte* (*write)(std::byte* out, const void* object);
  void (*read)(source& in, void* object);  // into an existing object; nullptr if T cannot be read into
  // A class made by its load_and_construct has no create and create_shared, but construct and
  // construct_shared (a class read into a default-constructed object, the reverse).
  void* (*create)();  // new T()
  void (*destroy)(void* object) noexcept;
  std::shared_ptr<void> (*create_shared)();  // make_shared<T>()
  void* (*construct)(source& in, introduce_fn introduce, void* context);  // a new T, read
  std::shared_ptr<void> (*construct_shared)(source& in, introduce_shared_fn introduce, void* context);
};

/// A registered type. Writers and readers keep pointers to it for the length of a message; it
/// lives until the last registration of its type is removed.
struct registered_type {
  std::string name;
  const std::type_info* type;
  const polymorphic_ops* ops;  // the first registrant's
  std::vector<const polymorphic_ops*> registrants;
};

/// The relations from a registered type to one of its bases, to apply in order.
struct cast_path {
  std::vector<upcast_fn> steps;
  // A step to a virtual base reads the object's vtable: the object must exist (an object that its
  // load_and_construct is still making does not).
  bool through_virtual_base = false;
  [[nodiscard]] void* apply(void* p) const noexcept {
    for (const upcast_fn up : steps) p = up(p);
    return p;
  }
};

[[noreturn]] inline void registration_failed(const std::string& what) {
#if BIFRONS_HAS_EXCEPTIONS
  throw registration_error(what);
#else
  std::fputs(what.c_str(), stderr);
  std::fputc('\n', stderr);
  std::abort();
#endif
}

/// A readable name of a C++ type, for error messages.
inline std::string readable_name(const std::type_info& type) {
#if defined(__GNUG__)
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  if (status == 0 && name) return name.get();
#endif
  return type.name();
}

/// The registry's lock: std::mutex would serve as well, at the price of <mutex> in the include
/// graph of every program, a measurable share of a minimal program's compile time. The
/// registry is locked for a registration, when a library loads, and for a lookup, once per type
/// and message; a thread that finds it locked sleeps in atomic_flag::wait.
class registry_lock {
 public:
  class held {
   public:
    explicit held(registry_lock& lock) noexcept : lock_(lock) {
      while (lock_.locked_.test_and_set(std::memory_order_acquire)) lock_.locked_.wait(true, std::memory_order_relaxed);
    }
    ~held() {
      lock_.locked_.clear(std::memory_order_release);
      lock_.locked_.notify_one();
    }
    held(const held&) = delete;
    held& operator=(const held&) = delete;

   private:
    registry_lock& lock_;
  };

 private:
  std::atomic_flag locked_;
};

// A template only so that its member functions are compiled in the programs that use
// polymorphic pointers: as a plain class, every source file that includes the core paid for
// them (docs/design.md). Its tables are sorted vectors, searched by halving, for the same
// reason: std::map cost every program <map>. Types are ordered by type_info::before, as
// std::type_index orders them, so that the same type from two shared libraries is one key.
template <class = void>
class basic_registry {
 public:
  /// Registers ops->type under name. A second registration of the same type under the same
  /// name (another translation unit or library) is counted; anything else that contradicts an
  /// earlier registration is a registration_error.
  void add_type(std::string_view name, const polymorphic_ops* ops) {
    if (name.empty() || name.size() > max_type_name)
      registration_failed("bifrons: the type name \"" + std::string(name) + "\" of " + readable_name(*ops->type) +
                          " must have 1 to 255 bytes");
    const registry_lock::held held(lock_);
    // Room first (the positions below are iterators), so that the two inserts cannot throw and
    // leave one table without the type.
    by_name_.reserve(by_name_.size() + 1);
    by_type_.reserve(by_type_.size() + 1);
    const auto named = name_position(name);
    if (named != by_name_.end() && (*named)->name == name) {
      registered_type& r = **named;
      if (*r.type != *ops->type)
        registration_failed("bifrons: the type name \"" + std::string(name) + "\" is registered for two types: " +
                            readable_name(*r.type) + " and " + readable_name(*ops->type));
      r.registrants.push_back(ops);
      return;
    }
    const auto typed = type_position(*ops->type);
    if (typed != by_type_.end() && *(*typed)->type == *ops->type)
      registration_failed("bifrons: " + readable_name(*ops->type) + " is registered under two names: \"" +
                          (*typed)->name + "\" and \"" + std::string(name) + "\"");
    auto r = std::make_unique<registered_type>(registered_type{std::string(name), ops->type, ops, {ops}});
    by_type_.insert(typed, r.get());
    by_name_.insert(named, std::move(r));
  }

  /// Removes one registration (its library is being unloaded, or the program ends).
  void remove_type(const polymorphic_ops* ops) noexcept {
    const registry_lock::held held(lock_);
    const auto typed = type_position(*ops->type);
    if (typed == by_type_.end() || *(*typed)->type != *ops->type) return;
    registered_type& r = **typed;
    // One occurrence: every translation unit that registers the type counts once.
    erase_one(r.registrants, ops);
    if (!r.registrants.empty()) {
      r.ops = r.registrants.front();
      return;
    }
    const auto named = name_position(r.name);
    by_type_.erase(typed);
    by_name_.erase(named);
    paths_.clear();
  }

  /// Registers the relation derived -> base with its cast (counted, as types are); virtual_base:
  /// base is a virtual base of derived, or lies in one.
  void add_relation(const std::type_info& derived, const std::type_info& base, upcast_fn up, bool virtual_base) {
    const registry_lock::held held(lock_);
    const auto at = relation_position(derived, base);
    if (at != relations_.end() && *at->derived == derived && *at->base == base)
      at->casts.push_back(up);
    else
      relations_.insert(at, relation{&derived, &base, {up}, virtual_base});
    paths_.clear();
  }
  void remove_relation(const std::type_info& derived, const std::type_info& base, upcast_fn up) noexcept {
    const registry_lock::held held(lock_);
    const auto at = relation_position(derived, base);
    if (at == relations_.end() || *at->derived != derived || *at->base != base) return;
    erase_one(at->casts, up);
    if (at->casts.empty()) relations_.erase(at);
    paths_.clear();
  }

  [[nodiscard]] const registered_type* find(std::string_view name) const {
    const registry_lock::held held(lock_);
    const auto it = name_position(name);
    return it != by_name_.end() && (*it)->name == name ? it->get() : nullptr;
  }
  [[nodiscard]] const registered_type* find(const std::type_info& type) const {
    const registry_lock::held held(lock_);
    const auto it = type_position(type);
    return it != by_type_.end() && *(*it)->type == type ? *it : nullptr;
  }

  /// The casts from `from` to its base `to` (none for `to` itself), or nullptr if no chain of
  /// relations leads there. Shortest chain first; in a diamond every chain reaches the same
  /// subobject of a virtual base.
  [[nodiscard]] std::shared_ptr<const cast_path> path(const std::type_info& from, const std::type_info& to) const {
    const registry_lock::held held(lock_);
    const auto at = first_not_before(paths_.begin(), paths_.end(),
                                     [&](const known_path& p) { return pair_before(*p.from, *p.to, from, to); });
    if (at != paths_.end() && *at->from == from && *at->to == to) return at->path;
    std::shared_ptr<const cast_path> found = search(from, to);
    paths_.insert(at, known_path{&from, &to, found});
    return found;
  }

 private:
  struct relation {
    const std::type_info* derived;
    const std::type_info* base;
    std::vector<upcast_fn> casts;
    bool virtual_base;
  };
  struct known_path {
    const std::type_info* from;
    const std::type_info* to;
    std::shared_ptr<const cast_path> path;
  };

  static bool pair_before(const std::type_info& a, const std::type_info& b, const std::type_info& c,
                          const std::type_info& d) noexcept {
    return a.before(c) || (a == c && b.before(d));
  }
  template <class T>
  static void erase_one(std::vector<T>& v, const T& value) noexcept {
    for (auto it = v.begin(); it != v.end(); ++it)
      if (*it == value) {
        v.erase(it);
        return;
      }
  }

  // The first element of [first, last) that is not before the key: `before` holds for a prefix.
  template <class It, class Before>
  static It first_not_before(It first, It last, Before before) {
    auto n = last - first;
    while (n > 0) {
      const auto half = n / 2;
      if (before(first[half])) {
        first += half + 1;
        n -= half + 1;
      } else {
        n = half;
      }
    }
    return first;
  }
  auto name_position(std::string_view name) const {
    return first_not_before(by_name_.begin(), by_name_.end(),
                            [&](const std::unique_ptr<registered_type>& r) { return r->name < name; });
  }
  auto type_position(const std::type_info& type) const {
    return first_not_before(by_type_.begin(), by_type_.end(),
                            [&](const registered_type* r) { return r->type->before(type); });
  }
  auto relation_position(const std::type_info& derived, const std::type_info& base) {
    return first_not_before(relations_.begin(), relations_.end(),
                            [&](const relation& r) { return pair_before(*r.derived, *r.base, derived, base); });
  }

  // Breadth-first over the relations; a type's position in `reached` holds the step that led
  // to it, so the chain is read back from the target.
  std::shared_ptr<const cast_path> search(const std::type_info& from, const std::type_info& to) const {
    struct step {
      const std::type_info* type;
      std::size_t previous;
      upcast_fn up;
      bool virtual_base;
    };
    std::vector<step> reached{{&from, 0, nullptr, false}};
    for (std::size_t i = 0; i < reached.size(); ++i) {
      if (*reached[i].type == to) {
        auto path = std::make_shared<cast_path>();
        for (std::size_t j = i; j != 0; j = reached[j].previous) {
          path->steps.insert(path->steps.begin(), reached[j].up);
          path->through_virtual_base = path->through_virtual_base || reached[j].virtual_base;
        }
        return path;
      }
      // The relations of a type are adjacent, ordered by base.
      auto r = first_not_before(relations_.begin(), relations_.end(),
                                [&](const relation& e) { return e.derived->before(*reached[i].type); });
      for (; r != relations_.end() && *r->derived == *reached[i].type; ++r) {
        bool seen = false;
        for (const step& s : reached) seen = seen || *s.type == *r->base;
        if (!seen) reached.push_back({r->base, i, r->casts.front(), r->virtual_base});
      }
    }
    return nullptr;
  }

  mutable registry_lock lock_;
  std::vector<std::unique_ptr<registered_type>> by_name_;  // owns the types; sorted by name
  std::vector<registered_type*> by_type_;                  // sorted by type
  std::vector<relation> relations_;                        // sorted by (derived, base)
  mutable std::vector<known_path> paths_;                  // sorted by (from, to)
};

using registry = basic_registry<>;

/// The process's registry (see the top of this file for why it is one per process).
BIFRONS_VISIBLE inline registry& the_registry() {
  static registry r;
  return r;
}

/// typeid(T) and typeid(*p). Without RTTI, a program may not even contain a typeid expression
/// in a template it never instantiates; these stand in for it, and are refused only where used
/// (a pointer to a polymorphic class, whose codec refuses it first: pointers.hpp).
#if BIFRONS_HAS_RTTI
template <class T>
const std::type_info& type_of() noexcept {
  return typeid(T);
}
/// p: a pointer, raw or smart.
template <class Pointer>
const std::type_info& dynamic_type_of(const Pointer& p) {
  return typeid(*p);
}
#else
template <class T>
inline constexpr bool rtti_available = false;
template <class T>
[[noreturn]] const std::type_info& type_of() noexcept {
  static_assert(rtti_available<T>, "bifrons: this needs RTTI, and the program is compiled without it (-fno-rtti)");
  std::abort();
}
template <class Pointer>
[[noreturn]] const std::type_info& dynamic_type_of(const Pointer&) {
  static_assert(rtti_available<Pointer>,
                "bifrons: this needs RTTI, and the program is compiled without it (-fno-rtti)");
  std::abort();
}
#endif

template <class T>
inline constexpr bool registry_defined<for_type<T>> = true;

/// Registers Derived -> Base while the program (or the library that instantiates it) is
/// loaded: `base<B>(*this)` in the hook of a polymorphic class names the relation this way.
template <class Derived, class Base>
struct relation_registration {
  static void* cast(void* p) noexcept { return static_cast<Base*>(static_cast<Derived*>(p)); }
  // The cast back down is ill-formed exactly when Base is, or lies in, a virtual base of Derived.
  static constexpr bool virtual_base = !requires(Base* b) { static_cast<Derived*>(b); };
  relation_registration() { the_registry().add_relation(type_of<Derived>(), type_of<Base>(), &cast, virtual_base); }
  ~relation_registration() { the_registry().remove_relation(type_of<Derived>(), type_of<Base>(), &cast); }
  relation_registration(const relation_registration&) = delete;
  relation_registration& operator=(const relation_registration&) = delete;
  static const relation_registration instance;
};
template <class Derived, class Base>
const relation_registration<Derived, Base> relation_registration<Derived, Base>::instance{};

}  // namespace detail
}  // namespace bifrons
