// Typed files (include/bifrons/frame.hpp, docs/format.md section 30): the framed golden files of
// tests/golden/framed/ (the cross stages run this under qemu), and every refusal of a framed
// reader with its code and offset.

#include <bifrons/frame.hpp>
#include <gtest/gtest.h>

#include <bifrons/detail/crc32c.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "golden_cases.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

namespace {

using bifrons::errc;

std::vector<std::byte> load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::transform(chars.begin(), chars.end(), bytes.begin(),
                 [](char c) { return std::byte(static_cast<unsigned char>(c)); });
  return bytes;
}

std::string golden_dir() { return std::string(BIFRONS_TEST_DATA_DIR) + "/golden"; }

template <class T, class Bytes>
std::string outcome(const Bytes& bytes) {
  const auto r = bifrons::try_from_framed<T>(bytes);
  return r ? std::string("ok") : std::string(bifrons::describe(r.code())) + " at " + std::to_string(r.offset());
}

template <class Case>
class Framed : public ::testing::Test {};

struct CaseName {
  template <class Case>
  static std::string GetName(int) {
    return Case::name;
  }
};

TYPED_TEST_SUITE(Framed, golden::framed_case_list<::testing::Types>, CaseName);

TYPED_TEST(Framed, FileHoldsTheFrameAndTheValue) {
  using T = typename TypeParam::type;
  const auto file = load(golden_dir() + "/framed/" + TypeParam::name + ".bin");
  EXPECT_EQ(file, TypeParam::spec());
  EXPECT_EQ(bifrons::to_framed(TypeParam::value()), file);
  EXPECT_TRUE(golden::same(bifrons::from_framed<T>(file), TypeParam::value()));
  const auto r = bifrons::try_from_framed<T>(file);
  ASSERT_TRUE(r.has_value()) << bifrons::describe(r.code()) << " at " << r.offset();
  EXPECT_TRUE(golden::same(*r, TypeParam::value()));
  // After the frame, the value's unframed bytes, unchanged.
  const auto frame = bifrons::read_frame(file);
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->format, 1u);
  EXPECT_EQ(frame->type_name, bifrons::frame_type_name<T>());
  EXPECT_EQ(std::vector<std::byte>(file.begin() + static_cast<std::ptrdiff_t>(frame->size), file.end()),
            bifrons::to_bytes(TypeParam::value()));
}

TEST(FrameNames, SchemaNamesForNamedTypesSpellingsForTheOthers) {
  EXPECT_EQ(bifrons::frame_type_name<golden::Account>(), "golden::Account");
  EXPECT_EQ(bifrons::frame_type_name<std::vector<std::int32_t>>(), "sequence<i32>");
  EXPECT_EQ((bifrons::frame_type_name<std::map<std::string, golden::RecPoint>>()),
            "map<string<char>, golden::RecPoint>");
  EXPECT_EQ(bifrons::frame_type_name<golden::Side>(), "golden::Side");
}

// ---- refusals ------------------------------------------------------------------------------------

struct UserProfile {
  std::string display_name;
};

TEST(FrameRefusals, AFileOfAnotherTypeIsATypeMismatch) {
  // The example: read as a UserProfile, an Account's bytes parse (the name is the first
  // field's string... here the id's varint and what follows) or fail obscurely; framed, they fail
  // at the frame's name.
  const auto framed = load(golden_dir() + "/framed/account.bin");
  EXPECT_EQ(outcome<UserProfile>(framed), "the frame names another type at 5");
  EXPECT_EQ(outcome<golden::Balance>(framed), "the frame names another type at 5");
  EXPECT_THROW((void)bifrons::from_framed<UserProfile>(framed), bifrons::error);
}

