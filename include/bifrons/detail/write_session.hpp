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

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <typeinfo>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "config.hpp"
#include "objects.hpp"
#include "registry.hpp"
#include "tracking.hpp"

namespace bifrons::detail {

// A template only so that its member functions are compiled where values with pointers are
// written, as registry.hpp's basic_registry.
template <class>
class basic_write_session final : public write_session_base {
 public:
  /// Pointers nested deeper than this, or deep enough to have used max_stack bytes of stack
  /// since the top-level call, are refused at write time (depth_limit_exceeded): the writer
  /// recurses once per pointer, and a chain of a million nodes must not exhaust the stack. How
  /// much stack a level takes depends on the types (and on the build: sanitizers triple it), so
  /// the stack itself is measured where the compiler can tell the frame's address. A reader
  /// needs read_options::max_depth above twice the pointer depth.
  static constexpr std::size_t max_depth = 4096;
  static constexpr std::size_t max_stack = std::size_t{512} << 10;

  struct object {
    const void* address;  // the key: the complete object and its identity (pointee in pointer_codec.hpp)
    const void* type;
    std::uint64_t id;
    object_kind kind;
    bool in_progress = true;
    std::weak_ptr<const void> owner;  // shared objects: to tell an aliasing shared_ptr apart
    std::uint32_t holder = 0;  // index + 1 of the object it lies in; 0: the value itself
    bool weak_link = false;    // a weak_ptr introduced it: its holder does not own it
  };

  enum class pass : std::uint8_t { size, write };

  /// Sessions are recycled (session_scope): begin() starts each value afresh.
  basic_write_session() = default;
  basic_write_session(const basic_write_session&) = delete;
  basic_write_session& operator=(const basic_write_session&) = delete;

  /// Starts a value, keeping the storage of the tables from the last. Whether objects that only
  /// unique owners hold take ids in the table: only where something of the value can refer to
  /// them (may_hold_identity); without, the session only counts depth. The stack is measured
  /// from `stack_base`, the caller's frame.
  void begin(bool track_unique, std::uintptr_t stack_base) noexcept {
    objects_.clear();
    indexed_ = false;
    if (++epoch_ == 0) [[unlikely]]
      forget_slots();
    tag_count_ = 0;
    observed_.clear();
    dynamic_types_.clear();
    hints_ = {};
    names_.clear();
    next_ = 0;
    next_name_ = 0;
    polymorphic_depth_ = 0;
    next_id_ = 1;
    strong_floor_ = 0;
    current_ = 0;
    owns_.clear();
    has_links_up_ = false;
    depth_ = 0;
    error_ = errc::ok;
    pass_ = pass::size;
    track_unique_ = track_unique;
    stack_base_ = stack_base;
  }
  /// The heap storage the session holds between values.
  [[nodiscard]] std::size_t retained_bytes() const noexcept {
    return objects_.capacity() * sizeof(object) + slots_.capacity() * sizeof(slot) +
           tags_.capacity() * sizeof(std::uint64_t) + owns_.capacity() * sizeof(owns_[0]);
  }
  [[nodiscard]] bool tracks_unique() const noexcept { return track_unique_; }

  [[nodiscard]] pass current_pass() const noexcept { return pass_; }
  void retire() noexcept override;
  [[nodiscard]] errc error() const noexcept override { return error_; }
  void fail(errc code) noexcept {
    if (error_ == errc::ok) error_ = code;
  }

