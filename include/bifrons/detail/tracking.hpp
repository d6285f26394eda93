// SPDX-License-Identifier: MIT
#pragma once
// What every program parses of object identity (docs/format.md, "Pointers"): type keys, the
// state of the reader's object table that the core asks about, and the writer's session scope.
// The machinery itself (the table's operations in objects.hpp, the session in write_session.hpp,
// the pointer codecs and the polymorphic registry) is parsed only by programs that include a
// pointer's header (types/memory.hpp, types/functional.hpp, pointers.hpp, polymorphic.hpp). The
// core reaches it through the virtual functions below, and only where a value's read or write
// met a pointer: the table and the session are made by the first pointer codec that needs them.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "config.hpp"

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

struct owned_ops;
struct registered_type;
struct cast_path;

/// The virtual bases of the complete objects being read or written, each once per complete
/// object (fields.hpp, struct_codec.hpp): the reader's table and the writer's scope keep them
/// alike.
class virtual_base_list {
 public:
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
  std::vector<std::pair<const void*, const void*>> virtual_bases_;
};

/// The reader's object table as the core sees it (objects.hpp, basic_object_table, is the table):
/// its entries, the pointers it may rewrite, the type names of tag 2 and the virtual bases read,
/// which the core marks and counts, and the operations the core calls where a value with
/// pointers moves, is rolled back or ends.
class object_table_base : public virtual_base_list {
 public:
  struct entry {
    void* address = nullptr;     // the complete object
    const void* type = nullptr;  // its identity: type_key<T>, or its registered_type (registered)
    std::shared_ptr<void> owner;     // shared objects
    void* slot = nullptr;            // owning raw pointers: where the pointer is,
    const owned_ops* ops = nullptr;  // ...and how to clear it and delete the object
    std::uint32_t holder = 0;   // index + 1 of the object this one lies in; 0: the value itself
    std::uint32_t height = 0;   // the longest chain of owners it heads (so far, while in progress)
    object_kind kind = object_kind::unique;
    bool in_progress = true;
    bool registered = false;  // `type` is a registered_type: casts to its bases
    bool weak_link = false;   // a weak_ptr introduced it: its holder does not own it
    bool forgotten = false;   // died with a load_and_construct hook's locals
    bool named_early = false; // a reference named it while it was being read (new_shared_read)
    bool unconstructed = false;  // registered, and its load_and_construct is still making it

    [[nodiscard]] const registered_type* dynamic() const noexcept {
      return registered ? static_cast<const registered_type*>(type) : nullptr;
    }
    void destroy() const noexcept;  // objects.hpp
  };

  /// How to read and set a pointer of some type through its address (set(slot, nullptr) resets
  /// an owner).
  struct pointer_ops {
    void* (*get)(const void* slot) noexcept;
    void (*set)(void* slot, void* to) noexcept;
  };

  /// A position in the table, to relocate or forget what was read after it.
  struct mark {
    std::size_t objects = 0;
    std::size_t records = 0;
    std::uint32_t current = 0;  // the object being read there, and the weak link above it
    std::size_t floor = 0;
  };
  [[nodiscard]] mark position() const noexcept { return {entries_.size(), records_.size(), current_, strong_floor_}; }

  /// Bytes that the library moved: `size` bytes at `from` now live at `to`. A key of a set or map
  /// is `frozen`: its container has placed it by its value, so a pointer in it that pointed into
  /// the moved bytes cannot be rewritten (its order or hash would change under the container).
  struct moved_range {
    const void* from;
    std::size_t size;
    void* to;
    bool frozen = false;
  };
  /// How a value ended: ok, or the error and where.
  struct ending {
    errc code = errc::ok;
    const std::byte* at = nullptr;
  };

  object_table_base() = default;
  object_table_base(const object_table_base&) = delete;
  object_table_base& operator=(const object_table_base&) = delete;
  virtual ~object_table_base() = default;

  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  [[nodiscard]] std::size_t record_count() const noexcept { return records_.size(); }
  [[nodiscard]] std::size_t name_count() const noexcept { return names_.size(); }

  [[nodiscard]] virtual bool relocate(mark m, std::span<const moved_range> moved, bool moves) noexcept = 0;
  virtual void forget(mark m) noexcept = 0;
  virtual const std::byte* end_hook_locals(mark m, bool threw) noexcept = 0;
  virtual void rollback(mark m, std::size_t name_mark) = 0;
  [[nodiscard]] virtual const std::byte* pointing_into(const void* value, std::size_t size) const noexcept = 0;
  virtual ending release(bool succeeded, std::size_t max_height = static_cast<std::size_t>(-1)) noexcept = 0;
  /// The end of the read that made the table: its objects are released (as after a failure, if
  /// release() did not run) and the table goes back to the thread's spare or is deleted.
  virtual void retire() noexcept = 0;

 protected:
  /// A pointer the table may rewrite or reset: a non-owning pointer (observer), or a shared_ptr
  /// back to an object read before (strong: to a finished object; up: to one still being read).
  enum class link : std::uint8_t { observer, strong, up };
  struct record {
    void* slot;  // nullptr: not where the table can reach it (a load_and_construct hook's local)
    const pointer_ops* ops;
    const std::byte* at;
    std::uint32_t target;  // its index
    std::uint32_t holder;  // index + 1 of the object the pointer lies in; 0: the value itself
    link kind;
  };

