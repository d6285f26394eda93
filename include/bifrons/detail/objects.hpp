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
//
// Every address the table hands out stays true until the value ends (SECURITY.md, "Pointers"):
//   - each object knows the object it lies in (its holder: the innermost object being read when
//     it was met, or the value itself), so that the end of the value can tell which objects die
//     with the table's references, and fail a non-owning pointer to one of them (after setting
//     it to null) instead of handing it out dangling;
//   - where the library moves what it has read (an element built in a temporary, a pair built
//     from its parts, a value moved into a result), relocate() moves the recorded addresses of
//     by-value objects, owning slots and non-owning pointers with it, and rewrites the
//     non-owning pointers that pointed into the moved bytes; what dies unmoved is forgotten;
//   - shared_ptrs may not close a cycle of owners (own()), and the chains of owners that
//     back-references build are as bounded as nesting is (read_options::max_depth), so that
//     destroying what a read returns cannot exhaust the stack.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "config.hpp"
#include "registry.hpp"
#include "tracking.hpp"

namespace bifrons::detail {

/// What the table does with an object it allocated for an owning raw pointer (a T* at slot) when
/// the read fails: clear the pointer if it still holds the object (given as its complete
/// object), and delete the object (of type T; a polymorphic object is deleted through its
/// registered type instead).
struct owned_ops {
  void (*clear)(void* slot, void* object) noexcept;
  void (*destroy)(void* object) noexcept;
  bool (*holds)(const void* slot, const void* object) noexcept;  // the pointer at slot holds the object
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
                                         [](void* object) noexcept { delete static_cast<T*>(object); },
                                         [](const void* slot, const void* object) noexcept {
                                           const T* p = *static_cast<T* const*>(slot);
                                           if constexpr (std::is_polymorphic_v<T>)
                                             return p != nullptr && dynamic_cast<const void*>(p) == object;
                                           else
                                             return p == object;
                                         }};

/// A thread's emptied object table, kept for its next read with pointers (object_table_owner).
inline constexpr std::size_t kept_object_table_bytes = std::size_t{1} << 20;
/// A function's thread_local, not one at namespace scope: GCC emits a namespace-scope
/// thread_local's initialization, and with it the destructor of what it owns, in every
/// translation unit that includes its header. With both spares at namespace scope, a program
/// without a pointer carried about 2.3 KB of that code.
template <class Table = object_table>
inline std::unique_ptr<Table>& spare_object_table() noexcept {
  thread_local std::unique_ptr<Table> spare;
  return spare;
}

// A template only so that its member functions are compiled where values with pointers are
// reads, as registry.hpp's basic_registry.
template <class>
class basic_object_table final : public object_table_base {
 public:
  /// What one type name that tag 2 defines takes in the table (its list grows by doubling), and
  /// what the spelling of one this program does not know takes besides.
  static constexpr std::size_t name_entry_size = 3 * sizeof(void*);
  static constexpr std::size_t unknown_name_size = sizeof(std::pair<std::size_t, std::string_view>);

  basic_object_table() = default;
  basic_object_table(const basic_object_table&) = delete;
  basic_object_table& operator=(const basic_object_table&) = delete;
  ~basic_object_table() override { (void)release(false); }

  /// A table for a source: the thread's spare if it has one.
  static basic_object_table* make() {
    std::unique_ptr<basic_object_table>& spare = spare_object_table();
    return spare ? spare.release() : new basic_object_table();
  }
  void retire() noexcept override {
    (void)release(false);  // what the destructor does: an unfinished read's objects are freed
    if (std::unique_ptr<basic_object_table>& spare = spare_object_table();
        spare == nullptr && retained_bytes() <= kept_object_table_bytes)
      spare.reset(this);
    else
      delete this;
  }

  /// The heap storage the table holds between values (for object_table_owner's spare).
  [[nodiscard]] std::size_t retained_bytes() const noexcept {
    return entries_.capacity() * sizeof(entry) + records_.capacity() * sizeof(record) +
           names_.capacity() * sizeof(name) + unknown_names_.capacity() * unknown_name_size +
           casts_.capacity() * sizeof(cast_entry);
  }
  [[nodiscard]] entry& at(std::size_t index) noexcept { return entries_[index]; }

