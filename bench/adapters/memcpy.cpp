// memcpy: the speed limit for the bulk cases. Not a serialization library:
// it copies a 64-bit element count and the elements' bytes as they are in
// memory (so its output is only readable on a host with the same layout).
//
// Only the flat arrays, the string and the record arrays are supported:
// vector_int32, vector_float, vector_integer_class_* (cereal_fwd), string,
// vector_int, vector_double (survey). IntegerClass is ten int32s with no
// padding, so its bytes in memory are exactly its fields.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../harness/harness.hpp"

namespace {

using bench::model::IntegerClass;
static_assert(std::is_trivially_copyable_v<IntegerClass> && sizeof(IntegerClass) == 10 * sizeof(std::int32_t),
              "the memcpy baseline copies IntegerClass as raw bytes: trivially copyable, no padding");

template <class T>
concept bulk = std::is_same_v<T, std::vector<std::int32_t>> || std::is_same_v<T, std::vector<float>> ||
               std::is_same_v<T, std::vector<int>> || std::is_same_v<T, std::vector<double>> ||
               std::is_same_v<T, std::vector<IntegerClass>> || std::is_same_v<T, std::string>;

struct memcpy_adapter {
  static constexpr std::string_view name = "memcpy";

  std::vector<std::byte> buffer;  // grows once, then reused

  template <class T>
    requires bulk<T>
  static std::size_t encoded_size(const T& value) {
    return sizeof(std::uint64_t) + value.size() * sizeof(typename T::value_type);
  }

  template <class T>
    requires bulk<T>
  static void write(const T& value, std::byte* out) {
    const std::uint64_t count = value.size();
    std::memcpy(out, &count, sizeof count);
    if (count != 0) std::memcpy(out + sizeof count, value.data(), count * sizeof(typename T::value_type));
  }

  template <class T>
    requires bulk<T>
  bench::bytes_view encode(const T& value) {
    const std::size_t size = encoded_size(value);
    if (buffer.size() < size) buffer.resize(size);
    write(value, buffer.data());
    return {buffer.data(), size};
  }

  template <class T>
    requires bulk<T>
  std::size_t encode_into(const T& value, std::span<std::byte> out) {
    const std::size_t size = encoded_size(value);
    if (out.size() < size) throw std::length_error("memcpy: buffer too small");
    write(value, out.data());
    return size;
  }

  // Into a reused container of the right size: one memcpy. Into a fresh one:
  // construct it from the bytes in one pass (assign from a pointer range of a
  // trivially copyable type is a memmove), not resize() + memcpy, which would
  // zero the memory first and make this baseline slower than it need be.
  template <class T>
    requires bulk<T>
  void decode(bench::bytes_view in, T& out) {
    using element = typename T::value_type;
    std::uint64_t count = 0;
    if (in.size() < sizeof count) throw std::runtime_error("memcpy: truncated count");
    std::memcpy(&count, in.data(), sizeof count);
    const std::size_t payload = in.size() - sizeof count;
    if (count > payload / sizeof(element) || count * sizeof(element) != payload) {
      throw std::runtime_error("memcpy: size does not match the count");
    }
    const std::byte* data = in.data() + sizeof count;
    if (out.size() == count) {
      if (count != 0) std::memcpy(out.data(), data, payload);
    } else if constexpr (std::is_same_v<T, std::string>) {
      out.assign(reinterpret_cast<const char*>(data), count);
    } else {
      // The harness hands over input aligned for any type, and the 8-byte
      // count keeps the elements aligned.
      const auto* first = reinterpret_cast<const element*>(data);
      out.assign(first, first + count);
    }
  }

  static std::string_view unsupported_reason(std::string_view) {
    return "baseline for flat arrays, strings and vector<IntegerClass> only";
  }
};

}  // namespace

BENCH_ADAPTER(memcpy_adapter);