  /// Size pass: the object at (address, type), or nullptr if the message has not met it. The
  /// pointer is valid until the next introduce(). The hash index is built at the first search,
  /// so that values whose pointers never refer back (trees of unique_ptrs) never hash.
  [[nodiscard]] object* find(const void* address, const void* type) {
    if (objects_.empty()) return nullptr;
    if (!indexed_) [[unlikely]]
      build_index();
    for (std::size_t i = slot_of(address, type);; i = (i + 1) & (slots_.size() - 1)) {
      const slot sl = slots_[i];
      if (sl.epoch != epoch_) return nullptr;
      object& o = objects_[sl.index];
      if (o.address == address && o.type == type) return &o;
    }
  }
  /// Size pass: gives the object at (address, type) the next id and returns its index for at().
  /// The caller checked find() where the object could be there already.
  /// A shared object's owner (a shared_ptr to it) comes along, to tell an aliasing shared_ptr apart.
  template <class... Owner>
  std::size_t introduce(const void* address, const void* type, object_kind kind, const Owner&... owner) {
    static_assert(sizeof...(Owner) <= 1);
    const std::size_t index = objects_.size();
    if constexpr (sizeof...(Owner) == 0)
      objects_.emplace_back(address, type, next_id_++, kind, true, std::weak_ptr<const void>(), current_);
    else
      objects_.emplace_back(address, type, next_id_++, kind, true, owner..., current_);
    if (indexed_) {  // else at the first search
      if (2 * objects_.size() > slots_.size()) [[unlikely]]
        grow();
      else
        place(address, type, index);
    }
    return index;
  }
  [[nodiscard]] object& at(std::size_t index) noexcept { return objects_[index]; }
  [[nodiscard]] std::size_t index_of(const object& o) const noexcept {
    return static_cast<std::size_t>(&o - objects_.data());
  }

  /// Size pass: an id for an object that nothing can point at (the default T a deprecated<T>
  /// field writes in place of a retired object with identity, an object of a value whose
  /// unique_ptrs are not tracked).
  void skip_id() noexcept { ++next_id_; }
  /// Size pass: the id the next object takes (the objects inside a polymorphic object's
  /// encoding are counted as the difference, for readers that skip it).
  [[nodiscard]] std::uint64_t next_id() const noexcept { return next_id_; }

  /// What open() changed, for close(): the mirror of object_table's, so that the writer refuses
  /// the cycles of owners that the reader refuses.
  struct opened {
    std::uint32_t current;
    std::uint64_t floor;
  };
  /// Size pass: object `index` is being sized; a weak_ptr introduced it (weak_link).
  opened open(std::size_t index, bool weak_link) noexcept {
    const opened saved{current_, strong_floor_};
    object& o = objects_[index];
    o.weak_link = weak_link;
    if (weak_link) strong_floor_ = o.id;
    current_ = static_cast<std::uint32_t>(index + 1);
    return saved;
  }
  void close(std::size_t index, opened saved) noexcept {
    objects_[index].in_progress = false;
    current_ = saved.current;
    strong_floor_ = saved.floor;
  }
  /// Size pass: a shared_ptr in the object being sized owns `o` (a back-reference): false if that
  /// closes a cycle of owners at once. A link up to an object still being sized, allowed below
  /// a weak link, is checked with the whole graph at the end of the size pass (cycles_closed), as
  /// the reader does (object_table::own).
  [[nodiscard]] bool own(const object& o) {
    const bool up = o.in_progress;
    if (up && o.id >= strong_floor_) return false;
    owns_.push_back({current_, static_cast<std::uint32_t>(index_of(o))});
    has_links_up_ = has_links_up_ || up;
    return true;
  }
  /// The shared object whose owners decide whether `o` outlives a read: itself, or the first
  /// shared object its holders lie in; nullptr when the value itself holds it.
  [[nodiscard]] const object* shared_holder(const object& o) const noexcept {
    const object* p = &o;
    while (p->kind != object_kind::shared) {
      if (p->holder == 0) return nullptr;
      p = &objects_[p->holder - 1];
    }
    return p;
  }

  /// Size pass: one level deeper, or false (and the error) past max_depth.
  bool enter() noexcept {
    if (depth_ == max_depth || stack_used() > max_stack) {
      fail(errc::depth_limit_exceeded);
      return false;
    }
    ++depth_;
    return true;
  }
  void leave() noexcept { --depth_; }