TEST(FrameRefusals, DataWithoutTheFrameIsNotBifrons) {
  const auto unframed = bifrons::to_bytes(golden::account::value());
  EXPECT_EQ(outcome<golden::Account>(unframed), "not bifrons data (no frame, or an unknown format version) at 0");
  EXPECT_EQ(outcome<golden::Account>(std::string("{\"id\": 42}")),
            "not bifrons data (no frame, or an unknown format version) at 0");
  EXPECT_EQ(outcome<golden::Account>(std::vector<std::byte>{}),
            "not bifrons data (no frame, or an unknown format version) at 0");
  EXPECT_EQ(outcome<golden::Account>(std::vector<std::byte>(bifrons::frame_magic.begin(),
                                                            bifrons::frame_magic.end() - 1)),
            "not bifrons data (no frame, or an unknown format version) at 0");
}

TEST(FrameRefusals, AnotherFormatVersionIsNotBifrons) {
  auto framed = load(golden_dir() + "/framed/vector_int32.bin");
  framed[4] = std::byte{2};
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(framed),
            "not bifrons data (no frame, or an unknown format version) at 4");
  framed[4] = std::byte{0x80};  // 80 00: a second spelling of 0
  framed[5] = std::byte{0x00};
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(framed), "malformed varint at 4");
}

TEST(FrameRefusals, BrokenFramesAndValuesReportTheirOffsetsFromTheFrame) {
  auto framed = load(golden_dir() + "/framed/vector_int32.bin");
  // The name's length beyond the input.
  auto long_name = framed;
  long_name[5] = std::byte{0x7F};
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(long_name), "unexpected end of input at 5");
  // The value's errors count from the frame's first byte: the count at 19 says 3, 8 bytes left.
  auto bad_count = framed;
  bad_count[19] = std::byte{3};
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(bad_count), "element count exceeds the remaining input at 19");
  try {
    (void)bifrons::from_framed<std::vector<std::int32_t>>(bad_count);
    FAIL() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::count_exceeds_input);
    EXPECT_EQ(e.offset(), 19u);
  }
  auto trailing = framed;
  trailing.push_back(std::byte{0});
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(trailing), "trailing bytes after the value at 28");
}

TEST(FrameRefusals, ATypeMismatchNamesBothTypes) {
  const auto framed = load(golden_dir() + "/framed/account.bin");
  const auto r = bifrons::try_from_framed<UserProfile>(framed);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.message(),
            "bifrons: the frame names another type at byte 5: the data holds \"golden::Account\", this program "
            "reads \"(anonymous)::UserProfile\"")
      << r.message();
  try {
    (void)bifrons::from_framed<UserProfile>(framed);
    FAIL() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(std::string(e.what()), r.message());
  }
}

// ---- what try_from_framed reports: all that try_from_bytes does -----------------------------------

struct Refuses {
  std::int32_t n = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(n);
    if (Archive::is_loading && n < 0) throw std::runtime_error("n must not be negative");
  }
};
struct HoldsRefuses {
  std::string label;
  Refuses inner;
};

TEST(FrameResults, CutShortReportsTheBytesMissing) {
  const auto framed = bifrons::to_framed(std::vector<std::int32_t>{1, 2, 3});
  const std::vector<std::byte> cut(framed.begin(), framed.end() - 2);
  const auto unframed = bifrons::to_bytes(std::vector<std::int32_t>{1, 2, 3});
  const auto plain =
      bifrons::try_from_bytes<std::vector<std::int32_t>>(std::span<const std::byte>(unframed).first(unframed.size() -
                                                                                                    2));
  const auto r = bifrons::try_from_framed<std::vector<std::int32_t>>(cut);
  ASSERT_FALSE(r);
  ASSERT_FALSE(plain);
  EXPECT_EQ(r.code(), errc::count_exceeds_input);  // 3 elements, 2 bytes short
  EXPECT_EQ(r.code(), plain.code());
  EXPECT_NE(r.bytes_missing(), 0u);
  EXPECT_EQ(r.bytes_missing(), plain.bytes_missing());
  EXPECT_EQ(r.offset(), plain.offset() + (framed.size() - unframed.size()));
}

