// SPDX-License-Identifier: MIT
#pragma once
// The core API: to_bytes, from_bytes, try_from_bytes, serialized_size, plus user classes,
// scalars and the field helpers (fields.hpp). Standard containers live in bifrons/types/*.hpp (bifrons.hpp includes
// them all); streaming over containers and iostreams lives in bifrons/io.hpp.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "access.hpp"
#include "context.hpp"
#include "detail/codec.hpp"
#include "detail/creation.hpp"
#include "detail/pointer_traits.hpp"
#include "detail/scalars.hpp"
#include "detail/source.hpp"
#include "detail/struct_codec.hpp"
#include "error.hpp"
#include "fields.hpp"
#include "read_options.hpp"
#include "record.hpp"

namespace bifrons {
namespace detail {

template <class C>
concept byte_like = sizeof(C) == 1 &&
                    (std::is_same_v<C, std::byte> || std::is_same_v<C, char> || std::is_same_v<C, unsigned char> ||
                     std::is_same_v<C, signed char> || std::is_same_v<C, char8_t>);

/// Bytes in one block, with std::data and std::size: span<const std::byte>, string_view,
/// vector<char>, a C array, ...
template <class R>
concept byte_input = requires(const R& r) {
  { std::size(r) } -> std::convertible_to<std::size_t>;
  requires std::is_pointer_v<decltype(std::data(r))>;
  requires byte_like<std::remove_cv_t<std::remove_pointer_t<decltype(std::data(r))>>>;
};

/// A caller's resizable byte container: vector of std::byte/char/unsigned char, std::string.
template <class C>
concept byte_container = requires(C& c, std::size_t n) {
  c.resize(n);
  { c.data() } -> std::convertible_to<const void*>;
  { c.size() } -> std::convertible_to<std::size_t>;
} && byte_like<typename C::value_type>;

template <byte_input R>
std::span<const std::byte> input_bytes(const R& r) noexcept {
  return {reinterpret_cast<const std::byte*>(std::data(r)), std::size(r)};
}

/// Writes v into out, which has room for `bound` >= serialized_size(v) bytes (a bound from
/// size_bound_of, or the exact size), and returns the end of what it wrote.
template <class T>
std::byte* write_bounded(std::byte* out, [[maybe_unused]] std::size_t bound, const T& v) {
  if constexpr (struct_envelope<T>)
    return struct_codec<T>::write_bounded(out, v, bound);
  else
    return codec<T>::write(out, v);
}

/// Cuts a byte container back to n <= size() bytes (erase() where there is one: it is inlined,
/// where the shrinking branch of resize() is a call).
template <byte_container Container>
void truncate(Container& out, std::size_t n) noexcept {
  if constexpr (requires { out.erase(out.begin() + 1, out.end()); })
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(n), out.end());
  else
    out.resize(n);
}

/// What a byte container holds past its size without allocating (0 where it cannot say).
template <byte_container Container>
std::size_t spare_capacity(const Container& out) noexcept {
  if constexpr (requires { out.capacity(); })
    return out.capacity() - out.size();
  else
    return 0;
}

/// Makes room for `room` more bytes in out without writing to it, growing geometrically as
/// resize() does (an exact reserve() each time would make a writer that appends values one by
/// one quadratic). Past max_size(), reserve() throws std::length_error, as resize() would. If it
/// throws, out is unchanged.
template <byte_container Container>
BIFRONS_INLINE void reserve_more(Container& out, std::size_t room) {
  if constexpr (requires {
                  out.reserve(room);
                  out.capacity();
                  out.max_size();
                }) {
    const std::size_t size = out.size();
    if (room > out.capacity() - size) out.reserve(std::max(size + room, std::min(out.max_size(), 2 * out.capacity())));
  }
}

/// The byte types through which any object may be read (char, unsigned char, std::byte).
template <class C>
concept byte_alias = std::is_same_v<C, std::byte> || std::is_same_v<C, char> || std::is_same_v<C, unsigned char>;

/// A byte container that can make room without writing to it, and append a range of its bytes.
template <class C>
concept appendable_byte_container = byte_container<C> && byte_alias<typename C::value_type> &&
                                    requires(C& c, std::size_t n, const typename C::value_type* p) {
                                      c.reserve(n);
                                      { c.capacity() } -> std::convertible_to<std::size_t>;
                                      { c.max_size() } -> std::convertible_to<std::size_t>;
                                      c.insert(c.end(), p, p);
                                      c.push_back(*p);
                                    };

/// to_bytes for a raw_tail_codec: appends the head, then the tail, after making room for both at
/// most once (reserve, which unlike resize writes nothing), so that no byte is written twice.
template <class T, appendable_byte_container Container>
void append_head_and_tail(const T& value, Container& out) {
  using C = typename Container::value_type;
  std::byte head[max_head_size];
  const std::byte* head_end = codec<T>::write_head(head, value);
  const std::span<const std::byte> tail = codec<T>::tail(value);
  const auto head_size = static_cast<std::size_t>(head_end - head);
  // After this nothing allocates, so nothing throws. (The sum cannot wrap: the tail and out are
  // both in memory.)
  reserve_more(out, head_size + tail.size());
  // The head byte by byte: push_back is inlined where a second insert() is a call (at -O2).
  for (const std::byte* h = head; h != head_end; ++h) out.push_back(static_cast<C>(*h));
  const auto* t = reinterpret_cast<const C*>(tail.data());
  out.insert(out.end(), t, t + tail.size());
}

/// Messages whose size bound is at most this many bytes are written into a container in one
/// pass: it is resized to the bound and cut back to what was written. The bound costs a few
/// instructions where the exact size pass visits every field. Larger messages keep the exact
/// size pass, so that a loose bound never costs much memory...
inline constexpr std::size_t one_pass_bound = 4096;
/// ...unless the container has room for the bound already (it is being reused), up to this many
/// bytes: resize() then writes zeros over the bound, which touches no more memory than that.
inline constexpr std::size_t spare_pass_bound = std::size_t{1} << 20;

/// How a top-level value is written: the first pass gives the room to make (the cheap bound, or
/// the exact size), the second writes.
template <class T>
class write_passes {
 public:
  /// Into a fixed buffer.
  std::size_t room(const T& v) {
    const std::size_t bound = size_bound_of(v);
    return bound <= one_pass_bound ? bound : codec<T>::size(v);
  }
  /// Into a container: the bound also where the container has room for it already. Otherwise
  /// the container gets room for the bound, so that the next message like this one (into the
  /// same container, reused) takes one pass, when the bound is at most twice the exact size or
  /// the container is being reused (it had room for this message already): a fresh container
  /// written once keeps only the exact size, and a reused one pays for the loose bound once
  /// instead of an exact size pass per message.
  template <byte_container Container>
  std::size_t room(const T& v, Container& out) {
    const std::size_t bound = size_bound_of(v);
    if (bound <= one_pass_bound) return bound;
    return larger_room(v, out, bound);
  }

