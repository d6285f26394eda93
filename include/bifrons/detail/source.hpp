// SPDX-License-Identifier: MIT
#pragma once
// The reading side of the archive core: a bounded cursor over the input with the limits of
// read_options, a depth counter and a sticky error.
//
// Errors do not unwind: the first one is recorded with its offset and the cursor's limit is
// pulled down to the current position, so every later read fails at once without touching
// memory. Loops check failed() so that a failure inside element 0 does not run n more times.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "../read_options.hpp"
#include "encoding.hpp"
#include "tracking.hpp"

namespace bifrons::detail {

class source {
 public:
  source(const std::byte* data, std::size_t size, const read_options& options) noexcept
      : begin_(data),
        ptr_(data),
        limit_(data + size),
        end_(data + size),
        depth_left_(options.max_depth),
        max_depth_(options.max_depth),
        budget_left_(options.max_alloc_bytes),
        max_elements_(options.max_elements),
        max_bucket_size_(options.max_bucket_size),
        objects_left_(options.max_objects),
        unknown_types_(options.unknown_types) {}

  [[nodiscard]] bool failed() const noexcept { return error_ != errc::ok; }
  [[nodiscard]] errc error() const noexcept { return error_; }
  [[nodiscard]] std::size_t error_offset() const noexcept { return error_offset_; }
  /// For unexpected_end and count_exceeds_input: at least how many more bytes the value that ran
  /// out needed (saturated at 2^32 - 1); 0 for other errors.
  [[nodiscard]] std::uint32_t error_bytes_missing() const noexcept { return error_missing_; }
  [[nodiscard]] std::size_t offset() const noexcept { return static_cast<std::size_t>(ptr_ - begin_); }
  [[nodiscard]] const std::byte* position() const noexcept { return ptr_; }
  [[nodiscard]] const std::byte* begin() const noexcept { return begin_; }
  /// Bytes that can be read from the current position without leaving the input: past the
  /// enclosing struct's end, for decoders that check where they stopped afterwards.
  [[nodiscard]] std::size_t readable() const noexcept { return static_cast<std::size_t>(end_ - ptr_); }
  /// Bytes left before the end of the input or of the enclosing struct.
  [[nodiscard]] std::size_t remaining() const noexcept { return static_cast<std::size_t>(limit_ - ptr_); }
  [[nodiscard]] bool at_limit() const noexcept { return ptr_ == limit_; }

  /// Records the first error, at the current position or at `where` (the first byte of the
  /// value that failed), and pulls the limit down so that every later read fails at once.
  /// The one way to fail.
  void fail(errc code) noexcept { fail_at(code, ptr_); }
  void fail_at(errc code, const std::byte* where) noexcept {
    if (error_ == errc::ok) {
      error_ = code;
      error_offset_ = static_cast<std::size_t>(where - begin_);
#if BIFRONS_ERROR_PATHS
      capture_path();
#endif
    }
    limit_ = ptr_;
  }
  /// Records unexpected_end where the input, or the enclosing struct's body, ends (the first byte
  /// that is not there), and that the value being read needed at least `missing` more bytes.
  /// (Not marked cold: GCC 12 at -O3 then allocated the registers of a flattened read worse, and
  /// every element of a vector of structs paid for it.)
  void fail_short(std::uint64_t missing) noexcept { fail_missing(errc::unexpected_end, limit_, missing); }
  /// fail_at, with at least how many more bytes than are left the value at `where` needs.
  void fail_missing(errc code, const std::byte* where, std::uint64_t missing) noexcept {
    if (error_ == errc::ok) error_missing_ = saturate_missing(missing);
    fail_at(code, where);
  }
  /// The bytes that n elements of at least min_wire bytes each need beyond the bytes left.
  [[nodiscard]] std::uint64_t missing_for(std::uint64_t n, std::uint64_t min_wire) const noexcept {
    if (min_wire != 0 && n > std::numeric_limits<std::uint64_t>::max() / min_wire)
      return std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t need = n * min_wire;
    return need > remaining() ? need - remaining() : 0;
  }

  /// Returns n bytes and advances past them, or nullptr after recording unexpected_end.
  [[nodiscard]] BIFRONS_INLINE const std::byte* take(std::size_t n) noexcept {
    if (remaining() < n) [[unlikely]] {
      fail_short(n - remaining());
      return nullptr;
    }
    const std::byte* p = ptr_;
    ptr_ += n;
    return p;
  }

