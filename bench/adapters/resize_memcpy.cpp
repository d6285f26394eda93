// resize_memcpy: the floor under every read of a block into a fresh std::vector (issue 34,
// decision 2). Not a serialization library. Given the count, the most a reader can do through
// std::vector's public interface is resize(count), which value-initializes (zero-fills) the new
// elements, then copy the block over them: two passes over the memory. That is what this decode
// does, and nothing else but the bounds checks.
//
// It reads bifrons' own bytes (bifrons::to_bytes, IntegerClass declared a record as in
// bench_bifrons_record): the count, for records the stride, then the block, which therefore
// starts at the same unaligned offset as the block bifrons reads. Its serialize is not timed
// (those bytes are bifrons'); memcpy is the baseline for writes and for reads into a reused
// vector. Blocks of numbers and of records only: vector_int32, vector_float,
// vector_integer_class_* (cereal_fwd), vector_int, vector_double (survey).
#include <bifrons/bifrons.hpp>
#include <bifrons/record.hpp>

#include "../harness/models.hpp"

template <>
inline constexpr bool bifrons::enable_record<bench::model::IntegerClass> = true;

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../harness/harness.hpp"

namespace {

using bench::model::IntegerClass;

// The block is copied as it is: its little-endian bytes are the elements only on a
// little-endian host with IntegerClass laid out as its record (ten int32s, no padding).
static_assert(std::endian::native == std::endian::little,
              "resize_memcpy copies little-endian blocks as they are: a little-endian host only");
static_assert(std::is_trivially_copyable_v<IntegerClass> && sizeof(IntegerClass) == 10 * sizeof(std::int32_t),
              "resize_memcpy copies IntegerClass records as raw bytes: trivially copyable, no padding");

template <class T>
concept block = std::is_same_v<T, std::vector<std::int32_t>> || std::is_same_v<T, std::vector<float>> ||
                std::is_same_v<T, std::vector<int>> || std::is_same_v<T, std::vector<double>> ||
                std::is_same_v<T, std::vector<IntegerClass>>;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("resize_memcpy: " + what); }

std::uint64_t read_varint(bench::bytes_view in, std::size_t& offset) {
  std::uint64_t value = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (offset == in.size()) fail("input ends inside a varint");
    const auto byte = static_cast<std::uint8_t>(in[offset++]);
    value |= std::uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80u) == 0) return value;
  }
  fail("varint longer than 10 bytes");
}

struct resize_memcpy_adapter {
  static constexpr std::string_view name = "resize_memcpy";
  static constexpr bool encode_timed = false;

  std::vector<std::byte> buffer;

  template <class T>
    requires block<T>
  bench::bytes_view encode(const T& value) {
    buffer.clear();
    bifrons::to_bytes(value, buffer);
    return buffer;
  }

  template <class T>
    requires block<T>
  void decode(bench::bytes_view in, T& out) {
    using element = typename T::value_type;
    std::size_t offset = 0;
    const std::uint64_t count = read_varint(in, offset);
    if constexpr (std::is_same_v<element, IntegerClass>) {
      if (count != 0 && read_varint(in, offset) != sizeof(IntegerClass)) fail("stride is not the record's size");
    }
    const std::size_t payload = in.size() - offset;
    if (count > payload / sizeof(element) || count * sizeof(element) != payload) {
      fail("size does not match the count");
    }
    out.resize(static_cast<std::size_t>(count));
    if (count != 0) std::memcpy(out.data(), in.data() + offset, payload);
  }

  static std::string_view unsupported_reason(std::string_view) {
    return "floor for fresh reads of blocks of numbers and records only";
  }
};

}  // namespace

BENCH_ADAPTER(resize_memcpy_adapter);