 private:
  template <byte_container Container>
  BIFRONS_COLD static std::size_t larger_room(const T& v, Container& out, std::size_t bound) {
    const std::size_t spare = spare_capacity(out);
    if (bound <= std::min(spare, spare_pass_bound)) return bound;
    const std::size_t size = codec<T>::size(v);
    if (bound <= spare_pass_bound && (bound / 2 <= size || spare >= size)) reserve_more(out, bound);
    return size;
  }

 public:
  static constexpr errc error() noexcept { return errc::ok; }
  std::byte* write(std::byte* out, std::size_t room, const T& v) { return write_bounded(out, room, v); }
};

/// A value that may hold pointers: the exact size pass decides every pointer's tag under a
/// write session (detail/write_session.hpp), and finds the values that cannot be written; the
/// write pass replays the tags.
template <class T>
  requires needs_write_session<T>
class write_passes<T> {
 public:
  std::size_t room(const T& v) {
    const std::size_t size = codec<T>::size(v);
    scope_.start_writing();
    return size;
  }
  template <class Container>
  std::size_t room(const T& v, Container&) {
    return room(v);
  }
  [[nodiscard]] errc error() noexcept { return scope_.error(); }
  std::byte* write(std::byte* out, std::size_t, const T& v) { return codec<T>::write(out, v); }

