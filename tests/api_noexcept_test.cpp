// The non-throwing API, built and run with -fno-exceptions (BIFRONS_NO_EXCEPTIONS=ON builds only
// *_noexcept_test.cpp): try_to_bytes, try_from_bytes, serialized_size, and reader/writer with
// ok()/error()/offset(). No try/catch and no EXPECT_THROW here.
#include <bifrons/bifrons.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

namespace {

using bifrons::errc;

std::vector<std::byte> B(std::initializer_list<unsigned> list) {
  std::vector<std::byte> out;
  for (unsigned v : list) out.push_back(static_cast<std::byte>(v));
  return out;
}

struct Record {
  std::uint32_t id = 0;
  std::string name;
  std::vector<double> values;
  std::optional<std::map<std::string, int>> extra;
  friend bool operator==(const Record&, const Record&) = default;
};

constexpr std::byte guard{0xa5};

/// Writes v into a fixed buffer with try_to_bytes and reads it back with try_from_bytes.
template <class T>
void round_trip(const T& v) {
  std::array<std::byte, 8192> buffer;
  buffer.fill(guard);
  const std::size_t n = bifrons::serialized_size(v);
  ASSERT_LT(n, buffer.size());
  auto written = bifrons::try_to_bytes(v, std::span<std::byte>(buffer));
  ASSERT_TRUE(written);
  EXPECT_EQ(*written, n);
  EXPECT_TRUE(std::all_of(buffer.begin() + static_cast<std::ptrdiff_t>(n), buffer.end(),
                          [](std::byte b) { return b == guard; }));
  auto read = bifrons::try_from_bytes<T>(std::span<const std::byte>(buffer.data(), n));
  ASSERT_TRUE(read) << bifrons::describe(read.code()) << " at " << read.offset();
  EXPECT_EQ(read.code(), errc::ok);
  EXPECT_TRUE(*read == v);
}

TEST(NoExcept, RoundTrips) {
  round_trip(0);
  round_trip(std::numeric_limits<std::int64_t>::min());
  round_trip(-0.0);
  round_trip(std::string("text"));
  round_trip(std::vector<long>{-1, 0, 1});
  round_trip(std::map<std::string, std::vector<int>>{{"a", {1}}, {"b", {}}});
  round_trip(std::variant<int, std::string>("v"));
  round_trip(Record{7, "r", {1.5, -2.5}, std::map<std::string, int>{{"k", 1}}});
  round_trip(std::vector<Record>(20, Record{1, "x", {}, std::nullopt}));
}

TEST(NoExcept, HandComputedBytes) {
  std::array<std::byte, 4> buffer{};
  auto n = bifrons::try_to_bytes(std::uint16_t{300}, std::span<std::byte>(buffer));
  ASSERT_TRUE(n);
  ASSERT_EQ(*n, 2u);
  EXPECT_EQ(buffer[0], std::byte{0xac});
  EXPECT_EQ(buffer[1], std::byte{0x02});
}

TEST(NoExcept, BufferTooSmallWritesNothing) {
  const Record r{1, std::string(100, 'n'), {}, std::nullopt};
  const std::size_t n = bifrons::serialized_size(r);
  std::vector<std::byte> buffer(n + 16, guard);
  auto small = bifrons::try_to_bytes(r, std::span<std::byte>(buffer.data(), n - 1));
  ASSERT_FALSE(small);
  EXPECT_EQ(small.code(), errc::buffer_too_small);
  EXPECT_EQ(small.offset(), n);
  EXPECT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](std::byte b) { return b == guard; }));
  auto exact = bifrons::try_to_bytes(r, std::span<std::byte>(buffer.data(), n));
  ASSERT_TRUE(exact);
  EXPECT_EQ(*exact, n);
  EXPECT_TRUE(std::all_of(buffer.begin() + static_cast<std::ptrdiff_t>(n), buffer.end(),
                          [](std::byte b) { return b == guard; }));
}

template <class T>
void expect_error(const std::vector<std::byte>& b, errc code, std::size_t offset,
                  const bifrons::read_options& options = {}, std::size_t bytes_missing = 0) {
  auto r = bifrons::try_from_bytes<T>(b, options);
  ASSERT_FALSE(r.has_value());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.code(), code) << bifrons::describe(r.code());
  EXPECT_EQ(r.offset(), offset);
  EXPECT_EQ(r.bytes_missing(), bytes_missing);
}

