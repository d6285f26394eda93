// std::pair and std::tuple (bifrons/types/utility.hpp): the elements in order, no count, no
// envelope.
#include <bifrons/types/utility.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

TEST(Pair, ElementsOneAfterAnother) {
  EXPECT_EQ(hex_of(std::pair<std::int8_t, std::string>{-1, "a"}), "01 01 61");
  EXPECT_EQ(hex_of(std::pair<bool, double>{true, 1.0}), "01 00 00 00 00 00 00 f0 3f");
  EXPECT_EQ(bifrons::serialized_size(std::pair<int, int>{0, 0}), 2u);
}

TEST(Tuple, ElementsOneAfterAnother) {
  EXPECT_EQ(hex_of(std::tuple<>{}), "");
  EXPECT_EQ(bifrons::serialized_size(std::tuple<>{}), 0u);
  EXPECT_EQ(hex_of(std::tuple<std::uint16_t, char, std::vector<std::int16_t>>{300, 'z', {-2}}), "ac 02 7a 01 fe ff");
}

template <class T>
class TupleLike : public ::testing::Test {};
using TupleLikeTypes =
    ::testing::Types<std::pair<int, std::string>, std::pair<std::string, std::vector<int>>, std::pair<Point, Point>,
                     std::tuple<>, std::tuple<bool>, std::tuple<std::int8_t, std::uint64_t, double, std::string>,
                     std::tuple<std::pair<int, int>, std::tuple<std::string, std::tuple<>>, char32_t>,
                     std::tuple<std::vector<std::tuple<int, std::string>>, Point>>;
TYPED_TEST_SUITE(TupleLike, TupleLikeTypes);

/// A value of Tuple with every element set from sample(i).
template <class Tuple>
Tuple tuple_sample(std::size_t i);

template <class T>
T any_sample(std::size_t i) {
  if constexpr (requires { std::tuple_size<T>::value; })
    return tuple_sample<T>(i);
  else if constexpr (requires { typename T::value_type; } && !std::is_same_v<T, std::string>)
    return T{any_sample<typename T::value_type>(i), any_sample<typename T::value_type>(i + 1)};
  else
    return sample<T>(i);
}

template <class Tuple>
Tuple tuple_sample(std::size_t i) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return Tuple{any_sample<std::tuple_element_t<I, Tuple>>(i + I)...};
  }(std::make_index_sequence<std::tuple_size_v<Tuple>>{});
}

TYPED_TEST(TupleLike, RoundTrips) {
  for (std::size_t i : {0u, 1u, 77u}) {
    const TypeParam t = tuple_sample<TypeParam>(i);
    EXPECT_EQ(round_trip(t), t);
  }
}

TYPED_TEST(TupleLike, BytesAreTheConcatenationOfTheElements) {
  const TypeParam t = tuple_sample<TypeParam>(5);
  const bytes expected = std::apply(
      [](const auto&... e) {
        bytes out;
        ((out = cat({out, bifrons::to_bytes(e)})), ...);
        return out;
      },
      t);
  EXPECT_EQ(hex_of(t), hex(expected));
}

TYPED_TEST(TupleLike, ReadIntoExisting) {
  TypeParam existing = tuple_sample<TypeParam>(100);
  const TypeParam incoming = tuple_sample<TypeParam>(3);
  read_into(incoming, existing);
  EXPECT_EQ(existing, incoming);
}

TEST(Tuple, ErrorsAreReportedAtTheFailingElement) {
  EXPECT_TRUE((fails_with<std::tuple<int, bool, int>>(B({0x02, 0x05, 0x02}), errc::invalid_value, 1)));
  EXPECT_TRUE((fails_with<std::pair<std::string, std::uint8_t>>(B({0x01, 0x61, 0x80, 0x02}), errc::value_out_of_range,
                                                                2)));
  EXPECT_TRUE((fails_with<std::pair<int, int>>(B({0x02}), errc::unexpected_end, 1, 1)));
  EXPECT_TRUE((fails_with<std::tuple<>>(B({0x00}), errc::trailing_bytes, 0)));
}

TEST(Tuple, ExtremeValues) {
  using L64 = std::numeric_limits<std::int64_t>;
  const std::tuple<std::int64_t, std::int64_t, std::uint64_t> t{L64::min(), L64::max(),
                                                                std::numeric_limits<std::uint64_t>::max()};
  EXPECT_EQ(round_trip(t), t);
  EXPECT_EQ(bifrons::serialized_size(t), 30u);
}

}  // namespace
}  // namespace bifrons_test
