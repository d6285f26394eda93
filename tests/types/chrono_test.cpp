// std::chrono::duration and time_point (bifrons/types/chrono.hpp): count() in the encoding of
// Rep; a time_point is its time_since_epoch().
#include <bifrons/types/chrono.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <ratio>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;
using namespace std::chrono_literals;

TEST(Duration, EncodedAsItsCount) {
  EXPECT_EQ(hex_of(std::chrono::nanoseconds(-1)), "01");
  EXPECT_EQ(hex_of(std::chrono::seconds(300)), "d8 04");
  EXPECT_EQ(hex_of(std::chrono::duration<double>(1.5)), "00 00 00 00 00 00 f8 3f");
  EXPECT_EQ(hex_of(std::chrono::duration<std::uint8_t, std::milli>(200)), "c8 01");
  // The period is part of the type: one hour is the count 1.
  EXPECT_EQ(hex_of(std::chrono::hours(1)), "02");
}

template <class D>
class DurationOf : public ::testing::Test {};
using DurationTypes =
    ::testing::Types<std::chrono::nanoseconds, std::chrono::microseconds, std::chrono::milliseconds,
                     std::chrono::seconds, std::chrono::minutes, std::chrono::hours, std::chrono::days,
                     std::chrono::years, std::chrono::duration<double>, std::chrono::duration<float, std::milli>,
                     std::chrono::duration<std::uint16_t, std::ratio<1, 30>>, std::chrono::duration<std::int8_t>>;
TYPED_TEST_SUITE(DurationOf, DurationTypes);

TYPED_TEST(DurationOf, ExtremesRoundTrip) {
  using Rep = typename TypeParam::rep;
  for (const TypeParam d : {TypeParam::min(), TypeParam::zero(), TypeParam::max(), TypeParam(Rep(1)),
                            TypeParam(std::numeric_limits<Rep>::lowest())}) {
    EXPECT_EQ(round_trip(d), d);
    EXPECT_EQ(hex_of(d), hex_of(d.count()));
  }
}

TYPED_TEST(DurationOf, TimePointsRoundTrip) {
  using P = std::chrono::time_point<std::chrono::system_clock, TypeParam>;
  for (const P p : {P::min(), P{}, P::max()}) {
    EXPECT_EQ(round_trip(p), p);
    EXPECT_EQ(hex_of(p), hex_of(p.time_since_epoch()));
  }
}

TEST(TimePoint, ClocksRoundTrip) {
  const auto now = std::chrono::system_clock::now();
  EXPECT_EQ(round_trip(now), now);
  const auto steady = std::chrono::steady_clock::now();
  EXPECT_EQ(round_trip(steady), steady);
  const std::chrono::sys_days day = std::chrono::year{2024} / 2 / 29;
  EXPECT_EQ(round_trip(day), day);
  EXPECT_EQ(hex_of(std::chrono::sys_days{} + std::chrono::days(1)), "02");
}

TEST(Duration, NarrowerRepIsRangeChecked) {
  const bytes b = bifrons::to_bytes(std::chrono::duration<std::int64_t>(std::int64_t{1} << 40));
  EXPECT_TRUE((fails_with<std::chrono::duration<std::int32_t>>(b, errc::value_out_of_range, 0)));
  EXPECT_TRUE((reads_as(bifrons::to_bytes(std::chrono::duration<std::int64_t>(-5)),
                        std::chrono::duration<std::int16_t>(-5))));
}

TEST(Duration, ReadIntoExistingAndInContainers) {
  std::chrono::milliseconds existing = 123456ms;
  read_into(std::chrono::milliseconds(-7), existing);
  EXPECT_EQ(existing, -7ms);
  const std::vector<std::chrono::seconds> v{1s, -1s, 3600s};
  EXPECT_EQ(hex_of(v), "03 02 01 a0 38");
  EXPECT_EQ(round_trip(v), v);
}

}  // namespace
}  // namespace bifrons_test
