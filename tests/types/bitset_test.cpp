// std::bitset<N> (bifrons/types/bitset.hpp): ceil(N / 8) bytes, bit i in byte i / 8 at bit i % 8,
// unused high bits zero.
#include <bifrons/types/bitset.hpp>

#include <bitset>
#include <cstddef>
#include <type_traits>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

TEST(Bitset, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::bitset<0>{}), "");
  EXPECT_EQ(hex_of(std::bitset<1>{1}), "01");
  EXPECT_EQ(hex_of(std::bitset<8>{0xa5}), "a5");
  EXPECT_EQ(hex_of(std::bitset<10>{0x201}), "01 02");
  EXPECT_EQ(hex_of(std::bitset<16>{0xabcd}), "cd ab");
  EXPECT_EQ(hex_of(std::bitset<17>{0x1ffff}), "ff ff 01");
}

template <class N>
class BitsetOf : public ::testing::Test {};
template <std::size_t N>
using size_c = std::integral_constant<std::size_t, N>;
using BitsetSizes = ::testing::Types<size_c<0>, size_c<1>, size_c<7>, size_c<8>, size_c<9>, size_c<63>, size_c<64>,
                                     size_c<65>, size_c<100>, size_c<1000>>;
TYPED_TEST_SUITE(BitsetOf, BitsetSizes);

template <std::size_t N>
std::bitset<N> pattern(std::size_t seed) {
  std::bitset<N> b;
  for (std::size_t i = 0; i < N; ++i) b[i] = ((i * 7 + seed) % 5) < 2;
  return b;
}

TYPED_TEST(BitsetOf, RoundTripsAtTheExpectedSize) {
  constexpr std::size_t N = TypeParam::value;
  for (std::size_t seed : {0u, 1u, 2u}) {
    const std::bitset<N> b = pattern<N>(seed);
    EXPECT_EQ(round_trip(b), b);
    EXPECT_EQ(bifrons::serialized_size(b), (N + 7) / 8);
  }
  EXPECT_EQ(round_trip(~std::bitset<N>{}), ~std::bitset<N>{});
}

TYPED_TEST(BitsetOf, BytesFollowTheFormat) {
  constexpr std::size_t N = TypeParam::value;
  const std::bitset<N> b = pattern<N>(1);
  bytes expected((N + 7) / 8);
  for (std::size_t i = 0; i < N; ++i)
    if (b[i]) expected[i / 8] |= static_cast<std::byte>(1u << (i % 8));
  EXPECT_EQ(hex_of(b), hex(expected));
}

TYPED_TEST(BitsetOf, PaddingBitsMustBeZero) {
  constexpr std::size_t N = TypeParam::value;
  if constexpr (N % 8 != 0) {
    bytes b((N + 7) / 8);
    b.back() = static_cast<std::byte>(1u << (N % 8));
    EXPECT_TRUE(fails_with<std::bitset<N>>(b, errc::invalid_value, b.size() - 1));
    b.back() = std::byte{0x80};
    EXPECT_TRUE(fails_with<std::bitset<N>>(b, errc::invalid_value, b.size() - 1));
  } else {
    EXPECT_TRUE(reads_as(bytes(N / 8, std::byte{0xff}), ~std::bitset<N>{}));
  }
}

TYPED_TEST(BitsetOf, TruncatedIsUnexpectedEnd) {
  constexpr std::size_t N = TypeParam::value;
  if constexpr (N > 0) {
    EXPECT_TRUE(fails_with<std::bitset<N>>(bytes((N + 7) / 8 - 1), errc::unexpected_end, (N + 7) / 8 - 1, 1));
  } else {
    EXPECT_TRUE(fails_with<std::bitset<N>>(B({0x00}), errc::trailing_bytes, 0));
  }
}

TEST(Bitset, ReadIntoExisting) {
  std::bitset<12> existing{0xfff};
  read_into(std::bitset<12>{0x001}, existing);
  EXPECT_EQ(existing, std::bitset<12>{0x001});
}

TEST(Bitset, InContainers) {
  const std::vector<std::bitset<3>> v{0b101, 0b010};
  EXPECT_EQ(hex_of(v), "02 05 02");
  EXPECT_EQ(round_trip(v), v);
  EXPECT_TRUE(fails_with<std::vector<std::bitset<3>>>(B({0x02, 0x05, 0x0a}), errc::invalid_value, 2));
}

}  // namespace
}  // namespace bifrons_test