TEST(FrameResults, AHooksExceptionKeepsItsTextAndItsOffsetMovesWithTheFrame) {
  const HoldsRefuses value{"abc", {-1}};
  const auto unframed = bifrons::to_bytes(value);
  const auto framed = bifrons::to_framed(value);
  const std::size_t frame_size = framed.size() - unframed.size();
  const auto plain = bifrons::try_from_bytes<HoldsRefuses>(unframed);
  const auto r = bifrons::try_from_framed<HoldsRefuses>(framed);
  ASSERT_FALSE(plain);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::user_error);
  EXPECT_EQ(plain.offset(), 5u);  // the inner envelope: after the outer one (1 byte) and the string (4)
  EXPECT_EQ(r.offset(), plain.offset() + frame_size);
  EXPECT_NE(r.message().find("n must not be negative"), std::string::npos) << r.message();
}

// ---- classes without a default constructor ---------------------------------------------------

class Token {
 public:
  explicit Token(std::int32_t id) : id_(id) {}
  [[nodiscard]] std::int32_t id() const { return id_; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id_);
  }
  template <class Archive>
  static Token load_and_construct(Archive& ar) {
    std::int32_t id = 0;
    ar(id);
    return Token(id);
  }

 private:
  std::int32_t id_;
};
struct Session {
  std::string user;
  std::vector<Token> tokens;
};

TEST(FrameConstruction, ClassesMadeByLoadAndConstructAreFramedInEveryPosition) {
  EXPECT_EQ(bifrons::frame_type_name<Token>(), "(anonymous)::Token");
  EXPECT_EQ(bifrons::frame_type_name<std::vector<Token>>(), "sequence<(anonymous)::Token>");
  const Token t = bifrons::from_framed<Token>(bifrons::to_framed(Token(7)));
  EXPECT_EQ(t.id(), 7);
  const auto s = bifrons::from_framed<Session>(bifrons::to_framed(Session{"ada", {Token(1), Token(2)}}));
  ASSERT_EQ(s.tokens.size(), 2u);
  EXPECT_EQ(s.tokens[1].id(), 2);
  const auto r = bifrons::try_from_framed<std::optional<Token>>(bifrons::to_framed(std::optional<Token>(Token(9))));
  ASSERT_TRUE(r) << r.message();
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ((*r)->id(), 9);
  // The root itself without a default constructor, through try_from_framed.
  const auto root = bifrons::try_from_framed<Token>(bifrons::to_framed(Token(3)));
  ASSERT_TRUE(root) << root.message();
  EXPECT_EQ(root->id(), 3);
}

namespace collide::v1 {
struct Item {
  std::int32_t a = 0;
};
}  // namespace collide::v1
namespace collide::v2 {
struct Item {
  std::string a;
};
}  // namespace collide::v2
}  // namespace
template <>
inline constexpr std::string_view bifrons::schema_name<collide::v1::Item> = "shop.Item";
template <>
inline constexpr std::string_view bifrons::schema_name<collide::v2::Item> = "shop.Item";
namespace {

TEST(FrameNames, TwoTypesOfOneSchemaNameInOneFrameAreRefused) {
  // As schema<T>() refuses them: a frame's name must say one type.
  using Both = std::pair<collide::v1::Item, collide::v2::Item>;
  EXPECT_THROW((void)bifrons::schema<Both>(), std::logic_error);
  EXPECT_THROW((void)bifrons::to_framed(Both{}), std::logic_error);
}

TEST(FrameRefusals, CodesAreStable) {
  EXPECT_EQ(static_cast<int>(errc::not_bifrons), 24);
  EXPECT_EQ(static_cast<int>(errc::type_mismatch), 25);
  EXPECT_STRNE(bifrons::describe(errc::not_bifrons), bifrons::describe(errc::type_mismatch));
  EXPECT_STRNE(bifrons::describe(errc::type_mismatch), "unknown error");
}

TEST(FrameWriting, AppendsToAContainer) {
  std::string out = "xy";
  bifrons::to_framed(golden::framed_vector::value(), out);
  const auto spec = golden::framed_vector::spec();
  ASSERT_EQ(out.size(), 2 + spec.size());
  EXPECT_TRUE(std::equal(spec.begin(), spec.end(), reinterpret_cast<const std::byte*>(out.data()) + 2));
}

// ---- checksummed frames --------------------------------------------------------------------------

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> out(text.size());
  std::transform(text.begin(), text.end(), out.begin(),
                 [](char c) { return std::byte(static_cast<unsigned char>(c)); });
  return out;
}

