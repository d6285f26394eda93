// std::valarray<T> (bifrons/types/valarray.hpp): as std::vector<T>, a count and the elements,
// arithmetic ones as one little-endian block.
#include <bifrons/types/valarray.hpp>

#include <cstdint>
#include <valarray>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

template <class T>
bool same(const std::valarray<T>& a, const std::valarray<T>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

TEST(Valarray, TheBytesOfAVector) {
  EXPECT_EQ(hex_of(std::valarray<std::int16_t>{1, -1}), "02 01 00 ff ff");
  EXPECT_EQ(hex_of(std::valarray<double>{0.5, 2.0}), hex_of(std::vector<double>{0.5, 2.0}));
  EXPECT_EQ(hex_of(std::valarray<std::int32_t>{}), "00");
}

TEST(Valarray, RoundTripsAndReuses) {
  const std::valarray<double> v{0.25, -1.5, 1e300};
  EXPECT_TRUE(same(round_trip(v), v));
  std::valarray<double> existing{9.0, 9.0, 9.0};
  bifrons::from_bytes(bifrons::to_bytes(v), existing);
  EXPECT_TRUE(same(existing, v));
  bifrons::from_bytes(B({0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f}), existing);
  EXPECT_TRUE(same(existing, std::valarray<double>{1.0}));
  const std::vector<std::valarray<std::int32_t>> nested{{1, 2}, {}};
  const auto back = bifrons::from_bytes<std::vector<std::valarray<std::int32_t>>>(bifrons::to_bytes(nested));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(same(back[0], nested[0]));
}

TEST(Valarray, CountsAreChecked) {
  EXPECT_TRUE(fails_with<std::valarray<std::int32_t>>(B({0x02, 0x01, 0x00, 0x00, 0x00}), errc::count_exceeds_input, 0,
                                                      4));
  bifrons::read_options limits;
  limits.max_alloc_bytes = 8;
  const auto r =
      bifrons::try_from_bytes<std::valarray<std::int32_t>>(bifrons::to_bytes(std::valarray<std::int32_t>{1, 2, 3}),
                                                           limits);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::allocation_limit_exceeded);
  EXPECT_EQ(r.offset(), 0u);
  EXPECT_TRUE(fails_with<std::valarray<bool>>(B({0x01, 0x02}), errc::invalid_value, 1));
}

}  // namespace
}  // namespace bifrons_test
