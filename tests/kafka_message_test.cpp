// <bifrons/detail/kafka_message.hpp>: the bytes of a Kafka message of <bifrons/kafka.hpp> and what a
// consumer does with one, without librdkafka or a broker (tests/kafka/ runs them against one). The
// golden file tests/golden/kafka/vector_int32.bin pins the fingerprint prefix down on every host
// the tests run on (docs/kafka.md, "The fingerprint prefix").
#include <bifrons/detail/kafka_message.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "golden_cases.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

namespace {

namespace kafka = bifrons::kafka;
using bifrons::errc;
using bytes = std::vector<std::byte>;

bytes load_golden(const std::string& name) {
  std::ifstream in(std::string(BIFRONS_TEST_DATA_DIR) + "/golden/kafka/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  const std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto* first = reinterpret_cast<const std::byte*>(content.data());
  return bytes(first, first + content.size());
}

// The fingerprint of schema<std::vector<std::int32_t>>(), spelled out: a change of the schema's
// canonical text or of the hash changes every producer's prefix, and fails here.
constexpr std::uint64_t vector_int32_fingerprint = 0x55eec7361a70e11du;

TEST(KafkaMessage, FingerprintsAreFnv1aOfTheSchemasText) {
  EXPECT_EQ(kafka::fingerprint(""), 0xcbf29ce484222325u);  // FNV-1a's offset basis
  EXPECT_EQ(kafka::fingerprint("a"), 0xaf63dc4c8601ec8cu);
  EXPECT_EQ(kafka::schema_fingerprint<std::vector<std::int32_t>>(), vector_int32_fingerprint);
  EXPECT_EQ(kafka::schema_id<std::vector<std::int32_t>>(), "55eec7361a70e11d");
  EXPECT_TRUE(kafka::is_schema_id("55eec7361a70e11d"));
  EXPECT_FALSE(kafka::is_schema_id("55EEC7361A70E11D"));
  EXPECT_FALSE(kafka::is_schema_id("../../etc/passwd"));
}

TEST(KafkaMessage, GoldenPrefixedValue) {
  // bf, the fingerprint most significant first, then framed/vector_int32.bin's bytes.
  golden::spec::bytes spec;
  spec.raw({0xbf, 0x55, 0xee, 0xc7, 0x36, 0x1a, 0x70, 0xe1, 0x1d});
  const bytes framed = golden::framed_vector::spec();
  spec.out.insert(spec.out.end(), framed.begin(), framed.end());
  const bytes file = load_golden("vector_int32.bin");
  EXPECT_EQ(file, spec.out);

  bytes written;
  kafka::detail::write_value(std::vector<std::int32_t>{1, -2}, kafka::fingerprint_placement::prefix, written);
  EXPECT_EQ(written, file);
  // The two other placements send the frame alone.
  for (const auto placement : {kafka::fingerprint_placement::header, kafka::fingerprint_placement::omit}) {
    bytes plain;
    kafka::detail::write_value(std::vector<std::int32_t>{1, -2}, placement, plain);
    EXPECT_EQ(plain, framed);
  }
}

/// One message through read_message: what it appended, or the dead letter (its schema id copied).
struct outcome {
  std::vector<kafka::message<std::vector<std::int32_t>, std::uint64_t>> batch;
  int letters = 0;
  kafka::dead_letter letter;
  std::string schema_id;
  int header_lookups = 0;
};

outcome read(std::span<const std::byte> key, std::span<const std::byte> value, std::span<const std::byte> header = {}) {
  outcome out;
  std::array<char, 16> id_text{};
  kafka::detail::read_message(
      kafka::detail::raw_message{"t", 2, 40, key, value},
      [&] {
        ++out.header_lookups;
        return header;
      },
      bifrons::read_options{}, out.batch,
      [&](const kafka::dead_letter& d) {
        ++out.letters;
        out.letter = d;
        out.schema_id = std::string(d.schema_id);
      },
      id_text);
  return out;
}

const bytes key7 = bifrons::to_bytes(std::uint64_t{7});

TEST(KafkaMessage, ConsumersReadEveryPlacementAndAskForNoHeaderToDoSo) {
  for (const auto placement : {kafka::fingerprint_placement::prefix, kafka::fingerprint_placement::header,
                               kafka::fingerprint_placement::omit}) {
    bytes value;
    kafka::detail::write_value(std::vector<std::int32_t>{1, -2, 300}, placement, value);
    const outcome r = read(key7, value);
    ASSERT_EQ(r.batch.size(), 1u);
    EXPECT_EQ(r.letters, 0);
    EXPECT_EQ(r.header_lookups, 0);
    EXPECT_EQ(r.batch[0].key, 7u);
    EXPECT_EQ(r.batch[0].value, (std::vector<std::int32_t>{1, -2, 300}));
    EXPECT_EQ(r.batch[0].topic, "t");
    EXPECT_EQ(r.batch[0].partition, 2);
    EXPECT_EQ(r.batch[0].offset, 40);
  }
}

TEST(KafkaMessage, AnotherTypeIsRefusedAtTheFramesNameAfterThePrefix) {
  bytes value;
  kafka::detail::write_value(std::string("not numbers"), kafka::fingerprint_placement::prefix, value);
  const outcome r = read(key7, value);
  EXPECT_TRUE(r.batch.empty());
  ASSERT_EQ(r.letters, 1);
  EXPECT_EQ(r.letter.part, kafka::message_part::value);
  EXPECT_EQ(r.letter.code, errc::type_mismatch);
  EXPECT_EQ(r.letter.error_offset, 14u);  // 9 of prefix, then the frame's magic and format
  EXPECT_EQ(r.schema_id, kafka::schema_id<std::string>());
  EXPECT_EQ(r.header_lookups, 0);  // the prefix names the writer's schema
  EXPECT_EQ(r.letter.message(), "t[2]@40: value: " + std::string(bifrons::describe(errc::type_mismatch)) + " at 14");

  const bytes plain = bifrons::to_framed(std::string("not numbers"));
  const outcome p = read(key7, plain);
  EXPECT_EQ(p.letter.code, errc::type_mismatch);
  EXPECT_EQ(p.letter.error_offset, 5u);
  EXPECT_EQ(p.header_lookups, 1);
  EXPECT_EQ(p.schema_id, "");
}

TEST(KafkaMessage, DeadLettersOffsetsCountFromTheValuesFirstByte) {
  bytes value;
  kafka::detail::write_value(std::vector<std::int32_t>{1, -2}, kafka::fingerprint_placement::prefix, value);
  for (std::size_t n = 0; n < value.size(); ++n) {
    const outcome r = read(key7, std::span(value).first(n));
    ASSERT_EQ(r.letters, 1) << n;
    EXPECT_LE(r.letter.error_offset, n) << n;
    if (n == 0) {
      EXPECT_EQ(r.letter.code, errc::not_bifrons);  // an empty value: a tombstone
    } else if (n < kafka::fingerprint_prefix_size) {
      EXPECT_EQ(r.letter.code, errc::unexpected_end) << n;
      EXPECT_EQ(r.letter.error_offset, n);
      EXPECT_EQ(r.schema_id, "");  // no whole fingerprint
    } else {
      EXPECT_EQ(r.schema_id, "55eec7361a70e11d") << n;
    }
  }
  // Neither form: not_bifrons at 0, whatever follows.
  bytes other = value;
  other[0] = std::byte{0x00};  // a Confluent value's magic
  EXPECT_EQ(read(key7, other).letter.code, errc::not_bifrons);
  EXPECT_EQ(read(key7, other).letter.error_offset, 0u);
  // A bad key: the key's dead letter, its offset in the key.
  const bytes bad_key(11, std::byte{0xff});
  const outcome k = read(bad_key, value);
  EXPECT_EQ(k.letter.part, kafka::message_part::key);
  EXPECT_EQ(k.letter.code, errc::malformed_varint);
  EXPECT_LE(k.letter.error_offset, bad_key.size());
  EXPECT_EQ(k.schema_id, "55eec7361a70e11d");
}

TEST(KafkaMessage, HeadersNameTheSchemaOfValuesWithoutThePrefix) {
  const bytes framed = bifrons::to_framed(std::string("x"));
  const auto fingerprint = kafka::detail::fingerprint_bytes(vector_int32_fingerprint);
  EXPECT_EQ(read(key7, framed, fingerprint).schema_id, "55eec7361a70e11d");  // 8 bytes
  const std::string hex = "0123456789abcdef";  // the first producers' 16 hex digits
  EXPECT_EQ(read(key7, framed, std::as_bytes(std::span(hex))).schema_id, hex);
  const std::string path = "../../etc/passwd";  // neither form: not passed on
  EXPECT_EQ(read(key7, framed, std::as_bytes(std::span(path))).schema_id, "");
  // A prefix wins over a header.
  bytes prefixed;
  kafka::detail::write_value(std::string("x"), kafka::fingerprint_placement::prefix, prefixed);
  EXPECT_EQ(read(key7, prefixed, fingerprint).schema_id, kafka::schema_id<std::string>());
}

TEST(KafkaMessage, WithoutADeadLetterHandlerAMessageThatFailsIsDropped) {
  std::vector<kafka::message<std::vector<std::int32_t>, std::uint64_t>> batch;
  std::array<char, 16> id_text{};
  const bytes bad(3, std::byte{0x01});
  kafka::detail::read_message(
      kafka::detail::raw_message{"t", 0, 1, key7, bad}, [] { return std::span<const std::byte>(); },
      bifrons::read_options{}, batch, nullptr, id_text);
  EXPECT_TRUE(batch.empty());
}

}  // namespace