TEST(Crc32c, StandardCheckValues) {
  // RFC 3720 (iSCSI), appendix B.4, and the "123456789" check value of the CRC catalogue.
  const auto digits = bytes_of("123456789");
  EXPECT_EQ(bifrons::detail::crc32c(0, digits.data(), digits.size()), 0xe3069283u);
  EXPECT_EQ(bifrons::detail::crc32c_portable(0, digits.data(), digits.size()), 0xe3069283u);
  const std::vector<std::byte> zeros(32, std::byte{0});
  const std::vector<std::byte> ones(32, std::byte{0xff});
  EXPECT_EQ(bifrons::detail::crc32c(0, zeros.data(), zeros.size()), 0x8a9136aau);
  EXPECT_EQ(bifrons::detail::crc32c(0, ones.data(), ones.size()), 0x62a8ab43u);
  EXPECT_EQ(bifrons::detail::crc32c(0, nullptr, 0), 0u);
}

TEST(Crc32c, TheHostsImplementationEqualsTheTableAtEveryLengthAndAlignment) {
  std::mt19937 random(35);
  // Past 3 * 1536 bytes: the three-stream path's whole blocks, its shorter streams and the rest.
  std::vector<std::byte> data(5000);
  for (auto& b : data) b = static_cast<std::byte>(random());
  for (std::size_t start = 0; start < 9; ++start)
    for (std::size_t n = 0; start + n <= data.size(); n += (n < 80 ? 1 : 37)) {
      const std::uint32_t table = bifrons::detail::crc32c_portable(0, data.data() + start, n);
      ASSERT_EQ(bifrons::detail::crc32c(0, data.data() + start, n), table)
          << bifrons::detail::crc32c_implementation() << " at " << start << ", " << n << " bytes";
#if BIFRONS_CRC32C_X86
      // The one-stream instruction path, which hosts without PCLMULQDQ take.
      if (bifrons::detail::cpu_has_sse42()) {
        ASSERT_EQ(bifrons::detail::crc32c_sse42(0, data.data() + start, n), table) << start << ", " << n << " bytes";
      }
#endif
      // Continuing a CRC over a split gives the CRC of the whole.
      const std::size_t half = n / 3;
      ASSERT_EQ(bifrons::detail::crc32c(bifrons::detail::crc32c(0, data.data() + start, half),
                                        data.data() + start + half, n - half),
                table);
    }
}

TEST(Crc32c, EachOfSeveralBuffersEqualsItsOwnCrc) {
  // crc32c_each runs four buffers in lockstep over their common length, then each one's rest
  // (under 8, 8 to 15, or 16 and more bytes): every mix of lengths 0 to 40 and longer ones.
  std::mt19937 random(37);
  std::vector<std::byte> data(6000);
  for (auto& b : data) b = static_cast<std::byte>(random());
  const std::size_t sizes[] = {0, 1, 3, 4, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31, 40, 120, 1000, 4999};
  for (std::size_t trial = 0; trial < 3000; ++trial) {
    const std::size_t count = trial % 11;
    const std::byte* p[10];
    std::size_t n[10];
    std::uint32_t out[10];
    for (std::size_t k = 0; k < count; ++k) {
      n[k] = sizes[random() % std::size(sizes)];
      p[k] = data.data() + random() % (data.size() - n[k]);
    }
    bifrons::detail::crc32c_each(count, p, n, out);
    for (std::size_t k = 0; k < count; ++k)
      ASSERT_EQ(out[k], bifrons::detail::crc32c_portable(0, p[k], n[k])) << trial << ", " << k << ": " << n[k];
  }
}