  /// take() without the check, for a caller that has checked remaining() >= n itself.
  [[nodiscard]] BIFRONS_INLINE const std::byte* skip(std::size_t n) noexcept {
    const std::byte* p = ptr_;
    ptr_ += n;
    return p;
  }

  [[nodiscard]] BIFRONS_INLINE std::uint8_t read_byte() noexcept {
    if (ptr_ == limit_) [[unlikely]] {
      fail_short(1);
      return 0;
    }
    return static_cast<std::uint8_t>(*ptr_++);
  }

  /// Reads a minimal LEB128 varint of at most 64 bits (0 after an error). Wide: the varint is a
  /// 64-bit integer field's, which often takes 9 or 10 bytes (ids, hashes); those then take a
  /// path of their own (the others, counts and headers, keep the smaller code).
  template <bool Wide = false>
  [[nodiscard]] BIFRONS_INLINE std::uint64_t read_varint() noexcept {
    if (ptr_ != limit_ && static_cast<std::uint8_t>(*ptr_) < 0x80) [[likely]]
      return static_cast<std::uint8_t>(*ptr_++);
    return read_varint_slow<Wide>();
  }

  /// read_varint's fast path alone: if the next byte is a whole varint (below 0x80), stores it
  /// in v, advances and returns true; otherwise changes nothing and returns false.
  [[nodiscard]] BIFRONS_INLINE bool read_small_varint(std::uint8_t& v) noexcept {
    if (ptr_ != limit_ && static_cast<std::uint8_t>(*ptr_) < 0x80) [[likely]] {
      v = static_cast<std::uint8_t>(*ptr_++);
      return true;
    }
    return false;
  }

  /// Reads a varint that must fit in U (an unsigned type), else value_out_of_range.
  template <class U>
  [[nodiscard]] U read_varint_as() noexcept {
    const std::byte* start = ptr_;
    const std::uint64_t v = read_varint();
    if constexpr (sizeof(U) < sizeof(std::uint64_t)) {
      if (v > std::numeric_limits<U>::max()) [[unlikely]] {
        fail_at(errc::value_out_of_range, start);
        return 0;
      }
    }
    return static_cast<U>(v);
  }

  /// read_varint for element counts and struct headers, whose 2-byte spellings (128 to 16,383
  /// elements, bodies of 64 to 8,191 bytes) are common: those are decoded here too, where
  /// read_varint_slow would take an 8-byte load and its unpack.
  [[nodiscard]] BIFRONS_INLINE std::uint64_t read_length_varint() noexcept {
    if (ptr_ != limit_ && static_cast<std::uint8_t>(*ptr_) < 0x80) [[likely]]
      return static_cast<std::uint8_t>(*ptr_++);
    return read_longer_length_varint();
  }
  /// read_length_varint after read_small_varint found no one-byte varint.
  [[nodiscard]] BIFRONS_INLINE std::uint64_t read_longer_length_varint() noexcept {
    // One comparison for both: the second byte ends the varint, and is not 0 (a non-minimal
    // spelling, which read_varint_slow reports).
    if (limit_ - ptr_ >= 2 && static_cast<std::uint8_t>(ptr_[1]) - 1u < 0x7fu) {
      const std::uint64_t v = two_byte_varint(ptr_).value;
      ptr_ += 2;
      return v;
    }
    return read_varint_slow();
  }

  /// Reads an element count and checks it (check_count) before anything is allocated.
  /// Returns 0 after an error.
  [[nodiscard]] BIFRONS_INLINE std::size_t read_count(std::size_t min_wire, std::size_t alloc_size,
                                                      std::size_t max_count = ~std::size_t{0}) noexcept {
    const std::byte* start = ptr_;
    const std::uint64_t n = read_varint();
    if (failed()) return 0;
    return check_count(start, n, min_wire, alloc_size, max_count);
  }
  /// read_count for a block of elements (numbers, characters), which is all a read of such a
  /// container costs besides the copy. (Not for every container: in the flattened read of a
  /// vector of structs the longer count reader made GCC allocate the element loop's registers
  /// worse, at a cost per element.)
  [[nodiscard]] BIFRONS_INLINE std::size_t read_block_count(std::size_t min_wire, std::size_t alloc_size,
                                                            std::size_t max_count) noexcept {
    const std::byte* start = ptr_;
    const std::uint64_t n = read_length_varint();
    if (failed()) return 0;
    return check_count(start, n, min_wire, alloc_size, max_count);
  }