  /// Size pass: records the tag decided for the next pointer. Write pass: returns it.
  /// (tags_ is a buffer that only grows, so that no call to push_back is left out of line: GCC
  /// at -O3 kept it out of line in the shared-tree size pass.)
  BIFRONS_INLINE void record(std::uint64_t tag) {
    if (tag_count_ == tags_.size()) [[unlikely]]
      grow_tags();
    tags_[tag_count_++] = tag;
  }
  [[nodiscard]] std::uint64_t replay() noexcept { return next_ < tag_count_ ? tags_[next_++] : 0; }
  /// Size pass: places for `n` numbers, some known only after what follows them is sized (the
  /// count of objects inside a polymorphic object), each to set with set_recorded (they hold
  /// what an earlier value left there); the index of the first.
  std::size_t record_later(std::size_t n) {
    while (tag_count_ + n > tags_.size()) grow_tags();
    tag_count_ += n;
    return tag_count_ - n;
  }
  void set_recorded(std::size_t at, std::uint64_t value) noexcept { tags_[at] = value; }

  // ---- polymorphic objects (tag 2) ----

  /// What the session knows of one dynamic type (one typeid object): its registered type, its
  /// type index in this message, and whether it is, or derives from, the declared type last
  /// asked about (a tree asks about one declared type for every object).
  struct dynamic_type {
    const std::type_info* type;
    const registered_type* registered;
    std::uint64_t index = 0;  // 0: not named in this message yet
    const std::type_info* declared = nullptr;
    bool same = false;      // the dynamic type is the declared type
    bool derives = false;   // ...or a registered type related to it
  };

  /// The entry of a dynamic type; the registry is asked once per type and message.
  [[nodiscard]] std::size_t dynamic(const std::type_info& type) {
    std::uint8_t& hint = hints_[(reinterpret_cast<std::uintptr_t>(&type) >> 4) % hints_.size()];
    if (hint != 0 && dynamic_types_[hint - 1u].type == &type) return hint - 1u;
    std::size_t i = 0;
    while (i < dynamic_types_.size() && dynamic_types_[i].type != &type) ++i;
    if (i == dynamic_types_.size()) dynamic_types_.push_back({&type, the_registry().find(type)});
    if (i < 255) hint = static_cast<std::uint8_t>(i + 1);
    return i;
  }
  [[nodiscard]] dynamic_type& dynamic_at(std::size_t i) noexcept { return dynamic_types_[i]; }
  /// Fills in `same` and `derives` of dynamic type i for the declared type.
  const dynamic_type& relate(std::size_t i, const std::type_info& declared) {
    dynamic_type& d = dynamic_types_[i];
    if (d.declared == &declared) return d;
    d.declared = &declared;
    d.same = *d.type == declared;
    d.derives = d.same || (d.registered != nullptr && the_registry().path(*d.registered->type, declared) != nullptr);
    return d;
  }

  /// Size pass: the type index (1, 2, ...) of dynamic type i; a type met for the first time
  /// takes the next index, and its name is listed in the header of the outermost polymorphic
  /// object being sized.
  std::uint64_t type_index(std::size_t i) {
    dynamic_type& d = dynamic_types_[i];
    if (d.index != 0) return d.index;
    std::size_t k = 0;  // the registered type may have been named through another typeid object
    while (k < names_.size() && names_[k] != d.registered) ++k;
    if (k == names_.size()) names_.push_back(d.registered);
    return d.index = k + 1;
  }
  [[nodiscard]] std::size_t name_count() const noexcept { return names_.size(); }
  /// The registered type with index `index` (1, 2, ...).
  [[nodiscard]] const registered_type* named(std::uint64_t index) const noexcept {
    return names_[static_cast<std::size_t>(index - 1)];
  }
  /// Write pass: the next type whose name a header lists (headers list names in index order).
  [[nodiscard]] const registered_type* next_listed_name() noexcept { return names_[next_name_++]; }
  /// Size pass: entering the encoding of a polymorphic object; true if it is the outermost one,
  /// whose header lists the names first used inside it.
  bool enter_polymorphic() noexcept { return polymorphic_depth_++ == 0; }
  void leave_polymorphic() noexcept { --polymorphic_depth_; }

