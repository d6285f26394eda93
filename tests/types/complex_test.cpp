// std::complex<T> (bifrons/types/complex.hpp): the real part, then the imaginary part.
#include <bifrons/types/complex.hpp>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

TEST(Complex, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::complex<float>(1.0f, 2.0f)), "00 00 80 3f 00 00 00 40");
  EXPECT_EQ(hex_of(std::complex<double>(0.0, -0.0)), "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80");
}

template <class T>
class ComplexOf : public ::testing::Test {};
using ComplexTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ComplexOf, ComplexTypes);

TYPED_TEST(ComplexOf, RoundTripsBitExact) {
  using L = std::numeric_limits<TypeParam>;
  using U = std::conditional_t<sizeof(TypeParam) == 4, std::uint32_t, std::uint64_t>;
  const TypeParam quiet_nan = std::bit_cast<TypeParam>(sizeof(U) == 4 ? U(0x7fc00abc) : U(0x7ff8000000000abc));
  const std::complex<TypeParam> values[] = {{TypeParam(1.5), TypeParam(-2.25)}, {-TypeParam(0), TypeParam(0)},
                                            {L::infinity(), -L::infinity()},    {L::denorm_min(), L::max()},
                                            {quiet_nan, L::lowest()},           {TypeParam(0), quiet_nan}};
  for (const auto& c : values) {
    const auto back = round_trip(c);
    EXPECT_EQ(std::bit_cast<U>(back.real()), std::bit_cast<U>(c.real()));
    EXPECT_EQ(std::bit_cast<U>(back.imag()), std::bit_cast<U>(c.imag()));
    EXPECT_EQ(bifrons::serialized_size(c), 2 * sizeof(TypeParam));
    EXPECT_EQ(hex_of(c), hex(cat({bifrons::to_bytes(c.real()), bifrons::to_bytes(c.imag())})));
  }
}

TYPED_TEST(ComplexOf, TruncatedIsUnexpectedEnd) {
  // The imaginary part lacks its last byte: reported where the input ends.
  EXPECT_TRUE(fails_with<std::complex<TypeParam>>(bytes(2 * sizeof(TypeParam) - 1), errc::unexpected_end,
                                                  2 * sizeof(TypeParam) - 1, 1));
}

TEST(Complex, InContainers) {
  const std::vector<std::complex<double>> v{{1, 2}, {-3, 4.5}, {}};
  EXPECT_EQ(bifrons::serialized_size(v), 1u + 3u * 16u);
  EXPECT_EQ(round_trip(v), v);
}

}  // namespace
}  // namespace bifrons_test