  /// Checks a count n read at `start`, in this order: against the elements limit, against the
  /// bytes left (each element needs at least min_wire bytes), against max_count (the
  /// container's max_size(), so that no count reaches the standard library's length_error), and
  /// against the allocation budget (each element costs alloc_size bytes). Returns n, or 0 after
  /// recording the error at start.
  [[nodiscard]] BIFRONS_INLINE std::size_t check_count(const std::byte* start, std::uint64_t n, std::size_t min_wire,
                                                       std::size_t alloc_size, std::size_t max_count) noexcept {
    if (n == 0) return 0;
    if (n > max_elements_) return fail_at(errc::element_limit_exceeded, start), 0;
    if (min_wire != 0 && n > remaining() / min_wire)
      return fail_missing(errc::count_exceeds_input, start, missing_for(n, min_wire)), 0;
    if (n > max_count) return fail_at(errc::element_limit_exceeded, start), 0;
    if (!charge(start, n, alloc_size)) return 0;
    return static_cast<std::size_t>(n);
  }

  /// Charges count x size bytes to the allocation budget, reporting a refusal at `where`: the
  /// first byte of the value that needs the storage.
  BIFRONS_INLINE bool charge(const std::byte* where, std::uint64_t count, std::size_t size) noexcept {
    // Checked multiplication: count * size must not wrap before the comparison.
    if (size != 0 && count > budget_left_ / size) [[unlikely]] {
      fail_at(errc::allocation_limit_exceeded, where);
      return false;
    }
    budget_left_ -= static_cast<std::size_t>(count) * size;
    return true;
  }
  /// The allocation budget left, and putting back a value saved earlier: a struct that is reset
  /// and read again (struct_codec) has freed what its first pass charged.
  [[nodiscard]] std::size_t budget_left() const noexcept { return budget_left_; }
  [[nodiscard]] std::size_t max_bucket_size() const noexcept { return max_bucket_size_; }
  void restore_budget(std::size_t left) noexcept { budget_left_ = left; }

  BIFRONS_INLINE bool enter() noexcept {
    if (depth_left_ == 0) [[unlikely]] {
      fail(errc::depth_limit_exceeded);
      return false;
    }
    --depth_left_;
    return true;
  }
  void leave() noexcept { ++depth_left_; }
  [[nodiscard]] std::size_t depth_left() const noexcept { return depth_left_; }
  /// read_options::max_depth: also the longest chain of owners a read may build (object_table).
  [[nodiscard]] std::size_t max_depth() const noexcept { return max_depth_; }

  /// Forgets the error and goes back to `p` inside a struct body that ends at `limit`, at the
  /// depth it had there: a struct whose hook refused the stale values of a reused object reads
  /// its fields again from defaults (struct_codec).
  void recover(const std::byte* p, const std::byte* limit, std::size_t depth) noexcept {
    error_ = errc::ok;
    error_offset_ = 0;
#if BIFRONS_ERROR_PATHS
    failure_path.clear();
    failure_type.clear();
#endif
    ptr_ = p;
    limit_ = limit;
    depth_left_ = depth;
  }

  /// Narrows the limit to the next len bytes (a struct body). Returns the previous limit.
  [[nodiscard]] const std::byte* narrow(std::size_t len) noexcept {
    const std::byte* saved = limit_;
    limit_ = ptr_ + len;
    return saved;
  }
  /// Leaves a struct body: jumps over whatever fields this reader does not know.
  void widen(const std::byte* body_end, const std::byte* saved) noexcept {
    if (failed()) return;
    ptr_ = body_end;
    limit_ = saved;
  }
  void rewind(const std::byte* p) noexcept { ptr_ = p; }