  /// Adds an object, still being read, and returns its entry (its index, its id - 1, is
  /// size() - 1). Built in place, on the hot path of every object a pointer introduces.
  BIFRONS_INLINE entry& add(void* address, const void* type, object_kind kind, bool registered) {
    return entries_.emplace_back(address, type, kind, registered, current_);
  }

  // ---- objects being read, and the owners between them ----

  /// What open() changed, for close().
  struct opened {
    std::uint32_t current;
    std::size_t floor;
  };
  /// Object `index` (the last added) is being read: objects and pointers met until close() lie in
  /// it. A weak_ptr introduced it (weak_link): the objects begun from here on are owned through
  /// a weak link, so a shared_ptr in them may own an object above it that is still being read.
  BIFRONS_INLINE opened open(std::size_t index, bool weak_link) noexcept {
    const opened saved{current_, strong_floor_};
    entry& e = entries_[index];
    e.weak_link = weak_link;
    if (weak_link) strong_floor_ = index;
    current_ = static_cast<std::uint32_t>(index + 1);
    return saved;
  }
  /// Object `index` is read. Its chain of owners goes to its holder, unless a weak_ptr introduced
  /// it. False if the chain it heads is longer than `max_height` (its destructor would recurse
  /// that deep).
  BIFRONS_INLINE bool close(std::size_t index, opened saved, std::size_t max_height) noexcept {
    entry& e = entries_[index];
    e.in_progress = false;
    current_ = saved.current;
    strong_floor_ = saved.floor;
    ++e.height;
    if (!e.weak_link && saved.current != 0) held_by(entries_[saved.current - 1], e.height);
    return e.height <= max_height;
  }
  /// A shared_ptr at `slot` (read at `at`) in the object being read owns object `index` (a
  /// back-reference): false if that closes a cycle of owners, which would leak. An object still
  /// being read may be owned only from below the nearest weak link (a child that a weak_ptr
  /// introduced owning its parent): such a link up is counted when the value ends, where the
  /// whole graph of owners is checked for cycles and chains (check_owners). Every other link
  /// goes to a finished object, whose chain of owners is known.
  [[nodiscard]] bool own(std::size_t index, void* slot, const pointer_ops* ops, const std::byte* at) {
    const entry& e = entries_[index];
    const bool up = e.in_progress;
    if (up && index >= strong_floor_) return false;
    if (current_ != 0 && !up) held_by(entries_[current_ - 1], e.height);
    has_links_up_ = has_links_up_ || up;
    records_.push_back({slot, ops, at, static_cast<std::uint32_t>(index), current_, up ? link::up : link::strong});
    return true;
  }

  // ---- where the library moves what it read ----

  /// Moves the recorded addresses and slots of what was read since `m` that lie in the moved
  /// ranges to the same offsets at their destinations, and points the non-owning pointers that
  /// pointed into those bytes at the same offsets at the destinations: the library read an
  /// object into a temporary and moved it into place. Every part moved at once is relocated in
  /// one call: a pointer in one part may point into another (a map's value at its key).
  ///
  /// What lies outside the moved bytes (a vector's elements, a pointer's object) stays where it
  /// is when the type's move constructor moves (`moves`); a type that copies instead (a class
  /// with a destructor and no move constructor) leaves it in the temporary, which dies. Returns
  /// false when such a type had anything recorded there: the read must fail, for the table
  /// cannot tell where the copies are. An owning raw pointer whose object was copied (its slot
  /// holds another object now) is no longer the table's: the temporary's destructor freed the
  /// original, and the copy belongs to the value.
  [[nodiscard]] bool relocate(mark m, std::span<const moved_range> moved, bool moves) noexcept override {
    bool ok = true;
    // Pointers first, while the objects they may point at are still recorded where they were.
    for (std::size_t i = m.records; i < records_.size(); ++i) {
      record& r = records_[i];
      if (r.slot == nullptr) {
        // A pointer read by a load_and_construct hook: wherever it went, it cannot follow.
        const entry& t = entries_[r.target];
        if (r.kind == link::observer && t.kind == object_kind::by_value && t.address != nullptr &&
            inside_any(t.address, moved))
          ok = false;
        continue;
      }
      if (!move_if_inside(r.slot, moved) && !moves) ok = false;
      if (r.kind != link::observer) continue;  // owners point at objects of pointers, which never move
      void* p = r.ops->get(r.slot);
      if (p == nullptr || !move_if_inside(p, moved)) continue;
      if (lies_in_frozen(r.slot, moved)) {
        ok = false;  // a key that points into its own element
        continue;
      }
      r.ops->set(r.slot, p);
    }
    for (std::size_t i = m.objects; i < entries_.size(); ++i) {
      entry& e = entries_[i];
      if (e.kind == object_kind::by_value && e.address != nullptr && !move_if_inside(e.address, moved) && !moves)
        ok = false;
      if (e.slot) {
        if (!move_if_inside(e.slot, moved) && !moves) ok = false;
        if (!e.ops->holds(e.slot, e.address)) {  // copied: the original died with the temporary
          e.slot = nullptr;
          e.ops = nullptr;
          e.address = nullptr;
        }
      }
    }
    return ok;
  }