 private:
  session_scope scope_{may_hold_identity<T>()};
};

/// What read_all reads into: a value just default-constructed, or one that holds an earlier
/// value whose storage the read reuses (missing fields must then be reset), or a value just
/// default-constructed that the caller then moves (from_bytes<T> returns it by value): a
/// trivially copyable T has no move constructor to keep a pointer into itself, so such a read
/// fails when it holds one.
enum class object_state { fresh, reused, returned };

/// Sixteen bytes on 64-bit hosts, so that it comes back in two registers.
struct read_status {
  errc code;
  std::uint32_t bytes_missing;  // source::error_bytes_missing()
  std::size_t offset;
};

/// The what() of the exception being handled, or a note that it is not a std::exception.
inline std::string current_exception_message() {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
#else
  return {};
#endif
}

template <class T>
struct new_object {
  std::optional<T> value;
};

/// Reads into an existing object, or makes a new one in a new_object (creation.hpp).
template <class T>
void read_new(source& src, new_object<T>& out) {
  emplace_read<T>(src, [&](auto&&... a) -> T& { return out.value.emplace(std::forward<decltype(a)>(a)...); });
}
template <class Target>
struct value_type_of {
  using type = Target;
};
template <class T>
struct value_type_of<new_object<T>> {
  using type = T;
};

/// What read_all returns: the code and offset, and for values that may run hooks (may_hold_pointers
/// counts every class with a hook) the message of the exception a hook threw, when the caller
/// keeps it (try_from_bytes).
template <class T>
struct read_outcome : read_status {
#if BIFRONS_ERROR_PATHS
  std::string path, type;  // where the read failed
#endif
};
template <class T>
  requires(may_hold_pointers<T>())
struct read_outcome<T> : read_status {
  std::string hook_message;
#if BIFRONS_ERROR_PATHS
  std::string path, type;
#endif
};

/// Runs read(), a read of src that may run user code, and sorts what it throws: std::bad_alloc
/// goes to out_of_memory() (which rethrows or records it) and bifrons::error goes on. Any other
/// exception fails the read with user_error and goes to user_exception() (which rethrows it or
/// keeps its message), unless the read had failed before with another code: then the exception is
/// a consequence of that failure (a hook refusing the defaults of fields that were never read),
/// and that error is reported. Both handlers run inside the catch, where `throw;` rethrows.
/// (from_bytes, try_from_bytes and reader::read all sort exceptions here.)
template <class Read, class OutOfMemory, class UserException>
BIFRONS_INLINE void read_sorting_exceptions([[maybe_unused]] source& src, Read&& read,
                                            [[maybe_unused]] OutOfMemory&& out_of_memory,
                                            [[maybe_unused]] UserException&& user_exception) {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    read();
  } catch (const std::bad_alloc&) {
    out_of_memory();
  } catch (const error&) {
    throw;
  } catch (...) {
    if (!src.failed() || src.error() == errc::user_error) {
      if (!src.failed()) src.fail(errc::user_error);
      user_exception();
    }
  }
#else
  read();
#endif
}

/// Reads into `out` (a T, or a new_object<T>) and handles what user code throws: see read_all.
template <bool KeepHookMessage, class Target, class Outcome>
void read_catching(source& src, Target& out, [[maybe_unused]] Outcome& outcome) {
  read_sorting_exceptions(
      src,
      [&]() BIFRONS_INLINE_LAMBDA {
        if constexpr (!std::is_same_v<Target, typename value_type_of<Target>::type>)
          read_new(src, out);
        else
          codec<Target>::read(src, out);
      },
      [] { rethrow(); },
      [&] {
        if constexpr (!KeepHookMessage)
          rethrow();
        else
          outcome.hook_message = current_exception_message();
      });
}

/// Reads one top-level T into `out`, an existing object or a new_object<T> that creation.hpp
/// makes; the input must hold exactly that value.
///
/// Values that may run user code (hooks; may_hold_pointers counts every class with a hook) catch
/// what it throws here, where the source is still at hand: an exception that follows an error
/// the read had already found is a consequence of it (a hook refusing the defaults of fields
/// that were never read), so that error is reported; any other one fails the read with
/// user_error at the struct whose hook threw, and goes on to the caller (from_bytes), or has its
/// message kept in the outcome (KeepHookMessage: try_from_bytes). std::bad_alloc and
/// bifrons::error go on unchanged.
//
// Flattened: with every codec inlined into one function, the cursor is a local whose address
// never escapes, so it can live in registers instead of being reloaded after each store into
// the object being read (stores through char* may alias anything).
//
// (The choice to keep a hook's message is a template argument: a parameter of its own, even an
// empty one, cost the flattened read of values without hooks.)
template <class Target, bool KeepHookMessage = false, class T = typename value_type_of<Target>::type>
BIFRONS_FLATTEN read_outcome<T> read_all(std::span<const std::byte> in, Target& out, const read_options& options,
                                         object_state state) {
  read_outcome<T> outcome{};
  source src(in.data(), in.size(), options);
  [[maybe_unused]] std::conditional_t<may_hold_pointers<T>(), object_table_owner, no_object_table> objects(src);
  src.track_objects(may_hold_identity<T>());
  src.fresh = state != object_state::reused;
  // A value returned by value moves by its own move constructor, which keeps its pointers into
  // itself where it must (as any move of such a type must); a trivially copyable T has none, and
  // may come back in registers, so no compiler builds it in place.
  if constexpr (may_hold_pointers<T>() && std::is_trivially_copyable_v<T>) {
    if (state == object_state::returned) src.value_moves(std::addressof(out), sizeof(Target));
  }
  [[maybe_unused]] auto path = root_path<T>(src);
  if constexpr (may_hold_pointers<T>())
    read_catching<KeepHookMessage>(src, out, outcome);
  else if constexpr (std::is_same_v<Target, T>)
    codec<T>::read(src, out);
  else
    read_new(src, out);
  if (!src.failed() && !src.at_limit()) src.fail(errc::trailing_bytes);
  if constexpr (may_hold_pointers<T>()) src.end_value();
  outcome.code = src.error();
  outcome.bytes_missing = src.error_bytes_missing();
  outcome.offset = src.error_offset();
#if BIFRONS_ERROR_PATHS
  outcome.path = std::move(src.failure_path);
  outcome.type = std::move(src.failure_type);
#endif
  return outcome;
}