  /// The objects of the value being read, for pointers (docs/format.md, "Pointers"); created
  /// on first use, so that values without pointers never allocate it. Only the codecs of
  /// pointers ask for it, and they include objects.hpp, where Table is defined.
  template <class Table = object_table>
  Table& objects() {
    if (!objects_) objects_ = Table::make();
    return static_cast<Table&>(*objects_);
  }
  /// The table, as the core sees it: only where it exists (object_count() or objects_since()).
  [[nodiscard]] object_table_base& existing_objects() const noexcept { return *objects_; }
  [[nodiscard]] std::size_t object_count() const noexcept { return objects_ ? objects_->size() : 0; }
  /// The number of type names tag 2 has defined so far in the value.
  [[nodiscard]] std::size_t type_name_count() const noexcept { return objects_ ? objects_->name_count() : 0; }
  /// Whether objects that only owning pointers hold (unique_ptr) go into the table: only where
  /// something of the value can refer to them (may_hold_identity of the value's type).
  [[nodiscard]] bool tracks_objects() const noexcept { return track_objects_; }
  void track_objects(bool track) noexcept { track_objects_ = track; }
  /// Counts one more object against read_options::max_objects, and its entry in the object
  /// table against the budget, reporting a refusal at `where`.
  [[nodiscard]] bool count_object(const std::byte* where) noexcept {
    if (objects_left_ == 0) [[unlikely]] {
      fail_at(errc::object_limit_exceeded, where);
      return false;
    }
    --objects_left_;
    return charge(where, 1, object_entry_cost);
  }
  /// What to do with a polymorphic object of a type this program has not registered.
  [[nodiscard]] unknown_type_policy unknown_types() const noexcept { return unknown_types_; }
  /// Ends one top-level value (object ids start afresh at the next): see object_table::release.
  /// A non-owning pointer to an object that nothing in the value owns fails it here.
  void end_value() noexcept {
    if (!objects_) return;
    if (moving_value_ != nullptr && !failed()) {
      if (const std::byte* at = objects_->pointing_into(moving_value_, moving_size_)) fail_at(errc::invalid_value, at);
    }
    moving_value_ = nullptr;
    if (const object_table_base::ending end = objects_->release(!failed(), max_depth_);
        end.code != errc::ok && !failed())
      fail_at(end.code, end.at);
  }
  /// The value being read (`size` bytes at `value`) is moved to the caller after the read: a
  /// non-owning pointer into it fails the value at end_value (it would point at the moved-from
  /// object).
  void value_moves(const void* value, std::size_t size) noexcept {
    moving_value_ = value;
    moving_size_ = size;
  }
  /// Where the object table is (what was read after it can be relocated or forgotten).
  [[nodiscard]] object_table_base::mark objects_mark() const noexcept {
    return objects_ ? objects_->position() : object_table_base::mark{};
  }
  /// Whether anything was entered in the object table since `m`.
  [[nodiscard]] bool objects_since(object_table_base::mark m) const noexcept {
    return objects_ && (objects_->size() > m.objects || objects_->record_count() > m.records);
  }

  /// True while the object being read was default-constructed just before (see struct_codec).
  bool fresh = true;
  /// Set by a base subobject whose data lacked fields (see struct_codec): its complete object
  /// reads again from defaults.
  bool base_missing = false;

  /// The virtual bases read so far in the complete objects being read (fields.hpp).
  [[nodiscard]] std::size_t virtual_base_count() const noexcept {
    return objects_ ? objects_->virtual_base_count() : 0;
  }
  void forget_virtual_bases(std::size_t mark) noexcept {
    if (objects_) objects_->forget_virtual_bases(mark);
  }

#if BIFRONS_ERROR_PATHS
  /// Where the read is (BIFRONS_ERROR_PATHS): the value being read, then for each struct the
  /// field being read, for each container the element. paths.hpp pushes and pops them.
  struct path_frame {
    std::string_view type;        // the value's type, or the element type
    std::string_view field_name;  // structs: the field being read (empty: a hook's, named by index)
    std::string_view field_type;
    std::size_t index = 0;        // the field's index, or the element's
    enum kind_t : std::uint8_t { root, structure, element } kind = root;
    bool in_field = false;
  };
  std::vector<path_frame> path_frames;
  /// The path and type where the first failure happened.
  std::string failure_path;
  std::string failure_type;
#endif

 private:
  static std::uint32_t saturate_missing(std::uint64_t n) noexcept {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(n, std::numeric_limits<std::uint32_t>::max()));
  }