  /// The objects since `m` were read into a temporary that is being destroyed without being
  /// moved into place (a discarded deprecated<T>, a duplicate key, a failed element): references
  /// to them become errors, and an object allocated for an owning raw pointer in it is deleted
  /// now (its pointer nulled first, so that the temporary's destructor does not delete it too).
  /// Shared objects stay: the table keeps them alive, and a later reference may take them; a
  /// pointer in one of them to an object that dies here is set to null.
  void forget(mark m) noexcept override {
    clear_slots(m.objects);
    for (std::size_t i = entries_.size(); i-- > m.objects;) {
      entry& e = entries_[i];
      if (e.kind == object_kind::shared) continue;
      if (e.ops) e.destroy();
      e.address = nullptr;
      e.slot = nullptr;
      e.ops = nullptr;
      e.in_progress = false;
    }
    drop_records(m, [&](const record& r) { return r.holder > m.objects && held_in_shared(r.holder); });
  }

  /// A load_and_construct hook returned (`threw`: or threw): what it read since `m` into its
  /// locals dies with them. Objects held by its locals (by value, or by a local pointer, and
  /// everything inside them but shared objects) are forgotten: a later reference to one fails.
  /// An owning raw pointer's object is the constructed object's to free (the hook handed it over),
  /// unless the hook threw: then no object took it, and it is deleted. A pointer in a local is no
  /// longer where the table can rewrite it. Returns where a pointer the hook read points at an
  /// object that died with its locals, or a shared_ptr in a local owns an object still being read
  /// (a link up that the table could not break): the read fails there. nullptr if none.
  const std::byte* end_hook_locals(mark m, bool threw) noexcept override {
    for (std::size_t i = m.objects; i < entries_.size(); ++i) {
      entry& e = entries_[i];
      const bool in_locals = e.holder <= m.objects ||
                             (entries_[e.holder - 1].address == nullptr && entries_[e.holder - 1].forgotten);
      if (!in_locals || e.kind == object_kind::shared) continue;
      if (threw && e.ops) e.destroy();
      e.address = nullptr;
      e.slot = nullptr;
      e.ops = nullptr;
      e.in_progress = false;
      e.forgotten = true;
    }
    const std::byte* failed = nullptr;
    for (std::size_t i = m.records; i < records_.size(); ++i) {
      record& r = records_[i];
      const entry& target = entries_[r.target];
      const bool died = target.kind != object_kind::shared && target.address == nullptr;
      const bool in_locals = r.holder <= m.objects;
      if (failed == nullptr && ((r.kind == link::observer && died) || (r.kind == link::up && in_locals))) failed = r.at;
      if (in_locals) r.slot = nullptr;
    }
    return failed;
  }

  /// Forgets the objects since `m`, as if they had not been read: a struct that is read a
  /// second time (struct_codec's reset of a reused object) assigns their ids again. Objects
  /// allocated for owning raw pointers are deleted and their pointers set to null.
  void rollback(mark m, std::size_t name_mark) override {
    free_owned_since(m.objects);
    entries_.truncate(m.objects);
    records_.resize(m.records);
    // An object opened after the mark and left open by an exception is gone with the rest.
    current_ = m.current;
    strong_floor_ = m.floor;
    // The type names that tag 2 defined after the mark go too: read again, the same bytes define
    // them again, at the same indexes.
    if (names_.size() > name_mark) names_.resize(name_mark);
    while (!unknown_names_.empty() && unknown_names_.back().first >= name_mark) unknown_names_.pop_back();
  }