  /// Size pass: a non-owning pointer names `o`, which lies in a shared object (or is one): it
  /// dies after reading unless something the value keeps owns that object. Checked at the end of
  /// the size pass.
  void observed_in_shared(const object& o) { observed_.push_back({current_, static_cast<std::uint32_t>(index_of(o))}); }

  /// Ends the size pass. A non-owning pointer, in a part of the value that lives on, to an object
  /// that the value does not own (the reader's table would be its last owner, and the object would
  /// die with the read): unwritten_pointee. A cycle of owners: ownership_cycle.
  void end_size_pass() noexcept override {
    if (!observed_.empty() && error_ == errc::ok) {
      bool dangles = false;  // (not set where the check ran out of memory: no note then)
      refuse_if([&] { return dangles = observer_would_dangle(); }, errc::unwritten_pointee);
      if (dangles) note_dangling_observer();
    }
    if (has_links_up_) refuse_if([&] { return cycles_closed(); }, errc::ownership_cycle);
  }
  BIFRONS_COLD static void note_dangling_observer() {
    note_failure(errc::unwritten_pointee, 0,
                 {"a non-owning pointer points at an object inside a shared object that the value does not own "
                  "(only a weak_ptr or another non-owning pointer reaches it): after reading, that object would "
                  "die and the pointer dangle. Hold the shared object through a shared_ptr in the value"});
  }
  /// Fails with `code` where check() finds it, or where there is no memory to check: a value that
  /// could not be checked is refused rather than written.
  template <class Check>
  void refuse_if(Check check, errc code) noexcept {
#if BIFRONS_HAS_EXCEPTIONS
    try {
      if (check()) fail(code);
    } catch (const std::bad_alloc&) {
      fail(code);
    }
#else
    if (check()) fail(code);
#endif
  }
  /// Ends the size pass: the write pass follows.
  void start_writing() noexcept override {
    end_size_pass();
    pass_ = pass::write;
    next_ = 0;
    next_name_ = 0;
  }

 private:
  /// Which objects the value owns, from its own members on, through objects in objects (but those
  /// a weak_ptr introduced) and shared_ptrs' back-references (as object_table::release tells them
  /// after reading); whether an observed object outside them is named from inside them.
  [[nodiscard]] bool observer_would_dangle() const {
    const std::size_t n = objects_.size();
    std::vector<std::uint32_t> first(n + 2, 0);  // owned objects by holder (index + 1; 0: the value)
    const auto each_edge = [&](auto&& edge) {
      for (std::size_t i = 0; i < n; ++i)
        if (!objects_[i].weak_link) edge(objects_[i].holder, static_cast<std::uint32_t>(i));
      for (const auto& [holder, to] : owns_) edge(holder, to);
    };
    each_edge([&](std::uint32_t holder, std::uint32_t) { ++first[holder + 1]; });
    for (std::size_t i = 0; i <= n; ++i) first[i + 1] += first[i];
    std::vector<std::uint32_t> owned(first[n + 1]);
    std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
    each_edge([&](std::uint32_t holder, std::uint32_t to) { owned[fill[holder]++] = to; });
    const auto owned_by = [&](std::size_t holder) {  // holder: index + 1; 0: the value
      return std::span<const std::uint32_t>(owned).subspan(first[holder], first[holder + 1] - first[holder]);
    };
    std::vector<bool> alive(n, false);
    const auto roots = owned_by(0);
    std::vector<std::uint32_t> stack(roots.begin(), roots.end());
    while (!stack.empty()) {
      const std::uint32_t i = stack.back();
      stack.pop_back();
      if (alive[i]) continue;
      alive[i] = true;
      const auto inner = owned_by(std::size_t{i} + 1);
      stack.insert(stack.end(), inner.begin(), inner.end());
    }
    for (const auto& [holder, target] : observed_)
      if (!alive[target] && (holder == 0 || alive[holder - 1])) return true;
    return false;
  }

