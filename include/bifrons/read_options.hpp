// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>

namespace bifrons {

/// What a read does with a polymorphic object whose type name this program has not registered
/// (a newer writer's derived class): the object's encoding is length-prefixed, so it can be
/// skipped either way.
enum class unknown_type_policy : unsigned char {
  fail,  ///< the read fails with errc::unknown_type at the pointer
  null,  ///< the pointer reads as null, and so do references to the skipped object
};

/// Limits for reading untrusted input. Every limit is finite by default; going past one is
/// a clean error, never a crash or an unbounded allocation.
///
/// The defaults follow the hostile-input practice of the trusted libraries: Cap'n Proto reads
/// with nesting 64, protobuf with recursion depth 100, both with finite traversal budgets.
struct read_options {
  /// Nesting of structs (every type that can recurse does so through a struct; following a
  /// pointer adds no level of its own).
  std::size_t max_depth = 64;
  /// Total bytes the read may allocate: container and string storage, the nodes of node-based
  /// containers and the bucket arrays of hash tables, each estimated from the element's
  /// sizeof and the pointers a node holds, and each pointer's object. A bifrons::reader over
  /// a std::istream also charges the bytes it buffers. See docs/format.md, "Reader limits".
  std::size_t max_alloc_bytes = std::size_t{256} << 20;
  /// Elements in any one container (also charged for elements that take no input bytes).
  std::size_t max_elements = std::size_t{64} << 20;
  /// Keys in any one bucket of a std::unordered_set or std::unordered_map. Keys that collide
  /// in the hash make each insertion scan the whole bucket, so without this limit a few
  /// hundred kilobytes of chosen keys cost seconds of work (hash flooding). With a decent hash
  /// and the load factor of 1 the reader sets up, a bucket of more than a dozen keys is
  /// practically never seen. Multisets and multimaps are not checked: equal keys share a
  /// bucket legitimately (see SECURITY.md).
  std::size_t max_bucket_size = 64;
  /// Objects in one value that pointers or identity give an id (docs/format.md, "Pointers"):
  /// each costs an entry in the reader's object table besides its own storage.
  std::size_t max_objects = std::size_t{1} << 20;
  /// Polymorphic objects of types this program has not registered (docs/format.md, "Pointers").
  unknown_type_policy unknown_types = unknown_type_policy::fail;
  /// Strict reading: refuse input that is not exactly the bytes a writer produces for the value
  /// read (errc::non_canonical, at the first byte that differs), for callers that compare, hash or
  /// sign bytes. Readers otherwise accept other spellings of a value: sets and maps in any order,
  /// struct bodies with bytes they skip or without trailing fields, a version on a class without
  /// one, anything inside deprecated<T> (docs/format.md, sections 1 and 34). A value holding an
  /// unordered container of two or more elements, or a priority_queue, has no canonical bytes and
  /// is refused in most orders. Costs one encoding of the value read; nothing when off.
  bool canonical_only = false;
};

namespace detail {
/// The options of a read that is given none. A default argument of `{}` built the 48-byte struct
/// on the caller's stack at every call; this one is built once, at compile time.
inline constexpr read_options default_read_options{};
}  // namespace detail

}  // namespace bifrons
