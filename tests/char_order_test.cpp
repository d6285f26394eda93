// The canonical order of sets and maps whose keys hold char or wchar_t (docs/format.md, section
// 12): code units compared as unsigned, whatever the host's signedness. Every expected byte string
// here is spelled out by hand from that rule.
//
// CMake builds this file twice: as char_order_test, and as char_order_unsigned_test with
// -funsigned-char (the host's char is signed on x86, unsigned on ARM, PowerPC and s390x). Both must
// write the same bytes.

#include <bifrons/bifrons.hpp>
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace {

std::vector<std::byte> hex(std::string_view text) {
  std::vector<std::byte> out;
  const auto digit = [](char c) { return static_cast<unsigned>(c <= '9' ? c - '0' : c - 'a' + 10); };
  for (std::size_t i = 0; i + 1 < text.size(); i += 3)
    out.push_back(static_cast<std::byte>(digit(text[i]) << 4 | digit(text[i + 1])));
  return out;
}

/// The value encodes to exactly `bytes`, and reads back equal.
template <class T>
void expect_bytes(const T& value, std::string_view bytes) {
  EXPECT_EQ(bifrons::to_bytes(value), hex(bytes)) << bytes;
  EXPECT_EQ(bifrons::serialized_size(value), hex(bytes).size());
  const auto back = bifrons::try_from_bytes<T>(hex(bytes));
  ASSERT_TRUE(back) << bifrons::describe(back.code()) << " at byte " << back.offset();
  EXPECT_TRUE(*back == value);
}

constexpr char high(unsigned code_unit) { return static_cast<char>(code_unit); }

TEST(CharOrder, TheBuildTestsTheSignednessItClaims) {
#ifdef __CHAR_UNSIGNED__
  EXPECT_FALSE(std::is_signed_v<char>);
#else
  EXPECT_TRUE(std::is_signed_v<char>);
#endif
}

TEST(CharOrder, SetsOfCharAreInUnsignedCodeUnitOrder) {
  expect_bytes(std::set<char>{'a', high(0x80)}, "02 61 80");
  expect_bytes(std::set<char>{high(0xff), 'z', '\0', high(0x80), 'a'}, "05 00 61 7a 80 ff");
  expect_bytes(std::set<char, std::greater<>>{'a', high(0x80), '\0'}, "03 80 61 00");
  expect_bytes(std::set<char, std::greater<char>>{'a', high(0xe9)}, "02 e9 61");
  // Equal keys keep their order, as in every multiset.
  expect_bytes(std::multiset<char>{high(0x80), 'a', high(0x80), 'b'}, "04 61 62 80 80");
  // char8_t and std::byte are unsigned everywhere: their order never needed fixing.
  expect_bytes(std::set<char8_t>{u8'a', char8_t{0x80}}, "02 61 80");
}

TEST(CharOrder, EveryCodeUnitInOrder) {
  std::set<char> all;
  std::string expected = "80";  // count 256: 80 02
  expected += " 02";
  for (unsigned c = 0; c < 256; ++c) {
    all.insert(high(c));
    static constexpr char digits[] = "0123456789abcdef";
    expected += ' ';
    expected += digits[c >> 4];
    expected += digits[c & 15];
  }
  expect_bytes(all, expected);
}

TEST(CharOrder, MapsAndMultimapsOfChar) {
  // Keys: 'e' (65), U+00E9's Latin-1 byte (e9). Values are int32 varints: 1 -> 02, 2 -> 04.
  expect_bytes(std::map<char, std::int32_t>{{high(0xe9), 1}, {'e', 2}}, "02 65 04 e9 02");
  expect_bytes(std::multimap<char, std::string>{{high(0x80), "x"}, {'a', "y"}, {high(0x80), "z"}},
               "03 61 01 79 80 01 78 80 01 7a");
}

TEST(CharOrder, CharInsideCompositeKeys) {
  // The first element decides; then the second.
  expect_bytes(std::set<std::pair<char, std::int32_t>>{{high(0x80), 1}, {'a', 2}, {'a', 1}}, "03 61 02 61 04 80 02");
  expect_bytes(std::set<std::tuple<std::int32_t, char>>{{1, high(0x80)}, {1, 'a'}, {0, high(0xff)}},
               "03 00 ff 02 61 02 80");
  expect_bytes(std::set<std::array<char, 2>>{{'a', high(0x80)}, {'a', 'b'}, {high(0x81), 'a'}}, "03 61 62 61 80 81 61");
  // Sequences compare element by element, then by length.
  expect_bytes(std::set<std::vector<char>>{{high(0x80)}, {'a', 'b'}, {'a'}}, "03 01 61 02 61 62 01 80");
  // An empty optional orders first.
  expect_bytes(std::set<std::optional<char>>{high(0x90), std::nullopt, 'c'}, "03 00 01 63 01 90");
  // std::string compares unsigned chars on every host already.
  expect_bytes(std::set<std::string>{"\x80", "a"}, "02 01 61 01 80");
}

TEST(CharOrder, WideCharacterKeysAreInUnsigned32BitOrder) {
  // wchar_t is signed on Linux: L'\xffffffff' as -1 would come first. On the wire it is the code
  // unit 0xffffffff (ff ff ff ff 0f), ordered after 'a'.
  const auto minus_one = static_cast<wchar_t>(-1);
  expect_bytes(std::set<wchar_t>{minus_one, L'a'}, "02 61 ff ff ff ff 0f");
  expect_bytes(std::map<std::wstring, bool>{{std::wstring(1, minus_one), true}, {L"b", false}},
               "02 01 62 00 00 00 00 01 ff ff ff ff 01");
}

TEST(CharOrder, PointersTakeTheirIdsInTheCanonicalOrder) {
  // 'a' comes first on every host: it introduces the object (tag 1, id 1), 0x80 refers to it (tag 3).
  const auto seven = std::make_shared<std::int32_t>(7);
  const std::map<char, std::shared_ptr<std::int32_t>> shared{{high(0x80), seven}, {'a', seven}};
  EXPECT_EQ(bifrons::to_bytes(shared), hex("02 61 01 0e 80 03"));
  const auto back = bifrons::from_bytes<std::map<char, std::shared_ptr<std::int32_t>>>(hex("02 61 01 0e 80 03"));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back.at('a'), back.at(high(0x80)));
  EXPECT_EQ(*back.at('a'), 7);
}

TEST(CharOrder, ReadersAcceptTheOtherOrder) {
  // What x86 writers wrote before the order was fixed: still read, and written back canonically.
  const auto old = bifrons::from_bytes<std::set<char>>(hex("02 80 61"));
  EXPECT_EQ(old, (std::set<char>{'a', high(0x80)}));
  EXPECT_EQ(bifrons::to_bytes(old), hex("02 61 80"));
}

}  // namespace
