// SPDX-License-Identifier: MIT
#pragma once
// The reading side of object identity (docs/format.md, "Pointers"): the table of the objects a
// read has met, indexed by object id, that back-references resolve against.
//
// A source creates the table on the first pointer it reads, so that values without pointers
// never allocate it. The table keeps every shared object alive until the value is read (an
// object that only a weak_ptr introduced must survive until a shared_ptr back-reference takes
// it), and remembers every object it allocated for an owning raw pointer: if the read fails,
// those pointers are set back to null and the objects deleted (the caller never owned them).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "config.hpp"
#include "registry.hpp"

namespace bifrons::detail {

/// A key per type, without RTTI: the address of a variable of its own. (Default visibility, so
/// that a shared library built with -fvisibility=hidden has the same keys as the program.)
template <class T>
struct BIFRONS_VISIBLE type_key_holder {
  static constexpr char key = 0;
};
template <class T>
inline constexpr const void* type_key = &type_key_holder<std::remove_cv_t<T>>::key;

/// How an object of the message is held: what may point at it.
enum class object_kind : std::uint8_t {
  shared,    ///< by a shared_ptr or weak_ptr: shared_ptr, weak_ptr and observers may refer back
  unique,    ///< by a unique_ptr or an owning raw pointer: only observers may refer back
  by_value,  ///< a member or element of a type with enable_identity: only observers may refer back
  skipped,   ///< not read: an unregistered polymorphic type, or inside one's unread fields
};

/// What the table does with an object it allocated for an owning raw pointer (a T* at slot) when
/// the read fails: clear the pointer if it still holds the object (given as its complete
/// object), and delete the object (of type T; a polymorphic object is deleted through its
/// registered type instead).
struct owned_ops {
  void (*clear)(void* slot, void* object) noexcept;
  void (*destroy)(void* object) noexcept;
};
template <class T>
inline constexpr owned_ops owned_ops_for{[](void* slot, void* object) noexcept {
                                           T*& p = *static_cast<T**>(slot);
                                           if constexpr (std::is_polymorphic_v<T>) {
                                             if (p != nullptr && dynamic_cast<void*>(p) == object) p = nullptr;
                                           } else if (p == object) {
                                             p = nullptr;
                                           }
                                         },
                                         [](void* object) noexcept { delete static_cast<T*>(object); }};

// A template only so that its member functions are compiled where values with pointers are
// reads, as registry.hpp's basic_registry.
template <class = void>
class basic_object_table {
 public:
  struct entry {
    void* address = nullptr;     // the complete object
    const void* type = nullptr;  // its identity: type_key<T>, or its registered_type (registered)
    std::shared_ptr<void> owner;     // shared objects
    void* slot = nullptr;            // owning raw pointers: where the pointer is,
    const owned_ops* ops = nullptr;  // ...and how to clear it and delete the object
    object_kind kind = object_kind::unique;
    bool in_progress = true;
    bool registered = false;                 // `type` is a registered_type: casts to its bases
    const std::byte* observed_at = nullptr;  // shared objects: where a non-owning pointer first named it

    [[nodiscard]] const registered_type* dynamic() const noexcept {
      return registered ? static_cast<const registered_type*>(type) : nullptr;
    }
    void destroy() const noexcept {
      if (registered)
        dynamic()->ops->destroy(address);
      else
        ops->destroy(address);
    }
  };

  basic_object_table() = default;
  basic_object_table(const basic_object_table&) = delete;
  basic_object_table& operator=(const basic_object_table&) = delete;
  ~basic_object_table() { release(false); }

  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  /// The heap storage the table holds between values (for object_table_owner's spare).
  [[nodiscard]] std::size_t retained_bytes() const noexcept { return entries_.capacity() * sizeof(entry); }
  [[nodiscard]] entry& at(std::size_t index) noexcept { return entries_[index]; }

  /// Adds an object, still being read, and returns its entry (its index, its id - 1, is
  /// size() - 1). Built in place, on the hot path of every object a pointer introduces.
  BIFRONS_INLINE entry& add(void* address, const void* type, object_kind kind, bool registered) {
    return entries_.emplace_back(address, type, kind, registered);
  }

  /// True if a shared_ptr may point at object `index` without closing a cycle of owners: the
  /// object is finished, or it was begun above the nearest object that only a weak_ptr holds
  /// (the owners between them and the new pointer include a weak link).
  [[nodiscard]] bool may_own(std::size_t index) const noexcept {
    return !entries_[index].in_progress || index < strong_floor_;
  }
  /// Objects begun from here on are owned through a weak link; returns the previous floor.
  std::size_t raise_floor(std::size_t index) noexcept {
    const std::size_t saved = strong_floor_;
    strong_floor_ = index;
    return saved;
  }
  void restore_floor(std::size_t saved) noexcept { strong_floor_ = saved; }