  // ---- pointers the table may rewrite ----

  /// A non-owning pointer at `slot`, read at `at`, points at object `target`.
  void observe(void* slot, const pointer_ops* ops, std::size_t target, const std::byte* at) {
    records_.push_back({slot, ops, at, static_cast<std::uint32_t>(target), current_, link::observer});
  }
  /// Where the first non-owning pointer that points into the `size` bytes at `value` was read, or
  /// nullptr.
  [[nodiscard]] const std::byte* pointing_into(const void* value, std::size_t size) const noexcept override {
    const moved_range whole{value, size, nullptr};
    const std::span<const moved_range> range(&whole, 1);
    for (const record& r : records_) {
      if (r.kind != link::observer) continue;
      const void* p = r.slot != nullptr ? r.ops->get(r.slot) : entries_[r.target].address;
      if (p != nullptr && inside_any(p, range)) return r.at;
    }
    return nullptr;
  }

  /// Ends the value: drops the table's references to shared objects. Before that, when links up
  /// were read, the graph of owners is checked (no cycle, no chain of owners longer than
  /// `max_height`). After a failed read, every shared_ptr the read set to an object it read is
  /// reset first (no cycle can leak, and no chain recurse deeply as it dies), and the objects
  /// allocated for owning raw pointers are deleted and their pointers set to null. A non-owning
  /// pointer that the value keeps (its holder lives on) to an object that died (a shared object
  /// nothing else owns, or an object inside one) is set to null, and the read fails where the
  /// first one was read.
  ending release(bool succeeded, std::size_t max_height = static_cast<std::size_t>(-1)) noexcept override {
    ending end;
    if (succeeded && has_links_up_) end = check_owners(max_height);
    if (!succeeded || end.code != errc::ok) {
      if (has_links_up_) {
        for (record& r : records_)
          if (r.kind != link::observer && r.slot != nullptr) r.ops->set(r.slot, nullptr);
      }
      free_owned_since(0);
    }
    if (!records_.empty()) {
      const std::byte* dangling = release_observed();
      if (end.code == errc::ok && dangling != nullptr) end = {errc::invalid_value, dangling};
    }
    entries_.clear();
    records_.clear();
    current_ = 0;
    strong_floor_ = 0;
    has_links_up_ = false;
    names_.clear();
    unknown_names_.clear();
    casts_.clear();
    registered_.clear();
    forget_virtual_bases(0);
    return end;
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
  [[nodiscard]] const registered_type* named(std::size_t index) const noexcept { return names_[index].type; }
  /// A type name of the data, and what this program registered under it (nullptr: nothing).
  /// The spelling of an unknown one is kept (a view into the input) for the error that names it.
  void add_name(const registered_type* type, std::string_view spelled) {
    names_.push_back({type});
    if (type == nullptr) unknown_names_.emplace_back(names_.size() - 1, spelled);
  }
  /// The data's spelling of the unknown type at `index` (valid while the input is).
  [[nodiscard]] std::string_view unknown_name(std::size_t index) const noexcept {
    const auto it = std::lower_bound(unknown_names_.begin(), unknown_names_.end(), index,
                                     [](const auto& entry, std::size_t i) { return entry.first < i; });
    return it != unknown_names_.end() && it->first == index ? it->second : std::string_view();
  }
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

 private:
  /// `holder` owns an object that heads a chain of `height` owners.
  static void held_by(entry& holder, std::uint32_t height) noexcept {
    if (height > holder.height) holder.height = height;
  }
  /// Whether the object `holder` (index + 1, not 0) lies in a shared object, which the table
  /// keeps alive after a temporary holding it died.
  [[nodiscard]] bool held_in_shared(std::uint32_t holder) const noexcept {
    for (std::size_t depth = 0; holder != 0 && depth < entries_.size(); ++depth) {
      const entry& e = entries_[holder - 1];
      if (e.kind == object_kind::shared) return true;
      holder = e.holder;
    }
    return false;
  }
  /// Drops the records since `m`, keeping those for which keep(r) holds; a kept pointer whose
  /// object was forgotten is set to null.
  template <class Keep>
  void drop_records(mark m, Keep keep) noexcept {
    std::size_t out = m.records;
    for (std::size_t i = m.records; i < records_.size(); ++i) {
      record& r = records_[i];
      if (!keep(r)) continue;
      const entry& t = entries_[r.target];
      if (r.kind == link::observer && t.kind != object_kind::shared && t.address == nullptr && r.slot)
        r.ops->set(r.slot, nullptr);
      records_[out++] = r;
    }
    records_.resize(out);
  }

  /// The graph of owners of a value with links up: an edge from each object to what it owns (the
  /// objects in it but those a weak_ptr introduced, and the objects its shared_ptrs refer to).
  /// Heights are computed from the objects that own nothing up (Kahn's algorithm on the reversed
  /// edges); an object never reached owns, or is, part of a cycle. Linear in objects and links.
  ending check_owners(std::size_t max_height) noexcept {
    const std::size_t n = entries_.size();
    std::vector<std::uint32_t> first;     // per object: where its owners start in `owners`
    std::vector<std::uint32_t> owners;    // the objects that own each object
    std::vector<std::uint32_t> pending;   // per object: the objects it owns not yet measured
    std::vector<std::uint32_t> height;
    std::vector<std::uint32_t> ready;
#if BIFRONS_HAS_EXCEPTIONS
    try {
#endif
      first.assign(n + 1, 0);
      pending.assign(n, 0);
      height.assign(n, 1);
      const auto each_edge = [&](auto&& edge) {
        for (std::size_t i = 0; i < n; ++i) {
          const entry& e = entries_[i];
          // Objects held by value own nothing of their own (what they hold, their holder holds):
          // no edge, as close() counts no height for them.
          if (e.holder != 0 && !e.weak_link && (e.kind == object_kind::shared || e.kind == object_kind::unique))
            edge(e.holder - 1, static_cast<std::uint32_t>(i));
        }
        for (const record& r : records_)
          if (r.kind != link::observer && r.holder != 0) edge(r.holder - 1, r.target);
      };
      each_edge([&](std::uint32_t from, std::uint32_t to) {
        ++first[to + 1];
        ++pending[from];
      });
      for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
      owners.resize(first[n]);
      std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
      each_edge([&](std::uint32_t from, std::uint32_t to) { owners[fill[to]++] = from; });
      for (std::size_t i = 0; i < n; ++i)
        if (pending[i] == 0) ready.push_back(static_cast<std::uint32_t>(i));
      std::size_t measured = 0;
      while (!ready.empty()) {
        const std::uint32_t v = ready.back();
        ready.pop_back();
        ++measured;
        for (std::uint32_t k = first[v]; k < first[v + 1]; ++k) {
          const std::uint32_t u = owners[k];
          if (height[v] + 1 > height[u]) height[u] = height[v] + 1;
          if (--pending[u] == 0) ready.push_back(u);
        }
      }
      if (measured != n) {
        // A cycle: report the first link up inside it (a cycle always has one).
        for (const record& r : records_)
          if (r.kind == link::up && r.holder != 0 && pending[r.holder - 1] != 0 && pending[r.target] != 0)
            return {errc::invalid_value, r.at};
        return {errc::invalid_value, records_.front().at};
      }
      for (std::size_t i = 0; i < n; ++i)
        if (height[i] > max_height) {
          for (const record& r : records_)
            if (r.kind == link::up) return {errc::depth_limit_exceeded, r.at};
        }
      return {};
#if BIFRONS_HAS_EXCEPTIONS
    } catch (...) {
      return {errc::out_of_memory, records_.front().at};
    }
#endif
  }

  /// release() with pointers: which objects outlive the table's references.
  const std::byte* release_observed() noexcept {
    // Without shared objects, and with none forgotten or freed, every object lives as long as the
    // value (its holders lead to it): nothing to tell, as for a tree with raw parent pointers.
    bool may_die = false;
    for (const entry& e : entries_)
      may_die = may_die || e.kind == object_kind::shared || (e.address == nullptr && e.kind != object_kind::skipped);
    if (!may_die) return nullptr;
    return release_observed_slow();
  }
  const std::byte* release_observed_slow() noexcept {
    // 0: not known yet, 1: lives, 2: dies. The table's own references go first; what they alone
    // kept alive dies now, and the weak references tell which did.
    constexpr std::uint8_t unknown = 0, lives = 1, dies = 2;
    // (An array, not a vector: GCC 12 at -O1 saw the fill of a vector that might be empty write
    // through its null data, and warned, -Wnonnull.)
    std::unique_ptr<std::uint8_t[]> state;
    std::vector<std::weak_ptr<void>> watched;
#if BIFRONS_HAS_EXCEPTIONS
    try {
#endif
      state.reset(new std::uint8_t[entries_.size()]());
      static_assert(unknown == 0);
      watched.resize(entries_.size());
#if BIFRONS_HAS_EXCEPTIONS
    } catch (...) {
      // No memory to tell: every pointer the value keeps is set to null, and the read fails.
      for (record& r : records_)
        if (r.kind == link::observer && r.slot) r.ops->set(r.slot, nullptr);
      return records_.front().at;
    }
#endif
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      entry& e = entries_[i];
      if (e.kind == object_kind::shared) {
        watched[i] = e.owner;
        e.owner.reset();
      }
    }
    // An object lives if its holder does; a shared object if an owner outside the table kept it.
    const auto alive = [&](std::uint32_t holder) {
      std::uint32_t h = holder;
      while (h != 0 && state[h - 1] == unknown) {
        const entry& e = entries_[h - 1];
        if (e.address == nullptr || e.kind == object_kind::skipped) {
          state[h - 1] = dies;
        } else if (e.kind == object_kind::shared) {
          state[h - 1] = watched[h - 1].expired() ? dies : lives;
        } else {
          h = e.holder;
          continue;
        }
        break;
      }
      const std::uint8_t known = h == 0 ? lives : state[h - 1];
      for (h = holder; h != 0 && state[h - 1] == unknown; h = entries_[h - 1].holder) state[h - 1] = known;
      return known == lives;
    };
    const std::byte* dangling = nullptr;
    for (const record& r : records_) {
      if (r.kind != link::observer || alive(r.target + 1) || !alive(r.holder)) continue;
      if (r.slot) r.ops->set(r.slot, nullptr);
      if (dangling == nullptr) dangling = r.at;
    }
    return dangling;
  }

