#pragma once
#include <cstddef>

namespace bifrons {

/// Limits for reading untrusted input. Every limit is finite by default; going past one is
/// a clean error, never a crash or an unbounded allocation.
///
/// The defaults follow the hostile-input practice of the trusted libraries: Cap'n Proto reads
/// with nesting 64, protobuf with recursion depth 100, both with finite traversal budgets.
struct read_options {
  /// Nesting of structs and pointers (the only ways a type can recurse).
  std::size_t max_depth = 64;
  /// Total bytes the read may allocate for container, string and pointer storage, counted
  /// as element count x sizeof(element) (allocator overhead is not counted).
  std::size_t max_alloc_bytes = std::size_t{256} << 20;
  /// Elements in any one container (also charged for elements that take no input bytes).
  std::size_t max_elements = std::size_t{64} << 20;
};

}  // namespace bifrons