  /// Whether the objects and their owners form a cycle (only links up can close one): Kahn's
  /// algorithm on the edges from each object to what it owns (the objects in it but those a
  /// weak_ptr introduced, and the objects its shared_ptrs refer to). Linear in objects and links.
  [[nodiscard]] bool cycles_closed() const {
    const std::size_t n = objects_.size();
    std::vector<std::uint32_t> first(n + 1, 0), owned(n, 0), ready;
    const auto each_edge = [&](auto&& edge) {
      for (std::size_t i = 0; i < n; ++i)
        if (objects_[i].holder != 0 && !objects_[i].weak_link)
          edge(objects_[i].holder - 1, static_cast<std::uint32_t>(i));
      for (const auto& [holder, to] : owns_)
        if (holder != 0) edge(holder - 1, to);
    };
    each_edge([&](std::uint32_t from, std::uint32_t) { ++first[from + 1]; });
    for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
    std::vector<std::uint32_t> targets(first[n]);
    std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
    each_edge([&](std::uint32_t from, std::uint32_t to) {
      targets[fill[from]++] = to;
      ++owned[to];
    });
    for (std::size_t i = 0; i < n; ++i)
      if (owned[i] == 0) ready.push_back(static_cast<std::uint32_t>(i));
    std::size_t done = 0;
    while (!ready.empty()) {
      const std::uint32_t v = ready.back();
      ready.pop_back();
      ++done;
      for (std::uint32_t k = first[v]; k < first[v + 1]; ++k)
        if (--owned[targets[k]] == 0) ready.push_back(targets[k]);
    }
    return done != n;
  }

  [[nodiscard]] BIFRONS_INLINE std::size_t stack_used() const noexcept {
    const std::uintptr_t now = stack_position();
    return static_cast<std::size_t>(now < stack_base_ ? stack_base_ - now : now - stack_base_);
  }

  // An open-addressing table (linear probing, at most half full) of indices into objects_,
  // which holds the keys: node-based std::unordered_map cost an allocation per object, several
  // times the rest of a shared_ptr's write, and keys in the slots a second push per object in
  // values that never search. The table outlives the value (session_scope keeps the session):
  // a slot is empty unless it holds the current epoch, so that begin() empties it without
  // touching it, and the next value of the same shape neither clears nor grows it (rebuilding
  // it from a few slots cost every value several allocations).
  struct slot {
    std::uint32_t index = 0;
    std::uint32_t epoch = 0;  // 0: empty in every epoch (epoch_ starts at 1)
  };
  /// The most objects a message may hold: a slot's index is 32 bits (a reader's default
  /// read_options::max_objects is far below). Checked where the table is built or grows, which
  /// it does before it holds an index that does not fit; until a search, no index is used.
  static constexpr std::size_t max_objects = 0xFFFF'FFFFu;
  void check_object_count() noexcept {
    if (objects_.size() > max_objects) fail(errc::object_limit_exceeded);
  }
  [[nodiscard]] std::size_t slot_of(const void* address, const void* type) const noexcept {
    const auto k = (reinterpret_cast<std::uintptr_t>(address) ^ (reinterpret_cast<std::uintptr_t>(type) >> 3)) >> 3;
    return static_cast<std::size_t>((static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15u) >> 32) & (slots_.size() - 1);
  }
  void place(const void* address, const void* type, std::size_t index) noexcept {
    std::size_t i = slot_of(address, type);
    while (slots_[i].epoch == epoch_) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = {static_cast<std::uint32_t>(index), epoch_};
  }
  void place_all() noexcept {
    for (std::size_t k = 0; k < objects_.size(); ++k) place(objects_[k].address, objects_[k].type, k);
  }
  /// The first search indexes every object so far; introduce() keeps the index current after.
  BIFRONS_COLD void build_index() {
    check_object_count();
    std::size_t n = 64;
    while (2 * (objects_.size() + 1) > n) n *= 2;
    if (slots_.size() < n) {
      slots_.clear();
      slots_.resize(n);
    }
    place_all();
    indexed_ = true;
  }
  BIFRONS_COLD void grow() {
    check_object_count();
    const std::size_t n = 2 * slots_.size();
    slots_.clear();
    slots_.resize(n);
    place_all();
  }
  BIFRONS_COLD void grow_tags() { tags_.resize(std::max<std::size_t>(64, 2 * tags_.size())); }
  /// After 2^32 values the epochs come round: every slot is emptied once.
  BIFRONS_COLD void forget_slots() noexcept {
    for (slot& s : slots_) s = slot{};
    epoch_ = 1;
  }