  static bool inside(const void* p, const std::byte* first, std::size_t size) noexcept {
    const auto* b = static_cast<const std::byte*>(p);
    return !std::less<const std::byte*>{}(b, first) && std::less<const std::byte*>{}(b, first + size);
  }
  static bool lies_in_frozen(const void* slot, std::span<const moved_range> moved) noexcept {
    for (const moved_range& r : moved)
      if (r.frozen && inside(slot, static_cast<const std::byte*>(r.to), r.size)) return true;
    return false;
  }
  static bool inside_any(const void* p, std::span<const moved_range> moved) noexcept {
    for (const moved_range& r : moved)
      if (inside(p, static_cast<const std::byte*>(r.from), r.size)) return true;
    return false;
  }
  /// Moves p to its destination if it lies in one of the moved ranges; true if it did.
  static bool move_if_inside(void*& p, std::span<const moved_range> moved) noexcept {
    for (const moved_range& r : moved) {
      const auto* first = static_cast<const std::byte*>(r.from);
      if (inside(p, first, r.size)) {
        p = static_cast<std::byte*>(r.to) + (static_cast<std::byte*>(p) - first);
        return true;
      }
    }
    return false;
  }
  /// Clears the owning raw pointers of the objects since `mark` that still hold their object.
  void clear_slots(std::size_t mark) noexcept {
    for (std::size_t i = mark; i < entries_.size(); ++i)
      if (entries_[i].ops) entries_[i].ops->clear(entries_[i].slot, entries_[i].address);
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
        e.address = nullptr;
      }
    }
  }

  static_assert(sizeof(name) <= name_entry_size);
  struct cast_entry {
    const registered_type* from;
    const std::type_info* to;
    std::shared_ptr<const cast_path> path;
  };

  bool has_links_up_ = false;  // a shared_ptr owns an object still being read (own())
  std::vector<std::pair<std::size_t, std::string_view>> unknown_names_;  // by type index, in order
  std::vector<cast_entry> casts_;
  std::vector<std::pair<const std::type_info*, const registered_type*>> registered_;
};

template <class T>
inline constexpr bool object_table_defined<for_type<T>> = true;

inline void object_table_base::entry::destroy() const noexcept {
  if (registered)
    dynamic()->ops->destroy(address);
  else
    ops->destroy(address);
}

}  // namespace bifrons::detail