/// read_all, with the allocator's std::bad_alloc turned into
/// errc::out_of_memory; exceptions from user hooks pass through. Counts are checked against the
/// budget and against each container's max_size() before anything is allocated, so running out
/// of memory is the one way a library allocation can still fail. Its offset is 0: tracking where
/// the allocator gave up would keep the read cursor in memory on the hot path. (A plain
/// function: GCC did not optimize a lambda wrapped in the try as well.)
template <class Target, bool KeepHookMessage = false, class T = typename value_type_of<Target>::type>
BIFRONS_INLINE read_outcome<T> read_all_or_out_of_memory(std::span<const std::byte> in, Target& out,
                                                         const read_options& options, object_state state) {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return read_all<Target, KeepHookMessage>(in, out, options, state);
  } catch (const std::bad_alloc&) {
    read_outcome<T> outcome{};
    outcome.code = errc::out_of_memory;
    return outcome;
  }
#else
  return read_all<Target, KeepHookMessage>(in, out, options, state);
#endif
}

/// Whether T's codec can read a whole input without a source (read_whole_input).
template <class T>
concept reads_whole_input = requires(std::span<const std::byte> in, T& out, const read_options& options) {
  codec<T>::read_whole(in, out, options, true);
};

/// from_bytes of a value whose codec reads a whole input without a source (read_whole: vectors of
/// numbers, strings): true when it did. Not for strict reading, which compares bytes. The
/// allocator's std::bad_alloc is errc::out_of_memory at offset 0, as read_all reports it. (A
/// plain try, as in read_all_or_out_of_memory: it is on the hot path of short reads.)
template <class T>
BIFRONS_INLINE bool read_whole_input(std::span<const std::byte> in, T& out, const read_options& options,
                                     object_state state) {
  if constexpr (reads_whole_input<T>) {
    if (options.canonical_only) return false;
    const bool fresh = state != object_state::reused;
#if BIFRONS_HAS_EXCEPTIONS
    try {
      return codec<T>::read_whole(in, out, options, fresh);
    } catch (const std::bad_alloc&) {
      raise(errc::out_of_memory, 0);
    }
#else
    return codec<T>::read_whole(in, out, options, fresh);
#endif
  } else {
    (void)in, (void)out, (void)options, (void)state;
    return false;
  }
}

/// Strict reading (read_options::canonical_only): ok if the input is exactly the encoding of the
/// value read from it; otherwise non_canonical at the first byte that differs, or where the
/// shorter of the two ends. The value is encoded once more, into a buffer of its own.
template <class T>
read_status encoding_differs(std::span<const std::byte> in, const T& value) {
  write_passes<T> passes;
  const std::size_t room = passes.room(value);
  // A value just read that cannot be written (a pointer the writer refuses) has no canonical bytes.
  if (passes.error() != errc::ok) return {errc::non_canonical, 0, 0};
  std::vector<std::byte> encoding(room);
  encoding.resize(static_cast<std::size_t>(passes.write(encoding.data(), room, value) - encoding.data()));
  const auto differs = std::mismatch(in.begin(), in.end(), encoding.begin(), encoding.end()).first;
  if (differs == in.end() && encoding.size() == in.size()) return {errc::ok, 0, 0};
  return {errc::non_canonical, 0, static_cast<std::size_t>(differs - in.begin())};
}