TEST(Crc32c, ZeroBytePowersJoinTheCrcsOfTwoPartsAsAppendingDoes) {
  // What log resynchronisation relies on: the register after a then b is a's register times
  // x^(8 |b|) plus b's register from 0, for |b| from 0 to past 2^32 (the last only as powers).
  std::mt19937 random(36);
  std::vector<std::byte> data(3000);
  for (auto& b : data) b = static_cast<std::byte>(random());
  for (std::size_t split : {0u, 1u, 7u, 100u, 1499u}) {
    for (std::size_t n = 0; split + n <= data.size(); n += (n < 70 ? 1 : 53)) {
      const std::uint32_t a = ~bifrons::detail::crc32c(0, data.data(), split);  // registers
      const std::uint32_t b = ~bifrons::detail::crc32c(~0u, data.data() + split, n);
      const std::uint32_t whole = ~bifrons::detail::crc32c(0, data.data(), split + n);
      ASSERT_EQ(bifrons::detail::crc32c_multiply(a, bifrons::detail::crc32c_zero_bytes(n)) ^ b, whole)
          << split << ", " << n;
    }
  }
  // x^(8 (m + n)) = x^(8 m) x^(8 n), and appending zero bytes one at a time agrees.
  std::uint32_t reg = 0x12345678u;
  for (std::uint64_t n = 0; n < 300; ++n) {
    ASSERT_EQ(bifrons::detail::crc32c_multiply(0x12345678u, bifrons::detail::crc32c_zero_bytes(n)), reg) << n;
    const std::byte zero{0};
    reg = ~bifrons::detail::crc32c(~reg, &zero, 1);
  }
  const std::uint64_t big = (std::uint64_t{1} << 32) + 12345;
  EXPECT_EQ(bifrons::detail::crc32c_zero_bytes(big + 777),
            bifrons::detail::crc32c_multiply(bifrons::detail::crc32c_zero_bytes(big),
                                             bifrons::detail::crc32c_zero_bytes(777)));
}

const auto crc32c = bifrons::frame_checksum::crc32c;

TEST(FrameChecksum, GoldenFileHoldsTheFrameTheValueAndTheChecksum) {
  const auto file = load(golden_dir() + "/framed_crc32c/vector_int32.bin");
  const std::vector<std::int32_t> value{1, -2};
  EXPECT_EQ(bifrons::to_framed(value, crc32c), file);
  // The plain frame with format word 0x11 instead of 1, then LE32 CRC32C of all bytes before it.
  auto plain = bifrons::to_framed(value);
  plain[4] = std::byte{0x11};
  ASSERT_EQ(file.size(), plain.size() + 4);
  EXPECT_TRUE(std::equal(plain.begin(), plain.end(), file.begin()));
  const std::uint32_t crc = bifrons::detail::crc32c_portable(0, file.data(), plain.size());
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(file[plain.size() + i], static_cast<std::byte>(crc >> (8 * i))) << "checksum byte " << i;
  EXPECT_EQ(bifrons::from_framed<std::vector<std::int32_t>>(file), value);
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(file), "ok");
  const auto frame = bifrons::read_frame(file);
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->checksum, crc32c);
  EXPECT_EQ(frame->format, 1u);
  // Frames without the option keep their bytes (the golden files of framed/ check the rest).
  EXPECT_EQ(bifrons::to_framed(value), load(golden_dir() + "/framed/vector_int32.bin"));
}

