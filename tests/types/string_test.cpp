// std::basic_string (bifrons/types/string.hpp): varint(length in code units), then one
// little-endian block of code units.
#include <bifrons/types/string.hpp>

#include <string>

#include "sequence_suite.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

using StringTypes = ::testing::Types<std::string, std::wstring, std::u8string, std::u16string, std::u32string>;
INSTANTIATE_TYPED_TEST_SUITE_P(String, SequenceSuite, StringTypes);

TEST(String, HandComputedBytes) {
  EXPECT_EQ(hex_of(std::string("abc")), "03 61 62 63");
  EXPECT_EQ(hex_of(std::u8string(u8"\u00e9")), "02 c3 a9");
  EXPECT_EQ(hex_of(std::u16string(u"\u00e9\u20ac")), "02 e9 00 ac 20");
  EXPECT_EQ(hex_of(std::u32string(U"\U0001F600")), "01 00 f6 01 00");
}

TEST(String, WideStringsTakeFourBytesPerCodeUnitOnEveryHost) {
  EXPECT_EQ(hex_of(std::wstring(L"A")), "01 41 00 00 00");
  EXPECT_EQ(hex_of(std::wstring(L"\u20ac")), "01 ac 20 00 00");
  EXPECT_EQ(bifrons::serialized_size(std::wstring(10, L'x')), 1u + 40u);
}

TEST(String, EmbeddedNulsAndHighBytesRoundTrip) {
  const std::string s("a\0b\xff\x80", 5);
  EXPECT_EQ(hex_of(s), "05 61 00 62 ff 80");
  EXPECT_EQ(round_trip(s), s);
  const std::u16string u{u'\0', char16_t{0xd800}, char16_t{0xffff}};  // lone surrogate: code units, unchecked
  EXPECT_EQ(hex_of(u), "03 00 00 00 d8 ff ff");
  EXPECT_EQ(round_trip(u), u);
  const std::u32string w{char32_t{0x10ffff}, char32_t{0xffffffff}};
  EXPECT_EQ(round_trip(w), w);
}

TEST(String, LongStringsHaveMultiByteCounts) {
  const std::string s(200, 'z');
  const bytes b = bifrons::to_bytes(s);
  ASSERT_EQ(b.size(), 202u);
  EXPECT_EQ(hex(bytes(b.begin(), b.begin() + 3)), "c8 01 7a");
  const std::string big(1 << 20, 'q');
  EXPECT_EQ(bifrons::serialized_size(big), 3u + (1u << 20));
  EXPECT_EQ(round_trip(big), big);
}

TEST(String, ReadIntoExistingStringReplacesIt) {
  std::string existing(1000, 'x');
  read_into(std::string("new"), existing);
  EXPECT_EQ(existing, "new");
  read_into(std::string(), existing);
  EXPECT_EQ(existing, "");
}

TEST(String, CountBeyondInput) {
  EXPECT_TRUE(fails_with<std::string>(B({0x05, 0x61, 0x62}), errc::count_exceeds_input, 0, 3));
  // A u16string of two code units needs four bytes.
  EXPECT_TRUE(fails_with<std::u16string>(B({0x02, 0x61, 0x00, 0x62}), errc::count_exceeds_input, 0, 1));
}

TEST(String, NestedInContainers) {
  const std::vector<std::wstring> v{L"one", L"", L"three"};
  EXPECT_EQ(round_trip(v), v);
}

}  // namespace
}  // namespace bifrons_test