/// encoding_differs, with the allocator's std::bad_alloc as errc::out_of_memory (as a read has it).
template <class T>
read_status compare_with_encoding(std::span<const std::byte> in, const T& value) {
  return or_if_out_of_memory([&] { return encoding_differs(in, value); },
                             [] { return read_status{errc::out_of_memory, 0, 0}; });
}

/// A read with read_options::canonical_only: read_all, then the comparison with the value's
/// encoding. Out of line, and chosen before the read starts, so that reads without it pay one test
/// of the flag.
template <bool KeepHookMessage = false, class Target, class T = typename value_type_of<Target>::type>
BIFRONS_COLD read_outcome<T> read_canonical(std::span<const std::byte> in, Target& out, const read_options& options,
                                            object_state state) {
  read_outcome<T> outcome = read_all_or_out_of_memory<Target, KeepHookMessage>(in, out, options, state);
  if (outcome.code != errc::ok) return outcome;
  if constexpr (std::is_same_v<Target, T>)
    static_cast<read_status&>(outcome) = compare_with_encoding(in, out);
  else
    static_cast<read_status&>(outcome) = compare_with_encoding(in, *out.value);
  return outcome;
}

/// Runs f, turning exceptions from user code and allocators into error codes.
template <class F>
read_status guarded(F&& f) noexcept {
#if BIFRONS_HAS_EXCEPTIONS
  try {
    return f();
  } catch (const error& e) {
    return {e.code(), static_cast<std::uint32_t>(std::min<std::size_t>(e.bytes_missing(), std::uint32_t(-1))),
            e.offset()};
  } catch (const std::bad_alloc&) {
    return {errc::out_of_memory, 0, 0};
  } catch (...) {
    return {errc::user_error, 0, 0};
  }
#else
  return f();
#endif
}

/// The details of a failure for a result: the message of a hook's exception (none if there is
/// no memory left to hold them).
inline std::shared_ptr<const failure_details> make_details(const std::string& message, const std::string& path = {},
                                                           const std::string& type = {}) noexcept {
  if (message.empty() && path.empty() && type.empty()) return nullptr;
  return or_if_throws([&] { return std::make_shared<const failure_details>(failure_details{message, path, type}); },
                      [] { return std::shared_ptr<const failure_details>(); });
}
template <class T>
std::shared_ptr<const failure_details> details_of(const read_outcome<T>& outcome) noexcept {
  std::string none;
  const std::string& message = [&]() -> const std::string& {
    if constexpr (requires { outcome.hook_message; })
      return outcome.hook_message;
    else
      return none;
  }();
#if BIFRONS_ERROR_PATHS
  return make_details(message, outcome.path, outcome.type);
#else
  return make_details(message);
#endif
}
/// Throws the error a failed read_all reports (with where it failed, under BIFRONS_ERROR_PATHS).
template <class T>
[[noreturn]] void raise(const read_outcome<T>& outcome) {
#if BIFRONS_ERROR_PATHS
  raise(outcome.code, outcome.offset, outcome.bytes_missing, details_of(outcome));
#else
  raise(outcome.code, outcome.offset, outcome.bytes_missing);
#endif
}

/// Inside a handler: the details of the exception being handled.
inline std::shared_ptr<const failure_details> hook_exception_details() noexcept {
  return or_if_throws([] { return make_details(current_exception_message()); },
                      [] { return std::shared_ptr<const failure_details>(); });
}

/// The read of from_bytes, past the whole-input path: read_all (or the strict read) into target,
/// which is the value or a new_object, and its error raised.
template <class Target>
BIFRONS_INLINE void read_or_raise(std::span<const std::byte> in, Target& target, const read_options& options,
                                  object_state state) {
  const auto status = options.canonical_only ? read_canonical(in, target, options, state)
                                             : read_all_or_out_of_memory(in, target, options, state);
  if (status.code != errc::ok) [[unlikely]]
    raise(status);
}
/// The same into a reused object, out of line, behind a whole-input path: inline, it made that
/// path set up the frame and the six saved registers of the general read before it copied
/// anything.
template <class T>
[[gnu::noinline]] void read_reused_out_of_line(std::span<const std::byte> in, T& out, const read_options& options) {
  read_or_raise(in, out, options, object_state::reused);
}

}  // namespace detail

/// The exact number of bytes to_bytes(value) writes. Does not allocate, unless value holds
/// pointers (their identities are tracked in a hash table). Throws bifrons::error where
/// to_bytes would: a value with pointers that cannot be written (docs/format.md, "Pointers").
template <class T>
[[nodiscard]] std::size_t serialized_size(const T& value) {
  if constexpr (detail::needs_write_session<T>) {
    detail::session_scope scope(detail::may_hold_identity<T>());
    const std::size_t size = codec<T>::size(value);
    scope.end_size_pass();
    if (scope.error() != errc::ok) detail::raise(scope.error(), 0);
    return size;
  } else {
    return codec<T>::size(value);
  }
}