  /// Moves the recorded addresses and slots of objects since `mark` that lie in the `size`
  /// bytes at `from` to the same offsets at `to`: a container read an element into a temporary
  /// and moved it into place.
  void relocate(std::size_t mark, const void* from, std::size_t size, void* to) noexcept {
    const auto* first = static_cast<const std::byte*>(from);
    auto* target = static_cast<std::byte*>(to);
    for (std::size_t i = mark; i < entries_.size(); ++i) {
      entry& e = entries_[i];
      if (e.kind == object_kind::by_value) move_if_inside(e.address, first, size, target);
      if (e.slot) move_if_inside(e.slot, first, size, target);
    }
  }

  /// Clears the owning raw pointers of the objects since `mark` that still hold their object.
  void clear_slots(std::size_t mark) noexcept {
    for (std::size_t i = mark; i < entries_.size(); ++i)
      if (entries_[i].ops) entries_[i].ops->clear(entries_[i].slot, entries_[i].address);
  }

  /// The objects since `mark` were read into a temporary that is being destroyed without being
  /// moved into place (a discarded deprecated<T>, a duplicate key, a failed element): references
  /// to them become errors, and an object allocated for an owning raw pointer in it is deleted
  /// now (its pointer nulled first, so that the temporary's destructor does not delete it too).
  /// Shared objects stay: the table keeps them alive, and a later reference may take them.
  void forget(std::size_t mark) noexcept {
    clear_slots(mark);
    for (std::size_t i = entries_.size(); i-- > mark;) {
      entry& e = entries_[i];
      if (e.kind == object_kind::shared) continue;
      if (e.ops) e.destroy();
      const object_kind kind = e.kind;
      e = entry{};
      e.kind = kind;
      e.in_progress = false;
    }
  }

  /// Forgets the objects since `mark`, as if they had not been read: a struct that is read a
  /// second time (struct_codec's reset of a reused object) assigns their ids again. Objects
  /// allocated for owning raw pointers are deleted and their pointers set to null.
  void rollback(std::size_t mark, std::size_t name_mark) {
    free_owned_since(mark);
    entries_.truncate(mark);
    // The type names that tag 2 defined after the mark go too: read again, the same bytes define
    // them again, at the same indexes.
    if (names_.size() > name_mark) names_.resize(name_mark);
  }

  /// Where a non-owning pointer names a shared object that only the table owns, or nullptr: the
  /// object dies when the value ends (a weak_ptr introduced it and no shared_ptr took it), and
  /// the pointer would dangle.
  [[nodiscard]] const std::byte* dangling_observer() const noexcept {
    if (!observed_) return nullptr;
    for (const entry& e : entries_)
      if (e.observed_at && e.owner.use_count() == 1) return e.observed_at;
    return nullptr;
  }

  /// A non-owning pointer at `at` names shared object `e`: remembered for dangling_observer.
  void observe(entry& e, const std::byte* at) noexcept {
    if (e.observed_at == nullptr) e.observed_at = at;
    observed_ = true;
  }

  /// Ends the value: drops the table's references to shared objects. After a failed read, the
  /// objects allocated for owning raw pointers are deleted and their pointers set to null.
  void release(bool succeeded) noexcept {
    if (!succeeded) free_owned_since(0);
    entries_.clear();
    strong_floor_ = 0;
    observed_ = false;
    names_.clear();
    casts_.clear();
    registered_.clear();
    virtual_bases_.clear();
  }

  // ---- polymorphic objects (tag 2) ----

  /// The registered type of a C++ type, or nullptr: the registry is asked once per type and value.
  [[nodiscard]] const registered_type* registered(const std::type_info& type) {
    for (const auto& [t, r] : registered_)
      if (t == &type) return r;
    registered_.emplace_back(&type, the_registry().find(type));
    return registered_.back().second;
  }

  /// The types that tag 2 named in this value, by type index - 1 (nullptr: not registered here).
  [[nodiscard]] std::size_t name_count() const noexcept { return names_.size(); }
  [[nodiscard]] const registered_type* named(std::size_t index) const noexcept { return names_[index].type; }
  void add_name(const registered_type* type) { names_.push_back({type}); }
  /// cast(named(index), to), remembering the last declared type asked about for each type index
  /// (a tree asks about one declared type for every object).
  [[nodiscard]] const cast_path* cast_named(std::size_t index, const std::type_info& to) {
    name& n = names_[index];
    if (n.to != &to) {
      n.path = cast(n.type, to);
      n.to = &to;
    }
    return n.path;
  }

  /// How to turn a pointer to an object of registered type `from` into a pointer to its base
  /// `to`, or nullptr if `to` is not a registered base of it. Looked up in the registry once per
  /// pair and value.
  [[nodiscard]] const cast_path* cast(const registered_type* from, const std::type_info& to) {
    if (!casts_.empty() && casts_.back().from == from && casts_.back().to == &to) return casts_.back().path.get();
    for (const cast_entry& c : casts_)
      if (c.from == from && c.to == &to) return c.path.get();
    casts_.push_back({from, &to, the_registry().path(*from->type, to)});
    return casts_.back().path.get();
  }

  // ---- virtual bases: read once per complete object (fields.hpp, struct_codec.hpp) ----