  std::vector<object> objects_;
  std::vector<slot> slots_;
  std::vector<std::uint64_t> tags_;  // the first tag_count_ are this value's
  std::size_t tag_count_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> observed_;  // (holder, object) of pointers that may dangle
  std::vector<dynamic_type> dynamic_types_;
  std::array<std::uint8_t, 16> hints_{};
  std::vector<const registered_type*> names_;
  std::uint32_t epoch_ = 0;  // begin() starts the first value at 1
  bool indexed_ = false;     // slots_ holds the objects so far (built at the first search)
  std::size_t next_ = 0;
  std::size_t next_name_ = 0;
  std::size_t polymorphic_depth_ = 0;
  std::uint64_t next_id_ = 1;
  std::uint64_t strong_floor_ = 0;
  std::uint32_t current_ = 0;  // index + 1 of the innermost object being sized; 0: none
  std::vector<std::pair<std::uint32_t, std::uint32_t>> owns_;  // back-references of shared_ptrs: (holder, object)
  bool has_links_up_ = false;  // one of them owns an object still being sized
  std::size_t depth_ = 0;
  errc error_ = errc::ok;
  pass pass_ = pass::size;
  bool track_unique_ = false;
  std::uintptr_t stack_base_ = 0;
};

/// Each thread keeps the session of its last top-level value, emptied, for the next (unless a
/// value made its tables larger than this): a tree of a thousand shared objects is then written
/// without growing the session's vectors again, which was about thirty allocations per value
/// and a sixth of the write's time. A nested session (a hook writing a value of its own) makes
/// a session of its own.
inline constexpr std::size_t kept_session_bytes = std::size_t{1} << 20;
/// A function's thread_local, as spare_object_table (objects.hpp) is.
inline std::unique_ptr<write_session>& spare_write_session() noexcept {
  thread_local std::unique_ptr<write_session> spare;
  return spare;
}

template <class V>
void basic_write_session<V>::retire() noexcept {
  if (std::unique_ptr<write_session>& spare = spare_write_session();
      spare == nullptr && retained_bytes() <= kept_session_bytes) {
    begin(false, 0);  // drops the weak references to the value's shared objects now
    spare.reset(this);
  } else {
    delete this;
  }
}

/// Starts the session of the innermost scope (tracking.hpp, session_scope), empty: at the first
/// pointer of its value.
[[gnu::noinline]] inline write_session& start_session() {
  session_scope& scope = write_scope();
  write_session* s;
  {
    std::unique_ptr<write_session>& spare = spare_write_session();
    s = spare ? spare.release() : new write_session();
  }
  s->begin(scope.tracks_unique(), scope.stack_base());
  if (scope.writing()) s->start_writing();
  scope.adopt(s);
  return *s;
}

/// The session of the value being written. Pointer codecs only run under a session_scope: the
/// entry points open one for every value whose type may hold a pointer.
inline write_session& session() {
  write_session_base* s = current_write_session;
  if (s == nullptr) [[unlikely]]
    return start_session();
  return static_cast<write_session&>(*s);
}

}  // namespace bifrons::detail