  // The decoding is a static function of the cursor and the limit, apart from the source: when
  // GCC does not inline it into a flattened read (whether it does depends on the order in which
  // its early inliner meets the functions, which any change elsewhere can alter), the source's
  // address still does not escape, and the cursor stays in registers (docs/design.md).
  template <bool Wide = false>
  BIFRONS_INLINE std::uint64_t read_varint_slow() noexcept {
    const std::byte* const start = ptr_;
    const decoded_varint d = decode_varint_slow<Wide>(start, limit_);
    if (d.end > start) [[likely]] {
      ptr_ = d.end;
      return d.value;
    }
    if (d.end == start)
      fail_short(1);  // at least the next byte is missing
    else
      fail_at(errc::malformed_varint, start);
    return 0;
  }
  /// A varint's value and the byte after it; `end` is `start` when the input ends inside it,
  /// and null when it is malformed (not minimal, or longer than 64 bits).
  struct decoded_varint {
    const std::byte* end;
    std::uint64_t value;
  };
  /// The varint at start, when the one-byte fast path did not take it.
  template <bool Wide>
  static decoded_varint decode_varint_slow(const std::byte* const start, const std::byte* const limit) noexcept {
    // Two bytes (up to 16383) are common enough to come first: struct headers of bodies up to
    // 8 KiB, and the reference tags of the first sixteen thousand objects of a message.
    if (limit - start >= 2 && static_cast<std::uint8_t>(start[1]) < 0x80) {
      const word_varint w = two_byte_varint(start);
      return {w.canonical ? start + 2 : nullptr, w.value};
    }
    if (limit - start >= 8) {
      const std::uint64_t word = load_le<std::uint64_t>(start);
      const word_varint w = varint_in_word(word);
      if (w.length != 0) return {w.canonical ? start + w.length : nullptr, w.value};
      if constexpr (Wide) {
        if (limit - start >= 10) {
          const word_varint l = long_varint(start, word);
          return {l.canonical ? start + l.length : nullptr, l.value};
        }
      }
    }
    // Near the end of the input, or (not Wide) 9-10 bytes long.
    const std::byte* p = start;
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (p == limit) return {start, 0};
      const auto b = static_cast<std::uint8_t>(*p++);
      // The tenth byte may only hold the top bit of a 64-bit value.
      if (shift == 63 && b > 1) return {nullptr, 0};
      value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (b < 0x80) {
        if (b == 0 && shift != 0) return {nullptr, 0};
        return {p, value};
      }
    }
  }

#if BIFRONS_ERROR_PATHS
  /// Renders path_frames: the root's type, `.field` (or `.#index` for a hook's field) for each
  /// struct, `[index]` for each element. (Cannot throw: a read fails without allocating.)
  void capture_path() noexcept {
#if BIFRONS_HAS_EXCEPTIONS
    try {
#endif
      std::string path, type;
      for (const path_frame& f : path_frames) {
        switch (f.kind) {
          case path_frame::root:
            path.append(f.type);
            type.assign(f.type);
            break;
          case path_frame::structure:
            if (!f.in_field) break;
            path += '.';
            if (f.field_name.empty())
              path += '#' + std::to_string(f.index);
            else
              path.append(f.field_name);
            type.assign(f.field_type);
            break;
          case path_frame::element:
            path += '[' + std::to_string(f.index) + ']';
            type.assign(f.type);
            break;
        }
      }
      // libstdc++'s inline namespace says nothing to a reader.
      for (std::string* text : {&path, &type})
        for (std::size_t at; (at = text->find("__cxx11::")) != std::string::npos;) text->erase(at, 9);
      failure_path = std::move(path);
      failure_type = std::move(type);
#if BIFRONS_HAS_EXCEPTIONS
    } catch (...) {
      failure_path.clear();
      failure_type.clear();
    }
#endif
  }
#endif

  const std::byte* begin_;
  const std::byte* ptr_;
  const std::byte* limit_;
  const std::byte* end_;
  std::size_t depth_left_;
  std::size_t max_depth_;
  std::size_t budget_left_;
  std::size_t max_elements_;
  std::size_t max_bucket_size_;
  std::size_t objects_left_;
  unknown_type_policy unknown_types_;
  bool track_objects_ = true;
  const void* moving_value_ = nullptr;  // value_moves
  std::size_t moving_size_ = 0;
  // Owned by an object_table_owner: a destructor here cost every read of values without
  // pointers, even though the table never exists for them.
  object_table_base* objects_ = nullptr;

  friend class object_table_owner;
  errc error_ = errc::ok;
  std::uint32_t error_missing_ = 0;  // in the padding after error_
  std::size_t error_offset_ = 0;
};

