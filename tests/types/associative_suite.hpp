#pragma once
// A typed test suite for set, multiset, map, multimap and their unordered forms: instantiated by
// set_test.cpp, map_test.cpp, unordered_set_test.cpp and unordered_map_test.cpp.
// Format: varint(count), then the elements in iteration order, each in its scalar encoding
// (maps: key then value); a repeated key in a unique container is errc::duplicate_key.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace bifrons_test {

template <class C>
concept unique_keys = requires(C c, typename C::value_type v) { c.insert(v).second; };

template <class C>
concept map_like = requires { typename C::mapped_type; };

/// The i-th sample element of an associative container.
template <class C>
typename C::value_type sample_element(std::size_t i) {
  if constexpr (map_like<C>)
    return {sample<typename C::key_type>(i), sample<typename C::mapped_type>(i + 7)};
  else
    return sample<typename C::key_type>(i);
}

/// The scalar encoding of one element (maps: key then value).
template <class C>
bytes element_bytes(const typename C::value_type& e) {
  if constexpr (map_like<C>)
    return cat({bifrons::to_bytes(e.first), bifrons::to_bytes(e.second)});
  else
    return bifrons::to_bytes(e);
}

template <class C>
class AssociativeSuite : public ::testing::Test {
 protected:
  /// n sample elements; multi-containers get every element twice.
  static C build(std::size_t n, std::size_t first = 0) {
    C c;
    for (std::size_t i = 0; i < n; ++i) {
      c.insert(sample_element<C>(first + i));
      if constexpr (!unique_keys<C>) c.insert(sample_element<C>(first + i));
    }
    return c;
  }
};

TYPED_TEST_SUITE_P(AssociativeSuite);

TYPED_TEST_P(AssociativeSuite, EmptyIsTheCountZero) {
  const TypeParam empty;
  EXPECT_EQ(hex_of(empty), "00");
  EXPECT_TRUE(round_trip(empty) == empty);
}

/// The elements of c in the order the format writes them: iteration order, except that char keys
/// (the samples reach 0x80-0xff) are compared as unsigned code units, whatever the host's char.
template <class C>
std::vector<const typename C::value_type*> canonical_elements(const C& c) {
  std::vector<const typename C::value_type*> out;
  for (const auto& e : c) out.push_back(&e);
  if constexpr (std::is_same_v<typename C::key_type, char>) {
    const auto key = [](const typename C::value_type* e) {
      if constexpr (map_like<C>)
        return static_cast<unsigned char>(e->first);
      else
        return static_cast<unsigned char>(*e);
    };
    // (The suite's char keys are unique: no order among equal keys to keep.)
    std::sort(out.begin(), out.end(), [&](const auto* a, const auto* b) { return key(a) < key(b); });
  }
  return out;
}

TYPED_TEST_P(AssociativeSuite, ElementsInCanonicalOrderWithScalarEncodings) {
  for (std::size_t n : {1u, 3u, 200u}) {
    const TypeParam c = this->build(n);
    bytes expected = varint_bytes(c.size());
    for (const auto* e : canonical_elements(c)) {
      const bytes one = element_bytes<TypeParam>(*e);
      expected.insert(expected.end(), one.begin(), one.end());
    }
    EXPECT_EQ(hex_of(c), hex(expected)) << "n = " << n;
  }
}

TYPED_TEST_P(AssociativeSuite, RoundTrips) {
  for (std::size_t n : {1u, 2u, 5u, 128u, 1000u}) {
    const TypeParam c = this->build(n);
    EXPECT_TRUE(round_trip(c) == c) << "n = " << n;
  }
}

TYPED_TEST_P(AssociativeSuite, LargeRoundTrips) {
  const TypeParam c = this->build(scaled_count(100000));
  EXPECT_TRUE(round_trip(c) == c);
}

TYPED_TEST_P(AssociativeSuite, ReadIntoExistingReplacesTheContents) {
  TypeParam existing = this->build(50, 5000);
  const TypeParam incoming = this->build(3);
  read_into(incoming, existing);
  EXPECT_TRUE(existing == incoming);
  read_into(TypeParam{}, existing);
  EXPECT_TRUE(existing.empty());
}

TYPED_TEST_P(AssociativeSuite, RepeatedKey) {
  const auto e = sample_element<TypeParam>(3);
  const bytes one = element_bytes<TypeParam>(e);
  const bytes b = cat({B({0x02}), one, one});
  if constexpr (unique_keys<TypeParam>) {
    // Reported at the second copy of the key.
    EXPECT_TRUE(fails_with<TypeParam>(b, bifrons::errc::duplicate_key, 1 + one.size()));
  } else {
    auto r = bifrons::try_from_bytes<TypeParam>(b);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->size(), 2u);
    EXPECT_EQ(r->count(bifrons_test::sample<typename TypeParam::key_type>(3)), 2u);
  }
}

TYPED_TEST_P(AssociativeSuite, CountLargerThanInput) {
  // Elements are in their scalar encodings (integer keys are varints, not a block).
  const std::size_t element_size = [] {
    if constexpr (map_like<TypeParam>)
      return min_encoded_size<typename TypeParam::key_type>() + min_encoded_size<typename TypeParam::mapped_type>();
    else
      return min_encoded_size<typename TypeParam::key_type>();
  }();
  EXPECT_TRUE(fails_with<TypeParam>(B({0x05}), bifrons::errc::count_exceeds_input, 0, 5 * element_size));
  EXPECT_TRUE(fails_with<TypeParam>(varint_bytes(std::uint64_t{1} << 40), bifrons::errc::element_limit_exceeded, 0));
}

TYPED_TEST_P(AssociativeSuite, TruncatedInputFails) {
  const bytes b = bifrons::to_bytes(this->build(3));
  for (std::size_t keep = 1; keep < b.size(); ++keep) {
    const bytes cut(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(keep));
    auto r = bifrons::try_from_bytes<TypeParam>(cut);
    ASSERT_FALSE(r.has_value()) << "keep = " << keep;
    EXPECT_TRUE(r.code() == bifrons::errc::unexpected_end || r.code() == bifrons::errc::count_exceeds_input)
        << bifrons::describe(r.code());
  }
}

REGISTER_TYPED_TEST_SUITE_P(AssociativeSuite, EmptyIsTheCountZero, ElementsInCanonicalOrderWithScalarEncodings,
                            RoundTrips, LargeRoundTrips, ReadIntoExistingReplacesTheContents, RepeatedKey,
                            CountLargerThanInput, TruncatedInputFails);

}  // namespace bifrons_test
