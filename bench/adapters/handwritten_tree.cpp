// handwritten_tree: the unique_ptr tree written by hand, as a floor for the libraries' tree
// decodes. Not a serialization library. Preorder, fixed little-endian layout, nothing else:
//
//   tree = 0 | 1 value:i32 left:tree right:tree
//
// Decoding allocates every node with new, as any reader of a unique_ptr tree must, and checks
// every byte against the end; what it takes is the floor under every library's tree decode.
// (It is an adapter of its own, not part of `handwritten`: added there, it moved the code of
// that adapter's Account benchmarks and their times with it, 9.5 -> 12.1 ns to serialize.)
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../harness/harness.hpp"

namespace {

using bench::model::UniqueNode;

[[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("handwritten_tree: ") + what); }

// Deeper than any tree of the benchmark; a bound, so that no input recurses without end.
constexpr int max_depth = 64;

std::size_t encoded_size(const UniqueNode* tree) {
  return tree == nullptr ? 1 : 1 + 4 + encoded_size(tree->left.get()) + encoded_size(tree->right.get());
}

std::byte* write(const UniqueNode* tree, std::byte* out) {
  if (tree == nullptr) {
    *out = std::byte{0};
    return out + 1;
  }
  *out++ = std::byte{1};
  const auto value = static_cast<std::uint32_t>(tree->value);
  for (int k = 0; k < 4; ++k) *out++ = static_cast<std::byte>(value >> (8 * k));
  return write(tree->right.get(), write(tree->left.get(), out));
}

const std::byte* read(const std::byte* p, const std::byte* end, std::unique_ptr<UniqueNode>& out, int depth) {
  if (p == end) fail("truncated input");
  if (*p == std::byte{0}) {
    out.reset();
    return p + 1;
  }
  if (*p != std::byte{1}) fail("bad node tag");
  if (end - p < 5) fail("truncated input");
  if (depth == max_depth) fail("tree too deep");
  auto node = std::make_unique<UniqueNode>();
  std::uint32_t value = 0;
  for (int k = 0; k < 4; ++k) value |= std::uint32_t(std::to_integer<std::uint8_t>(p[1 + k])) << (8 * k);
  node->value = static_cast<std::int32_t>(value);
  p = read(read(p + 5, end, node->left, depth + 1), end, node->right, depth + 1);
  out = std::move(node);
  return p;
}

struct handwritten_tree_adapter {
  static constexpr std::string_view name = "handwritten_tree";

  std::vector<std::byte> buffer;  // grows once, then reused

  bench::bytes_view encode(const std::unique_ptr<UniqueNode>& tree) {
    const std::size_t size = encoded_size(tree.get());
    if (buffer.size() < size) buffer.resize(size);
    write(tree.get(), buffer.data());
    return {buffer.data(), size};
  }

  std::size_t encode_into(const std::unique_ptr<UniqueNode>& tree, std::span<std::byte> out) {
    const std::size_t size = encoded_size(tree.get());
    if (out.size() < size) fail("buffer too small");
    write(tree.get(), out.data());
    return size;
  }

  void decode(bench::bytes_view in, std::unique_ptr<UniqueNode>& tree) {
    const std::byte* const end = in.data() + in.size();
    if (read(in.data(), end, tree, 0) != end) fail("trailing bytes");
  }

  static std::string_view unsupported_reason(std::string_view) { return "baseline for the unique_ptr tree only"; }
};

}  // namespace

BENCH_ADAPTER(handwritten_tree_adapter);