/// An upper bound on serialized_size(value) that costs less to compute: a constant where the
/// encoding has a largest size (a struct of numbers, enums and char arrays), else a sum in which
/// each varint counts at its widest; the exact size for values that hold pointers, and for
/// classes whose hooks write (their fields are only known by running them). A buffer of at least
/// this many bytes takes try_to_bytes and to_bytes(value, span) on their one-pass path: no exact
/// size pass and no copy from scratch space. Sizing a reused buffer by it, rather than by the
/// size a previous write needed, is what keeps that path for every later message.
template <class T>
[[nodiscard]] std::size_t size_bound(const T& value) {
  if constexpr (detail::needs_write_session<T>)
    return serialized_size(value);
  else
    return detail::size_bound_of(value);
}

/// Appends the encoding of value to out (a vector of bytes or chars, or a std::string).
/// One resize per call: reusing out does not reallocate once its capacity suffices.
/// A value with pointers that cannot be written faithfully (docs/format.md, "Pointers") throws
/// bifrons::error with its code (unwritten_pointee, ownership_conflict, ownership_cycle,
/// depth_limit_exceeded) and offset 0, before out is touched.
/// Exception safety: strong for out's existing contents, if resize or a user save hook throws.
template <class T, detail::byte_container Container>
void to_bytes(const T& value, Container& out) {
  if constexpr (detail::raw_tail_codec<T> && detail::appendable_byte_container<Container>) {
    detail::append_head_and_tail(value, out);
    return;
  }
  const std::size_t old = out.size();
  detail::write_passes<T> passes;
  // One resize call site only: with two, GCC stopped inlining vector::resize.
  const std::size_t room = passes.room(value, out);
  if (passes.error() != errc::ok) [[unlikely]]
    detail::raise(passes.error(), 0);
  out.resize(old + room);
  std::byte* begin = reinterpret_cast<std::byte*>(out.data()) + old;
#if BIFRONS_HAS_EXCEPTIONS
  std::size_t written;
  try {
    written = static_cast<std::size_t>(passes.write(begin, room, value) - begin);
  } catch (...) {
    detail::truncate(out, old);
    throw;
  }
#else
  const auto written = static_cast<std::size_t>(passes.write(begin, room, value) - begin);
#endif
  if (written != room) detail::truncate(out, old + written);
}

/// The encoding of value in a new vector.
template <class T>
[[nodiscard]] std::vector<std::byte> to_bytes(const T& value) {
  std::vector<std::byte> out;
  to_bytes(value, out);
  return out;
}

