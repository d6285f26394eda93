// SPDX-License-Identifier: MIT
#pragma once
// The writing side of object identity (docs/format.md, "Pointers").
//
// Writing is two passes (codec.hpp): the size pass decides, for every pointer, whether its
// object is new (tag 1) or was met before (a back-reference), with one hash-table operation per
// object; it also finds the messages that cannot be written faithfully (a non-owning pointer to
// an object not written before it, an object owned twice, a cycle of owners). The write pass
// then replays the decided tags in the same order, without the table.
//
// Codecs have no parameter for this state (their signature is what keeps pointer-free values
// fast), so the entry points install a session in a thread_local for the values that may hold
// pointers (needs_write_session in pointer_codec.hpp), and restore the previous one after: a
// user hook may call to_bytes for a nested value of its own.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "../error.hpp"
#include "objects.hpp"

namespace bifrons::detail {

class write_session {
 public:
  /// Pointers nested deeper than this are refused at write time (depth_limit_exceeded): the
  /// writer recurses once per pointer, and a chain of a million nodes must not exhaust the
  /// stack. A reader needs read_options::max_depth above twice the pointer depth.
  static constexpr std::size_t max_depth = 4096;

  struct object {
    std::uint64_t id;
    object_kind kind;
    bool in_progress;
    std::weak_ptr<const void> owner;  // shared objects: to tell an aliasing shared_ptr apart
    bool owned = false;               // shared objects: a shared_ptr of the message owns it
  };

  enum class pass : std::uint8_t { size, write };

  [[nodiscard]] pass current_pass() const noexcept { return pass_; }
  [[nodiscard]] errc error() const noexcept { return error_; }
  void fail(errc code) noexcept {
    if (error_ == errc::ok) error_ = code;
  }

  /// Size pass: the object at (address, type), or nullptr if the message has not met it.
  [[nodiscard]] object* find(const void* address, const void* type) {
    const auto it = objects_.find(key{address, type});
    return it == objects_.end() ? nullptr : &it->second;
  }
  /// Size pass: gives the object at (address, type) the next id. The caller checked find().
  object& introduce(const void* address, const void* type, object_kind kind) {
    return objects_.emplace(key{address, type}, object{next_id_++, kind, true, {}}).first->second;
  }

  /// Size pass: an id for an object that nothing can point at (the default T a deprecated<T>
  /// field writes in place of a retired object with identity).
  void skip_id() noexcept { ++next_id_; }

  /// True if a shared_ptr may own `o` without closing a cycle of owners (see object_table).
  [[nodiscard]] bool may_own(const object& o) const noexcept { return !o.in_progress || o.id < strong_floor_; }
  std::uint64_t raise_floor(std::uint64_t id) noexcept {
    const std::uint64_t saved = strong_floor_;
    strong_floor_ = id;
    return saved;
  }
  void restore_floor(std::uint64_t saved) noexcept { strong_floor_ = saved; }

  /// Size pass: one level deeper, or false (and the error) past max_depth.
  bool enter() noexcept {
    if (depth_ == max_depth) {
      fail(errc::depth_limit_exceeded);
      return false;
    }
    ++depth_;
    return true;
  }
  void leave() noexcept { --depth_; }

  /// Size pass: records the tag decided for the next pointer. Write pass: returns it.
  void record(std::uint64_t tag) { tags_.push_back(tag); }
  [[nodiscard]] std::uint64_t replay() noexcept { return next_ < tags_.size() ? tags_[next_++] : 0; }

  /// Size pass: a non-owning pointer names a shared object that no shared_ptr of the message
  /// owns yet (only weak_ptrs).
  void observed_unowned(object& o) { observed_unowned_.push_back(&o); }

  /// Ends the size pass. A non-owning pointer to an object that no shared_ptr of the message
  /// owns would dangle after reading (the object dies with the read): unwritten_pointee.
  void end_size_pass() noexcept {
    for (const object* o : observed_unowned_)
      if (!o->owned) fail(errc::unwritten_pointee);
  }
  /// Ends the size pass: the write pass follows.
  void start_writing() noexcept {
    end_size_pass();
    pass_ = pass::write;
    next_ = 0;
  }

 private:
  struct key {
    const void* address;
    const void* type;
    friend bool operator==(const key&, const key&) = default;
  };
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      const std::size_t a = std::hash<const void*>{}(k.address);
      return a ^ (std::hash<const void*>{}(k.type) + 0x9e3779b97f4a7c15u + (a << 6) + (a >> 2));
    }
  };

  std::unordered_map<key, object, key_hash> objects_;
  std::vector<std::uint64_t> tags_;
  std::vector<object*> observed_unowned_;
  std::size_t next_ = 0;
  std::uint64_t next_id_ = 1;
  std::uint64_t strong_floor_ = 0;
  std::size_t depth_ = 0;
  errc error_ = errc::ok;
  pass pass_ = pass::size;
};

inline thread_local write_session* current_write_session = nullptr;

/// The session of the value being written. Pointer codecs only run under one: the entry points
/// install it for every value whose type may hold a pointer.
inline write_session& session() noexcept {
  write_session* s = current_write_session;
  if (s == nullptr) [[unlikely]]
    std::abort();  // an entry point missed needs_write_session: a bifrons bug
  return *s;
}

/// Installs a fresh session for one top-level value while it lives.
class session_scope {
 public:
  session_scope() noexcept : saved_(current_write_session) { current_write_session = &session_; }
  session_scope(const session_scope&) = delete;
  session_scope& operator=(const session_scope&) = delete;
  ~session_scope() { current_write_session = saved_; }
  write_session& get() noexcept { return session_; }

 private:
  write_session session_;
  write_session* saved_;
};

}  // namespace bifrons::detail
