// Typed files (include/bifrons/frame.hpp, docs/format.md section 30): the framed golden files of
// tests/golden/framed/ (the cross stages run this under qemu), and every refusal of a framed
// reader with its code and offset.

#include <bifrons/frame.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
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
  const auto plain = bifrons::try_from_bytes<std::vector<std::int32_t>>(
      std::span<const std::byte>(unframed).first(unframed.size() - 2));
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

}  // namespace