/// Frees the object table of a source that may read pointers (read_all, reader): whoever
/// creates a source for such a type keeps one of these beside it. The table goes back to the
/// thread's spare, emptied, unless the thread has one or the table grew past
/// kept_object_table_bytes: a tree of a thousand shared objects then reads without growing the
/// table's vector again (eleven allocations and moves of up to 64 KiB per value).
class object_table_owner {
 public:
  explicit object_table_owner(source& in) noexcept : in_(in) {}
  object_table_owner(const object_table_owner&) = delete;
  object_table_owner& operator=(const object_table_owner&) = delete;
  ~object_table_owner() {
    if (object_table_base* table = std::exchange(in_.objects_, nullptr)) table->retire();
  }

 private:
  source& in_;
};

/// For a source that cannot read pointers: nothing to free.
struct no_object_table {
  explicit no_object_table(source&) noexcept {}
};

/// While it lives, source::fresh says whether the object being read was just default-constructed;
/// the enclosing object's value comes back when it goes out of scope. (struct_codec reads
/// missing fields over a reused object only when it is not fresh.)
class fresh_guard {
 public:
  fresh_guard(source& in, bool fresh) noexcept : in_(in), saved_(in.fresh) { in.fresh = fresh; }
  fresh_guard(const fresh_guard&) = delete;
  fresh_guard& operator=(const fresh_guard&) = delete;
  ~fresh_guard() { in_.fresh = saved_; }

 private:
  source& in_;
  bool saved_;
};

/// An element that a container reads into a temporary and then moves into place (the elements
/// of associative containers) or discards (deprecated<T>). The objects read inside it that the
/// object table locates by position (by-value objects with identity, the slots of owning raw
/// pointers) move with it (moved_to) or, if it dies unmoved, are forgotten
/// (object_table::forget). Declare it after the temporary, so that it acts before the
/// temporary's destructor runs.
class temporary_objects {
 public:
  explicit temporary_objects(source& in) noexcept : in_(in), mark_(in.objects_mark()), at_(in.position()) {}
  temporary_objects(const temporary_objects&) = delete;
  temporary_objects& operator=(const temporary_objects&) = delete;
  ~temporary_objects() {
    if (!moved_ && in_.objects_since(mark_)) in_.existing_objects().forget(mark_);
  }
  /// The temporary's bytes now live elsewhere: each range of it (its parts, for a pair whose
  /// halves a container stores as a pair of another type) at its destination. `moves`: the
  /// parts' types have move constructors that keep what they own out of line (see
  /// object_table::relocate); otherwise anything the table recorded there fails the read.
  void moved_to(std::initializer_list<object_table_base::moved_range> moved, bool moves) noexcept {
    if (in_.objects_since(mark_) && !in_.existing_objects().relocate(mark_, {moved.begin(), moved.size()}, moves) &&
        !in_.failed())
      in_.fail_at(errc::invalid_value, at_);
    moved_ = true;
  }

 private:
  source& in_;
  object_table_base::mark mark_;
  const std::byte* at_;  // where the temporary's encoding began
  bool moved_ = false;
};

/// Whether moving a T keeps in place what it owns out of line (a vector's elements): a move
/// constructor that cannot throw. A class with a destructor and no move constructor copies
/// instead, and its copy constructor, which allocates, can throw. (object_table::relocate)
template <class... T>
inline constexpr bool moves_in_place = (std::is_nothrow_move_constructible_v<T> && ...);

/// Around a load_and_construct hook: what it read into its locals dies with them
/// (object_table::end_hook_locals); a non-owning pointer it read to such an object fails the read.
class hook_locals {
 public:
  explicit hook_locals(source& in) noexcept
      : in_(in), mark_(in.objects_mark()), exceptions_(std::uncaught_exceptions()) {}
  hook_locals(const hook_locals&) = delete;
  hook_locals& operator=(const hook_locals&) = delete;
  ~hook_locals() {
    if (!in_.objects_since(mark_)) return;
    const bool threw = std::uncaught_exceptions() > exceptions_;
    if (const std::byte* at = in_.existing_objects().end_hook_locals(mark_, threw); at != nullptr && !in_.failed())
      in_.fail_at(errc::invalid_value, at);
  }

 private:
  source& in_;
  object_table_base::mark mark_;
  int exceptions_;
};

}  // namespace bifrons::detail