  [[nodiscard]] bool has_virtual_base(const void* address, const void* type) const noexcept {
    for (const auto& [a, t] : virtual_bases_)
      if (a == address && t == type) return true;
    return false;
  }
  void add_virtual_base(const void* address, const void* type) { virtual_bases_.emplace_back(address, type); }
  [[nodiscard]] std::size_t virtual_base_count() const noexcept { return virtual_bases_.size(); }
  void forget_virtual_bases(std::size_t mark) noexcept {
    if (virtual_bases_.size() > mark)
      virtual_bases_.erase(virtual_bases_.begin() + static_cast<std::ptrdiff_t>(mark), virtual_bases_.end());
  }

 private:
  static bool inside(const void* p, const std::byte* first, std::size_t size) noexcept {
    const auto* b = static_cast<const std::byte*>(p);
    return !std::less<const std::byte*>{}(b, first) && std::less<const std::byte*>{}(b, first + size);
  }
  static void move_if_inside(void*& p, const std::byte* first, std::size_t size, std::byte* target) noexcept {
    if (inside(p, first, size)) p = target + (static_cast<std::byte*>(p) - first);
  }
  // Every pointer is nulled before any object is deleted: a class whose destructor deletes what
  // its owning pointer holds then sees null rather than an object deleted already.
  void free_owned_since(std::size_t mark) noexcept {
    clear_slots(mark);
    for (std::size_t i = entries_.size(); i-- > mark;) {
      entry& e = entries_[i];
      if (e.ops) {
        e.destroy();
        e.ops = nullptr;
        e.slot = nullptr;
      }
    }
  }

  /// The entries: a vector whose append is inlined in full (std::vector's emplace_back was
  /// called out of line, about 20 instructions per object), growing by doubling out of line.
  class entry_list {
   public:
    entry_list() = default;
    entry_list(const entry_list&) = delete;
    entry_list& operator=(const entry_list&) = delete;
    ~entry_list() {
      clear();
      ::operator delete(data_);
    }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
    entry& operator[](std::size_t i) noexcept { return data_[i]; }
    const entry& operator[](std::size_t i) const noexcept { return data_[i]; }
    [[nodiscard]] const entry* begin() const noexcept { return data_; }
    [[nodiscard]] const entry* end() const noexcept { return data_ + size_; }
    BIFRONS_INLINE entry& emplace_back(void* address, const void* type, object_kind kind, bool registered) {
      if (size_ == capacity_) [[unlikely]]
        grow();
      entry* e = ::new (static_cast<void*>(data_ + size_))
          entry{address, type, nullptr, nullptr, nullptr, kind, true, registered, nullptr};
      ++size_;
      return *e;
    }
    /// Destroys the entries from `n` on, first to last (as std::vector does).
    void truncate(std::size_t n) noexcept {
      for (std::size_t i = n; i < size_; ++i) data_[i].~entry();
      size_ = n;
    }
    void clear() noexcept { truncate(0); }

   private:
    [[gnu::noinline]] void grow() {
      const std::size_t capacity = capacity_ == 0 ? 16 : 2 * capacity_;
      auto* data = static_cast<entry*>(::operator new(capacity * sizeof(entry)));
      for (std::size_t i = 0; i < size_; ++i) {
        ::new (static_cast<void*>(data + i)) entry(std::move(data_[i]));
        data_[i].~entry();
      }
      ::operator delete(data_);
      data_ = data;
      capacity_ = capacity;
    }

    entry* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
  };

  struct name {
    const registered_type* type;
    const std::type_info* to = nullptr;
    const cast_path* path = nullptr;
  };
  struct cast_entry {
    const registered_type* from;
    const std::type_info* to;
    std::shared_ptr<const cast_path> path;
  };

  entry_list entries_;
  std::size_t strong_floor_ = 0;
  bool observed_ = false;  // a non-owning pointer named a shared object
  std::vector<name> names_;
  std::vector<cast_entry> casts_;
  std::vector<std::pair<const std::type_info*, const registered_type*>> registered_;
  std::vector<std::pair<const void*, const void*>> virtual_bases_;
};
using object_table = basic_object_table<>;

/// A thread's emptied object table, kept for its next read with pointers (object_table_owner).
inline constexpr std::size_t kept_object_table_bytes = std::size_t{1} << 20;
/// A function's thread_local, not one at namespace scope: GCC emits a namespace-scope
/// thread_local's initialization, and with it the destructor of what it owns, in every
/// translation unit that includes its header. With both spares at namespace scope, a program
/// without a pointer carried about 2.3 KB of that code.
inline std::unique_ptr<object_table>& spare_object_table() noexcept {
  thread_local std::unique_ptr<object_table> spare;
  return spare;
}

/// What each object of a message costs the reader's allocation budget besides its own storage:
/// its entry in the table, twice (the table's vector grows by doubling).
inline constexpr std::size_t object_entry_cost = 2 * sizeof(object_table::entry);

}  // namespace bifrons::detail