namespace detail {
/// The largest size bound of a message that write_into writes on the stack, when the caller's
/// buffer is smaller than the bound.
inline constexpr std::size_t scratch_write_bound = 1024;
/// Writes value into a fixed buffer: the bytes used, or, when it does not fit, the size needed.
struct fixed_write {
  std::size_t size;
  bool fits;
  errc error = errc::ok;  // a value with pointers that cannot be written
};
template <class T>
fixed_write write_into_general(const T& value, std::span<std::byte> buffer) {
  static_assert(!raw_tail_codec<T>, "bifrons: internal: write_into writes a head and a tail of bytes itself");
  if constexpr (needs_write_session<T>) {
    write_passes<T> passes;
    const std::size_t size = passes.room(value);
    if (passes.error() != errc::ok) return {0, false, passes.error()};
    if (size > buffer.size()) return {size, false};
    return {static_cast<std::size_t>(passes.write(buffer.data(), size, value) - buffer.data()), true};
  } else {
    if constexpr (struct_envelope<T> && reflected<T>) {
      // A struct's header width follows from its body's bound: not found again from the total.
      // (Nested: the condition names struct_codec<T>, which only a struct may instantiate.)
      if constexpr (!struct_codec<T>::short_body) {
        const std::size_t body = struct_codec<T>::body_bound(value);
        const std::size_t room = varint_size(struct_codec<T>::header(body));
        if (room + body <= buffer.size()) [[likely]]
          return {static_cast<std::size_t>(struct_codec<T>::write_in_room(buffer.data(), value, room) - buffer.data()),
                  true};
      }
    }
    // When even the (cheap) bound fits, write without the exact size pass.
    const std::size_t bound = size_bound_of(value);
    if (bound <= buffer.size())
      return {static_cast<std::size_t>(write_bounded(buffer.data(), bound, value) - buffer.data()), true};
    // A small message into a buffer smaller than its bound (one sized to the message, reused):
    // written on the stack and copied, which costs less than the exact size pass
    // (docs/design.md). (A head and a tail of bytes, whose bound is its size, never gets here.)
    if (bound <= scratch_write_bound) {
      std::byte scratch[scratch_write_bound];
      const auto size = static_cast<std::size_t>(write_bounded(scratch, bound, value) - scratch);
      if (size > buffer.size()) return {size, false};
      copy_bytes(buffer.data(), scratch, size);
      return {size, true};
    }
    const std::size_t size = codec<T>::size(value);
    if (size > buffer.size()) return {size, false};
    return {static_cast<std::size_t>(write_bounded(buffer.data(), size, value) - buffer.data()), true};
  }
}
/// Writes value into a caller's buffer (try_to_bytes, to_bytes(value, span)). A head and a tail of
/// bytes (a vector of numbers, a string), whose size bound is its exact size, is written in line:
/// the call to write_into_general was a third of a short write at -O2 (GCC inlines it at -O3).
/// Forcing write_into_general itself in line instead cost structs. try_to_bytes and
/// to_bytes(value, span) are in line as well: once this grew, GCC stopped inlining try_to_bytes
/// at -O2, and its result, which holds a shared_ptr, went through memory.
template <class T>
BIFRONS_INLINE fixed_write write_into(const T& value, std::span<std::byte> buffer) {
  if constexpr (raw_tail_codec<T>) {
    const std::size_t size = size_bound_of(value);
    if (size > buffer.size()) return {size, false};
    return {static_cast<std::size_t>(write_bounded(buffer.data(), size, value) - buffer.data()), true};
  } else {
    return write_into_general(value, buffer);
  }
}
}  // namespace detail

/// Writes the encoding of value into a caller's fixed buffer and returns the bytes used.
/// If it does not fit, returns an error with code buffer_too_small (offset: the size needed)
/// and writes nothing. Bytes of buffer past the returned size may be overwritten: a message is
/// written in one pass when its cheap size bound fits, and then moved back into place.
/// An exception from a user save hook becomes errc::user_error (offset 0), with its message in
/// result::message().
template <class T>
[[nodiscard]] BIFRONS_INLINE result<std::size_t> try_to_bytes(const T& value, std::span<std::byte> buffer) noexcept {
  detail::fixed_write w{};
#if BIFRONS_HAS_EXCEPTIONS
  try {
    w = detail::write_into(value, buffer);
  } catch (...) {
    return {errc::user_error, 0, 0, detail::hook_exception_details()};
  }
#else
  w = detail::write_into(value, buffer);
#endif
  if constexpr (detail::needs_write_session<T>) {
    if (w.error != errc::ok) return detail::result_access::failed<std::size_t>(w.error, 0);
  }
  if (!w.fits) return {errc::buffer_too_small, w.size};
  return w.size;
}

/// Throwing form of try_to_bytes: bifrons::error with code buffer_too_small when it does not fit;
/// exceptions from user save hooks pass through.
template <class T>
BIFRONS_INLINE std::size_t to_bytes(const T& value, std::span<std::byte> buffer) {
  const detail::fixed_write w = detail::write_into(value, buffer);
  if constexpr (detail::needs_write_session<T>) {
    if (w.error != errc::ok) detail::raise(w.error, 0);
  }
  if (!w.fits) detail::raise(errc::buffer_too_small, w.size);
  return w.size;
}

/// Reads a T from bytes, which must hold exactly one value. Throws bifrons::error on failure,
/// also when the allocator runs out of memory (errc::out_of_memory); an exception thrown by a
/// user hook or constructor passes through as it is (unless the read had failed before it: then
/// bifrons::error for that failure). Fields that the data lacks (written by an older version)
/// keep their default values. With options.canonical_only, bytes other than the value's own
/// encoding fail with non_canonical. A T without a public default constructor is made as
/// docs/api.md says (load_and_construct, a private constructor for bifrons::access, ...), and
/// must be movable.
template <class T, detail::byte_input Bytes>
  requires detail::default_created<T>
[[nodiscard]] T from_bytes(const Bytes& bytes, const read_options& options = detail::default_read_options) {
  const std::span<const std::byte> in = detail::input_bytes(bytes);
  // One return of one named value: the compiler builds it in the caller's storage instead of
  // moving it, and a non-owning pointer read into the value may point into the value itself.
  T value{};
  if (!detail::read_whole_input(in, value, options, detail::object_state::returned))
    detail::read_or_raise(in, value, options, detail::object_state::returned);
  return value;
}
template <class T, detail::byte_input Bytes>
  requires(!detail::default_created<T>)
