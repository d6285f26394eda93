// std::atomic<T> (bifrons/types/atomic.hpp): the bytes of the T it holds; the size pass counts
// the most bytes a T can take, since the value may change between the passes.
#include <bifrons/types/atomic.hpp>

#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

enum class Mode : std::uint8_t { off, on };

// Atomics of at most 4 bytes: 8-byte atomics need libatomic on 32-bit PowerPC, which the
// cross build does not link.
struct Counters {
  std::atomic<std::int32_t> hits{0};
  std::atomic<bool> open{false};
  std::atomic<float> load{0};
  std::atomic<Mode> mode{Mode::off};
};

TEST(Atomic, TheBytesOfItsValue) {
  EXPECT_EQ(hex_of(std::atomic<std::int32_t>(300)), hex_of(std::int32_t{300}));
  EXPECT_EQ(hex_of(std::atomic<std::int32_t>(300)), "d8 04");
  EXPECT_EQ(hex_of(std::atomic<bool>(true)), "01");
  EXPECT_EQ(hex_of(std::atomic<float>(1.0f)), "00 00 80 3f");
  // In a struct: the same bytes as the plain values (hits 01, open 01, load 0.5, mode 01).
  Counters c;
  c.hits = -1;
  c.open = true;
  c.load = 0.5f;
  c.mode = Mode::on;
  EXPECT_EQ(hex_of(c), "0e 01 01 00 00 00 3f 01");
}

TEST(Atomic, ReadStoresTheValue) {
  std::atomic<std::uint32_t> a{0};
  bifrons::from_bytes(B({0xac, 0x02}), a);
  EXPECT_EQ(a.load(), 300u);
  Counters c;
  bifrons::from_bytes(B({0x0e, 0x01, 0x01, 0, 0, 0, 0x3f, 0x01}), c);
  EXPECT_EQ(c.hits.load(), -1);
  EXPECT_TRUE(c.open.load());
  EXPECT_EQ(c.load.load(), 0.5f);
  EXPECT_EQ(c.mode.load(), Mode::on);
  // The value's own checks apply; a failed read stores nothing.
  std::atomic<bool> flag{true};
  EXPECT_THROW(bifrons::from_bytes(B({0x02}), flag), bifrons::error);
  EXPECT_TRUE(flag.load());
  std::atomic<std::uint8_t> narrow{7};
  try {
    bifrons::from_bytes(B({0xac, 0x02}), narrow);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::value_out_of_range);
    EXPECT_EQ(e.offset(), 0u);
  }
  EXPECT_EQ(narrow.load(), 7);
}

TEST(Atomic, SizeIsTheMostATCanTake) {
  // The value may grow between the size pass and the write pass: the size pass counts the
  // widest varint, the write takes what the value needs and the output is cut to it.
  const std::atomic<std::int32_t> small{1};
  EXPECT_EQ(bifrons::serialized_size(small), 5u);
  EXPECT_EQ(bifrons::to_bytes(small).size(), 1u);
  const std::vector<std::atomic<std::int32_t>> many(3000);  // over the one-pass bound: the exact size pass
  EXPECT_EQ(bifrons::serialized_size(many), 2u + 3000u * 5u);
  const bytes b = bifrons::to_bytes(many);
  EXPECT_EQ(b.size(), 2u + 3000u);
  std::byte buffer[8];
  const auto r = bifrons::try_to_bytes(std::atomic<std::int32_t>(std::numeric_limits<std::int32_t>::min()),
                                       std::span<std::byte>(buffer));
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, 5u);
}

}  // namespace
}  // namespace bifrons_test