TEST(FrameChecksum, AReaderThatPredatesItSeesAnUnknownFormatVersion) {
  // A format-1-only reader compares the format word with 1: 0x11 is refused with not_bifrons at
  // 4, the refusal of section 30 for a version it does not know. Unknown flags are refused here.
  auto file = load(golden_dir() + "/framed_crc32c/vector_int32.bin");
  EXPECT_EQ(file[4], std::byte{0x11});
  file[4] = std::byte{0x21};
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(file), "not bifrons data (no frame, or an unknown format version) at 4");
  file[4] = std::byte{0x10};
  EXPECT_EQ(outcome<std::vector<std::int32_t>>(file), "not bifrons data (no frame, or an unknown format version) at 4");
}

TEST(FrameChecksum, EverySingleBitFlipIsRefused) {
  const auto file = bifrons::to_framed(golden::account::value(), crc32c);
  ASSERT_EQ(bifrons::from_framed<golden::Account>(file), golden::account::value());
  const std::size_t checksum_at = file.size() - 4;
  std::size_t mismatches = 0;
  for (std::size_t bit = 0; bit < 8 * file.size(); ++bit) {
    auto damaged = file;
    damaged[bit / 8] ^= std::byte{static_cast<unsigned char>(1u << (bit % 8))};
    const auto r = bifrons::try_from_framed<golden::Account>(damaged);
    ASSERT_FALSE(r.has_value()) << "bit " << bit << " flipped was read as a value";
    EXPECT_THROW((void)bifrons::from_framed<golden::Account>(damaged), bifrons::error);
    if (bit / 8 >= 6) {  // after the magic, the format word and the name's length
      EXPECT_EQ(r.code(), errc::checksum_mismatch) << "bit " << bit;
      EXPECT_EQ(r.offset(), checksum_at) << "bit " << bit;
    }
    mismatches += r.code() == errc::checksum_mismatch;
  }
  EXPECT_GE(mismatches, 8 * (file.size() - 6));
}

TEST(FrameChecksum, EveryTruncationIsRefused) {
  const auto file = bifrons::to_framed(golden::account::value(), crc32c);
  for (std::size_t n = 0; n < file.size(); ++n) {
    const std::vector<std::byte> cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(n));
    const auto r = bifrons::try_from_framed<golden::Account>(cut);
    ASSERT_FALSE(r.has_value()) << n << " bytes";
  }
  // Room for the frame but not the checksum: unexpected_end at the end, with what is missing.
  const auto frame = bifrons::read_frame(file);
  ASSERT_TRUE(frame.has_value());
  const std::vector<std::byte> header_only(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(frame->size + 1));
  const auto r = bifrons::try_from_framed<golden::Account>(header_only);
  EXPECT_EQ(r.code(), errc::unexpected_end);
  EXPECT_EQ(r.offset(), frame->size + 1);
  EXPECT_EQ(r.bytes_missing(), 3u);
}

TEST(FrameChecksum, TheErrorNamesTheChecksum) {
  auto file = load(golden_dir() + "/framed_crc32c/vector_int32.bin");
  file[20] ^= std::byte{1};
  try {
    (void)bifrons::from_framed<std::vector<std::int32_t>>(file);
    FAIL() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::checksum_mismatch);
    EXPECT_EQ(e.offset(), 28u);
    EXPECT_STREQ(e.what(), "bifrons: checksum mismatch (the data is damaged) at byte 28");
  }
  EXPECT_EQ(static_cast<int>(errc::checksum_mismatch), 29);
}

TEST(FrameChecksum, AppendsToAContainer) {
  std::string out = "xy";
  bifrons::to_framed(std::vector<std::int32_t>{1, -2}, out, crc32c);
  const auto file = load(golden_dir() + "/framed_crc32c/vector_int32.bin");
  ASSERT_EQ(out.size(), 2 + file.size());
  EXPECT_TRUE(std::equal(file.begin(), file.end(), reinterpret_cast<const std::byte*>(out.data()) + 2));
}

}  // namespace