[[nodiscard]] T from_bytes(const Bytes& bytes, const read_options& options = detail::default_read_options) {
  detail::new_object<T> made;
  detail::read_or_raise(detail::input_bytes(bytes), made, options, detail::object_state::returned);
  return std::move(*made.value);
}

/// Reads into an existing object, reusing its storage. The result equals from_bytes<T>(bytes).
/// Throws as from_bytes<T>. Exception safety: basic: on failure out is valid but unspecified.
template <class T, detail::byte_input Bytes>
BIFRONS_INLINE void from_bytes(const Bytes& bytes, T& out, const read_options& options = detail::default_read_options) {
  const std::span<const std::byte> in = detail::input_bytes(bytes);
  if constexpr (detail::reads_whole_input<T>) {
    if (detail::read_whole_input(in, out, options, detail::object_state::reused)) return;
    detail::read_reused_out_of_line(in, out, options);
  } else {
    detail::read_or_raise(in, out, options, detail::object_state::reused);
  }
}

namespace detail {
/// try_from_bytes' read of a T that may hold pointers: into the result that is returned, where the
/// value stays (a non-owning pointer read into it may point into the value itself). One named
/// result at the function's outermost scope, returned on every path: GCC 12 elides the move only
/// then (tests/pointer_safety_test.cpp checks that it did).
template <class T, class ReadInto, class Outcome>
result<T> read_into_result(ReadInto& read_into, Outcome& outcome) {
  result<T> out{T{}};
  const auto status = read_into(*result_access::value(out));
  if (status.code != errc::ok)
    result_access::fail(out, status.code, status.offset, status.bytes_missing, details_of(outcome));
  return out;
}
}  // namespace detail

/// Non-throwing from_bytes: the value, or the error code and offset. Works with -fno-exceptions.
/// An exception from a user hook becomes errc::user_error at the struct whose hook threw, with
/// its message in result::message(); std::bad_alloc becomes errc::out_of_memory.
template <class T, detail::byte_input Bytes>
[[nodiscard]] result<T> try_from_bytes(const Bytes& bytes,
                                       const read_options& options = detail::default_read_options) noexcept {
  using detail::object_state;
  const auto in = detail::input_bytes(bytes);
  if constexpr (detail::default_created<T> && !detail::may_hold_pointers<T>() && !BIFRONS_ERROR_PATHS) {
    T value{};
    const auto status = detail::guarded([&]() -> detail::read_status {
      if (options.canonical_only) [[unlikely]]
        return detail::read_canonical(in, value, options, object_state::fresh);
      return detail::read_all(in, value, options, object_state::fresh);
    });
    if (status.code != errc::ok)
      return detail::result_access::failed<T>(status.code, status.offset, status.bytes_missing);
    return result<T>(std::move(value));
  } else {
    // Types that may hold pointers keep a hook's message (read_all<.., true>), and so do reads
    // that report where they failed.
    detail::read_outcome<T> outcome{};
    auto read_into = [&](auto& target, object_state state = object_state::fresh) {
      return detail::guarded([&] {
        outcome = options.canonical_only
                      ? detail::read_canonical<true>(in, target, options, state)
                      : detail::read_all<std::remove_reference_t<decltype(target)>, true>(in, target, options, state);
        return static_cast<const detail::read_status&>(outcome);
      });
    };
    if constexpr (detail::default_created<T>) {
      return detail::read_into_result<T>(read_into, outcome);
    } else {
      detail::new_object<T> made;
      const auto status = read_into(made, object_state::returned);
      if (status.code != errc::ok)
        return detail::result_access::failed<T>(status.code, status.offset, status.bytes_missing,
                                                detail::details_of(outcome));
      return result<T>(std::move(*made.value));
    }
  }
}

}  // namespace bifrons

// BIFRONS_REGISTER is polymorphic.hpp's (the headers of pointers include it). Without it, one
// error that names it.
#ifndef BIFRONS_REGISTER
#define BIFRONS_DETAIL_REGISTER_REFUSAL \
  "bifrons: BIFRONS_REGISTER needs #include <bifrons/polymorphic.hpp> (or <bifrons/bifrons.hpp>)"
#define BIFRONS_REGISTER(...) static_assert(false, BIFRONS_DETAIL_REGISTER_REFUSAL)
#endif
