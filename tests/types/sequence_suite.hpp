#pragma once
// A typed test suite for every sequence container (vector, deque, list, forward_list,
// basic_string): instantiated by vector_test.cpp, deque_test.cpp, list_test.cpp,
// forward_list_test.cpp and string_test.cpp with their own element types.

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {

template <class C>
class SequenceSuite : public ::testing::Test {
 protected:
  using T = typename C::value_type;

  static C build(std::size_t n, std::size_t first = 0) { return make<C>(samples<T>(n, first)); }
};

TYPED_TEST_SUITE_P(SequenceSuite);

TYPED_TEST_P(SequenceSuite, EmptyIsTheCountZero) {
  const TypeParam empty{};
  EXPECT_EQ(hex_of(empty), "00");
  EXPECT_TRUE(round_trip(empty) == empty);
}

TYPED_TEST_P(SequenceSuite, BytesFollowTheFormat) {
  using T = typename TypeParam::value_type;
  // 127/128: the count grows to two bytes.
  for (std::size_t n : {1u, 2u, 3u, 127u, 128u, 300u}) {
    const std::vector<T> elems = samples<T>(n);
    EXPECT_EQ(hex_of(make<TypeParam>(elems)), hex(expected_sequence(elems))) << "n = " << n;
  }
}

TYPED_TEST_P(SequenceSuite, RoundTrips) {
  for (std::size_t n : {1u, 2u, 5u, 128u, 1000u}) {
    const TypeParam c = this->build(n);
    EXPECT_TRUE(round_trip(c) == c) << "n = " << n;
  }
}

TYPED_TEST_P(SequenceSuite, LargeRoundTrips) {
  const TypeParam c = this->build(scaled_count(100000));
  EXPECT_TRUE(round_trip(c) == c);
}

TYPED_TEST_P(SequenceSuite, ReadIntoExistingEqualsFreshRead) {
  struct Case {
    std::size_t existing, incoming;
  };
  for (Case k : {Case{0, 5}, Case{10, 5}, Case{5, 10}, Case{5, 0}, Case{3, 3}}) {
    const TypeParam incoming = this->build(k.incoming);
    TypeParam existing = this->build(k.existing, 1000);  // different values
    read_into(incoming, existing);
    EXPECT_TRUE(existing == incoming) << k.existing << " -> " << k.incoming;
  }
}

TYPED_TEST_P(SequenceSuite, SameBytesAsVector) {
  using T = typename TypeParam::value_type;
  if constexpr (std::is_same_v<T, bool>) {
    GTEST_SUCCEED() << "vector<bool> is bit-packed; covered by vector_test";
    EXPECT_EQ(hex_of(make<TypeParam>(std::vector<bool>{true, false})), "02 01 00");
  } else {
    const std::vector<T> elems = samples<T>(20);
    const TypeParam c = make<TypeParam>(elems);
    EXPECT_EQ(bifrons::to_bytes(c), bifrons::to_bytes(elems));
    EXPECT_TRUE(bifrons::from_bytes<std::vector<T>>(bifrons::to_bytes(c)) == elems);
    EXPECT_TRUE(bifrons::from_bytes<TypeParam>(bifrons::to_bytes(elems)) == c);
  }
}

TYPED_TEST_P(SequenceSuite, TruncatedInputFails) {
  const bytes b = bifrons::to_bytes(this->build(3));
  for (std::size_t keep = 1; keep < b.size(); ++keep) {
    const bytes cut(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(keep));
    auto r = bifrons::try_from_bytes<TypeParam>(cut);
    ASSERT_FALSE(r.has_value()) << "keep = " << keep;
    EXPECT_TRUE(r.code() == bifrons::errc::unexpected_end || r.code() == bifrons::errc::count_exceeds_input)
        << bifrons::describe(r.code());
    EXPECT_LE(r.offset(), keep);
  }
}

TYPED_TEST_P(SequenceSuite, CountLargerThanInputFailsAtTheCount) {
  // Every element takes at least one byte: five elements cannot follow a lone count, which lacks
  // five elements' minimum sizes.
  EXPECT_TRUE(fails_with<TypeParam>(B({0x05}), bifrons::errc::count_exceeds_input, 0,
                                    5 * min_element_size<typename TypeParam::value_type>()));
  // 2^40 elements exceed read_options::max_elements (64 Mi) before anything is allocated.
  EXPECT_TRUE(fails_with<TypeParam>(varint_bytes(std::uint64_t{1} << 40), bifrons::errc::element_limit_exceeded, 0));
}

TYPED_TEST_P(SequenceSuite, TrailingByteIsRejected) {
  const bytes b = cat({bifrons::to_bytes(this->build(2)), B({0x00})});
  EXPECT_TRUE(fails_with<TypeParam>(b, bifrons::errc::trailing_bytes, b.size() - 1));
}

TYPED_TEST_P(SequenceSuite, RangeTraitsAgreeWithTheStandardConcepts) {
  EXPECT_TRUE(range_traits_agree<TypeParam>());
  EXPECT_TRUE(range_traits_agree<const TypeParam>());
}

REGISTER_TYPED_TEST_SUITE_P(SequenceSuite, RangeTraitsAgreeWithTheStandardConcepts, EmptyIsTheCountZero,
                            BytesFollowTheFormat, RoundTrips, LargeRoundTrips, ReadIntoExistingEqualsFreshRead,
                            SameBytesAsVector, TruncatedInputFails, CountLargerThanInputFailsAtTheCount,
                            TrailingByteIsRejected);

}  // namespace bifrons_test