TEST(NoExcept, ErrorsAreCodesWithOffsets) {
  expect_error<int>(B({}), errc::unexpected_end, 0, {}, 1);
  // A string of 3 bytes with 1 present: the count, with 2 bytes missing.
  expect_error<std::string>(B({0x03, 0x61}), errc::count_exceeds_input, 0, {}, 2);
  expect_error<int>(B({0x02, 0x00}), errc::trailing_bytes, 1);
  expect_error<bool>(B({0x02}), errc::invalid_value, 0);
  expect_error<std::optional<int>>(B({0x02}), errc::invalid_value, 0);
  expect_error<std::variant<int, bool>>(B({0x02}), errc::invalid_value, 0);
  expect_error<std::uint32_t>(B({0x80, 0x00}), errc::malformed_varint, 0);
  expect_error<std::uint8_t>(B({0x80, 0x02}), errc::value_out_of_range, 0);
  expect_error<std::vector<int>>(B({0x05}), errc::count_exceeds_input, 0, {}, 20);  // 5 x 4 bytes
  expect_error<std::map<int, int>>(B({0x02, 0x02, 0x00, 0x02, 0x02}), errc::duplicate_key, 3);
  expect_error<std::vector<bool>>(B({0x01, 0x02}), errc::invalid_value, 1);
  expect_error<std::unique_ptr<int>>(B({0x02}), errc::invalid_value, 0);
  expect_error<std::vector<int>>(B({0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}),
                                 errc::element_limit_exceeded, 0, bifrons::read_options{.max_elements = 1});
  struct Inner {
    int x = 0;
  };
  struct Outer {
    Inner inner;
  };
  expect_error<Outer>(B({0x02, 0x00}), errc::depth_limit_exceeded, 1, bifrons::read_options{.max_depth = 1});
}

TEST(NoExcept, StrictReadingIsAnErrorCode) {
  // A set out of order: accepted leniently, non_canonical at its first byte that differs.
  expect_error<std::set<int>>(B({0x02, 0x04, 0x02}), errc::non_canonical, 1, {.canonical_only = true});
  EXPECT_TRUE(bifrons::try_from_bytes<std::set<int>>(B({0x02, 0x04, 0x02})));
  EXPECT_TRUE(bifrons::try_from_bytes<std::set<int>>(B({0x02, 0x02, 0x04}), {.canonical_only = true}));
#if !BIFRONS_HAS_EXCEPTIONS  // (with exceptions, the failing read throws: io_test.cpp)
  const std::vector<std::byte> out_of_order = B({0x02, 0x04, 0x02});
  bifrons::reader r(out_of_order, {.canonical_only = true});
  std::set<int> s;
  r(s);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.code(), errc::non_canonical);
  EXPECT_EQ(r.offset(), 1u);
#endif
}

TEST(NoExcept, MisalignedViewIsAnErrorCode) {
  alignas(8) std::array<std::byte, 16> storage{};
  // count 1 at storage[2], the int32 block at storage[3]: never 4-aligned.
  storage[2] = std::byte{0x01};
  auto r = bifrons::try_from_bytes<std::span<const std::int32_t>>(std::span<const std::byte>(storage.data() + 2, 5));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::misaligned_view);
  EXPECT_EQ(r.offset(), 1u);
}

TEST(NoExcept, WriterAndReader) {
  std::vector<std::byte> out;
  bifrons::writer w(out);
  w(Record{1, "a", {}, std::nullopt}, 42, std::string("s"));
  EXPECT_TRUE(w.ok());

  bifrons::reader r(out);
  Record rec;
  int n = 0;
  std::string s;
  r(rec, n);
  EXPECT_TRUE(r.ok());
  EXPECT_FALSE(r.done());
  r(s);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.offset(), out.size());
  EXPECT_EQ(rec.name, "a");
  EXPECT_EQ(n, 42);
  EXPECT_EQ(s, "s");
}

TEST(NoExcept, ReaderFailureIsSticky) {
  const auto bytes = B({0x0e, 0x03, 0x61});  // the int 7, then a string of 3 with 1 byte left
  bifrons::reader r(bytes);
  int x = 0;
  std::string s = "unchanged";
  r(x);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(x, 7);
  EXPECT_EQ(r.offset(), 1u);
  EXPECT_EQ(r.remaining(), 2u);
#if !BIFRONS_HAS_EXCEPTIONS
  // This file is also built with exceptions (where a failing read throws, see io_test.cpp):
  // the failing reads below only run in the -fno-exceptions build.
  r(s);  // fails without throwing
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.done());
  EXPECT_EQ(r.code(), errc::count_exceeds_input);
  EXPECT_EQ(r.offset(), 1u);
  int y = 5;
  r(y);  // later reads fail too, and leave their target alone
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(y, 5);
  EXPECT_EQ(r.code(), errc::count_exceeds_input);
#endif
}

TEST(NoExcept, ReaderOverABadStreamIsNotOk) {
  std::istringstream in("\x02");
  in.setstate(std::ios::badbit);
  const bifrons::reader r(in);  // no read yet: the constructor records the failure
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.done());
  EXPECT_EQ(r.code(), errc::stream_error);
}

}  // namespace
