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

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#if defined(__GNUG__)
#include <cxxabi.h>
#endif

#include "config.hpp"

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

/// How to handle the objects of one registered class T, given as a pointer to the complete T.
/// Made once per part of the program that registers T (polymorphic.hpp).
struct polymorphic_ops {
  const std::type_info* type;
  std::size_t object_size;  // sizeof(T), charged to the reader's budget
  std::size_t (*size)(const void* object);
  std::byte* (*write)(std::byte* out, const void* object);
  void (*read)(source& in, void* object);
  void* (*create)();  // new T()
  void (*destroy)(void* object) noexcept;
  std::shared_ptr<void> (*create_shared)();  // make_shared<T>()
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

// A template only so that its member functions, and the std::map operations in them, are
// compiled in the programs that use polymorphic pointers: as a plain class, every source file
// that includes the core paid for them (docs/design.md).
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
    const std::lock_guard lock(mutex_);
    if (const auto it = by_name_.find(name); it != by_name_.end()) {
      registered_type& r = *it->second;
      if (*r.type != *ops->type)
        registration_failed("bifrons: the type name \"" + std::string(name) + "\" is registered for two types: " +
                            readable_name(*r.type) + " and " + readable_name(*ops->type));
      r.registrants.push_back(ops);
      return;
    }
    if (const auto it = by_type_.find(std::type_index(*ops->type)); it != by_type_.end())
      registration_failed("bifrons: " + readable_name(*ops->type) + " is registered under two names: \"" +
                          it->second->name + "\" and \"" + std::string(name) + "\"");
    auto r = std::make_unique<registered_type>(registered_type{std::string(name), ops->type, ops, {ops}});
    by_type_.emplace(std::type_index(*ops->type), r.get());
    by_name_.emplace(std::string(name), std::move(r));
  }

  /// Removes one registration (its library is being unloaded, or the program ends).
  void remove_type(const polymorphic_ops* ops) noexcept {
    const std::lock_guard lock(mutex_);
    const auto it = by_type_.find(std::type_index(*ops->type));
    if (it == by_type_.end()) return;
    registered_type& r = *it->second;
    // One occurrence: every translation unit that registers the type counts once.
    if (const auto at = std::find(r.registrants.begin(), r.registrants.end(), ops); at != r.registrants.end())
      r.registrants.erase(at);
    if (!r.registrants.empty()) {
      r.ops = r.registrants.front();
      return;
    }
    const std::string name = r.name;
    by_type_.erase(it);
    by_name_.erase(name);
    paths_.clear();
  }

  /// Registers the relation derived -> base with its cast (counted, as types are).
  void add_relation(const std::type_info& derived, const std::type_info& base, upcast_fn up) {
    const std::lock_guard lock(mutex_);
    relations_[std::type_index(derived)][std::type_index(base)].push_back(up);
    paths_.clear();
  }
  void remove_relation(const std::type_info& derived, const std::type_info& base, upcast_fn up) noexcept {
    const std::lock_guard lock(mutex_);
    const auto from = relations_.find(std::type_index(derived));
    if (from == relations_.end()) return;
    const auto to = from->second.find(std::type_index(base));
    if (to == from->second.end()) return;
    if (const auto at = std::find(to->second.begin(), to->second.end(), up); at != to->second.end())
      to->second.erase(at);
    if (to->second.empty()) from->second.erase(to);
    if (from->second.empty()) relations_.erase(from);
    paths_.clear();
  }

  [[nodiscard]] const registered_type* find(std::string_view name) const {
    const std::lock_guard lock(mutex_);
    const auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second.get();
  }
  [[nodiscard]] const registered_type* find(const std::type_info& type) const {
    const std::lock_guard lock(mutex_);
    const auto it = by_type_.find(std::type_index(type));
    return it == by_type_.end() ? nullptr : it->second;
  }

  /// The casts from `from` to its base `to` (none for `to` itself), or nullptr if no chain of
  /// relations leads there. Shortest chain first; in a diamond every chain reaches the same
  /// subobject of a virtual base.
  [[nodiscard]] std::shared_ptr<const cast_path> path(const std::type_info& from, const std::type_info& to) const {
    const std::lock_guard lock(mutex_);
    const std::pair key{std::type_index(from), std::type_index(to)};
    if (const auto it = paths_.find(key); it != paths_.end()) return it->second;
    std::shared_ptr<const cast_path> found = search(key.first, key.second);
    paths_.emplace(key, found);
    return found;
  }

 private:
  // Breadth-first over the relations; a type's position in `reached` holds the step that led
  // to it, so the chain is read back from the target.
  std::shared_ptr<const cast_path> search(std::type_index from, std::type_index to) const {
    struct step {
      std::type_index type;
      std::size_t previous;
      upcast_fn up;
    };
    std::vector<step> reached{{from, 0, nullptr}};
    for (std::size_t i = 0; i < reached.size(); ++i) {
      if (reached[i].type == to) {
        auto path = std::make_shared<cast_path>();
        for (std::size_t j = i; j != 0; j = reached[j].previous) path->steps.push_back(reached[j].up);
        std::reverse(path->steps.begin(), path->steps.end());
        return path;
      }
      const auto bases = relations_.find(reached[i].type);
      if (bases == relations_.end()) continue;
      for (const auto& [base, casts] : bases->second) {
        bool seen = false;
        for (const step& s : reached) seen = seen || s.type == base;
        if (!seen) reached.push_back({base, i, casts.front()});
      }
    }
    return nullptr;
  }

  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<registered_type>, std::less<>> by_name_;
  std::map<std::type_index, registered_type*> by_type_;
  std::map<std::type_index, std::map<std::type_index, std::vector<upcast_fn>>> relations_;
  mutable std::map<std::pair<std::type_index, std::type_index>, std::shared_ptr<const cast_path>> paths_;
};

using registry = basic_registry<>;

/// The process's registry (see the top of this file for why it is one per process).
BIFRONS_VISIBLE inline registry& the_registry() {
  static registry r;
  return r;
}

/// Registers Derived -> Base while the program (or the library that instantiates it) is
/// loaded: `base<B>(*this)` in the hook of a polymorphic class names the relation this way.
template <class Derived, class Base>
struct relation_registration {
  static void* cast(void* p) noexcept { return static_cast<Base*>(static_cast<Derived*>(p)); }
  relation_registration() { the_registry().add_relation(typeid(Derived), typeid(Base), &cast); }
  ~relation_registration() { the_registry().remove_relation(typeid(Derived), typeid(Base), &cast); }
  relation_registration(const relation_registration&) = delete;
  relation_registration& operator=(const relation_registration&) = delete;
  static const relation_registration instance;
};
template <class Derived, class Base>
const relation_registration<Derived, Base> relation_registration<Derived, Base>::instance{};

}  // namespace detail
}  // namespace bifrons