  /// The entries: a vector whose append is inlined in full (std::vector's emplace_back was
  /// called out of line, which cost every object read), growing by doubling out of line.
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
    BIFRONS_INLINE entry& emplace_back(void* address, const void* type, object_kind kind, bool registered,
                                       std::uint32_t holder) {
      if (size_ == capacity_) [[unlikely]]
        grow();
      entry* e = ::new (static_cast<void*>(data_ + size_))
          entry{address, type, nullptr, nullptr, nullptr, holder, 0, kind, true, registered, false, false, false};
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

  entry_list entries_;
  std::vector<record> records_;
  std::uint32_t current_ = 0;  // index + 1 of the innermost object being read; 0: none
  std::size_t strong_floor_ = 0;
  std::vector<name> names_;
};
template <class = void>
class basic_object_table;
using object_table = basic_object_table<>;

/// A type that depends on T, so that what is named with it is looked at only where T is known.
template <class T>
struct for_type {
  using object_table = basic_object_table<>;
};
/// The table, named where T is known: code that needs the table itself (a virtual base read by
/// fields.hpp) instantiates it only for the types that use it.
template <class T>
using object_table_of = typename for_type<T>::object_table;
/// Whether this program's headers define the pointer machinery (objects.hpp, which the headers of
/// pointers include, sets it) and the polymorphic registry (registry.hpp): values that need them
/// for other reasons are refused without them. Asked only for such values, after the includes.
template <class>
inline constexpr bool object_table_defined = false;
template <class>
inline constexpr bool registry_defined = false;
template <class T>
concept pointer_machinery_included = object_table_defined<for_type<T>>;
template <class T>
concept registry_included = registry_defined<for_type<T>>;

class source;
// By-value objects of a type with enable_identity (pointer_codec.hpp defines these).
template <class T>
void introduce_by_value(const T& v);
template <class T>
bool enter_by_value(source& in, T& v);
template <class T>
void skip_by_value_id();
// Derived -> Base for polymorphic pointers (registry.hpp defines it).
template <class Derived, class Base>
struct relation_registration;

/// What each object of a message costs the reader's allocation budget besides its own storage:
/// its entry in the table, twice (the table's vector grows by doubling).
inline constexpr std::size_t object_entry_cost = 2 * sizeof(object_table_base::entry);

/// The address of the current frame (not of a local: AddressSanitizer may move locals to a
/// heap-allocated fake stack); 0 where the compiler cannot tell, and then only depth counts.
BIFRONS_INLINE std::uintptr_t stack_position() noexcept {
#if BIFRONS_HAS_BUILTINS
  return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
#else
  return 0;
#endif
}

/// The writer's session as the core sees it (write_session.hpp, basic_write_session, is the
/// session): what it found wrong, and the ends of its passes.
class write_session_base {
 public:
  write_session_base() = default;
  write_session_base(const write_session_base&) = delete;
  write_session_base& operator=(const write_session_base&) = delete;
  virtual ~write_session_base() = default;
  [[nodiscard]] virtual errc error() const noexcept = 0;
  /// Ends the size pass (checks what only the whole value tells).
  virtual void end_size_pass() noexcept = 0;
  /// Ends the size pass: the write pass follows.
  virtual void start_writing() noexcept = 0;
  /// The end of the value: the session goes back to the thread's spare or is deleted.
  virtual void retire() noexcept = 0;
};
template <class = void>
class basic_write_session;
using write_session = basic_write_session<>;

class session_scope;
/// The innermost scope on this thread, and its session once a pointer codec made it (default
/// visibility: one per process, also across shared libraries built with -fvisibility=hidden).
BIFRONS_VISIBLE inline thread_local session_scope* current_session_scope = nullptr;
BIFRONS_VISIBLE inline thread_local write_session_base* current_write_session = nullptr;

/// The write of one top-level value whose type may hold a pointer, while it lives. The session
/// is made by the first pointer codec that asks for it (session(), write_session.hpp), so that a
/// value that meets no pointer (a class with a hook, which the scan cannot see into) makes none.
/// The virtual bases written so far are kept here: a class with a virtual base needs no session.
class session_scope : public virtual_base_list {
 public:
  explicit session_scope(bool track_unique) noexcept
      : stack_base_(stack_position()),
        outer_(current_session_scope),
        outer_session_(current_write_session),
        track_unique_(track_unique) {
    current_session_scope = this;
    current_write_session = nullptr;
  }
  session_scope(const session_scope&) = delete;
  session_scope& operator=(const session_scope&) = delete;
  ~session_scope() {
    current_session_scope = outer_;
    current_write_session = outer_session_;
    if (session_ != nullptr) session_->retire();
  }

  [[nodiscard]] errc error() const noexcept { return session_ != nullptr ? session_->error() : errc::ok; }
  void end_size_pass() noexcept {
    if (session_ != nullptr) session_->end_size_pass();
  }
  void start_writing() noexcept {
    writing_ = true;
    if (session_ != nullptr) session_->start_writing();
  }

  // For session(): how to start the session, and the session it started.
  [[nodiscard]] bool tracks_unique() const noexcept { return track_unique_; }
  [[nodiscard]] std::uintptr_t stack_base() const noexcept { return stack_base_; }
  [[nodiscard]] bool writing() const noexcept { return writing_; }
  void adopt(write_session_base* session) noexcept {
    session_ = session;
    current_write_session = session;
  }

 private:
  std::uintptr_t stack_base_;
  session_scope* outer_;
  write_session_base* outer_session_;
  write_session_base* session_ = nullptr;
  bool track_unique_;
  bool writing_ = false;
};

/// The scope of the value being written. Codecs that ask only run under one: the entry points
/// open it for every value whose type may hold a pointer.
inline session_scope& write_scope() noexcept {
  session_scope* s = current_session_scope;
  if (s == nullptr) [[unlikely]]
    std::abort();  // an entry point missed needs_write_session: a bifrons bug
  return *s;
}

}  // namespace bifrons::detail
