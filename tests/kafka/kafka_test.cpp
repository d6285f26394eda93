// <bifrons/kafka.hpp> against a real single-node Kafka broker on 127.0.0.1, which ctest starts
// before this test and stops after it (tests/kafka/CMakeLists.txt). Every wait is bounded.
#include <bifrons/kafka.hpp>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace v1 {
struct Account {
  std::uint64_t id = 0;
  std::string owner;
  std::int64_t balance_cents = 0;
};
}  // namespace v1

namespace v2 {
struct Account {
  std::uint64_t id = 0;
  std::string owner;
  std::int64_t balance_cents = 0;
  std::string currency = "EUR";   // appended in version 2
  std::vector<std::string> tags;  // appended in version 2
};
}  // namespace v2

namespace v3 {
struct Account {  // a breaking change: the balance became text
  std::uint64_t id = 0;
  std::string owner;
  std::string balance_cents;
};
}  // namespace v3

struct Unrelated {
  std::int32_t x = 0;
};

// One type in two versions: one name on the wire, as two programs built a year apart would have.
template <>
inline constexpr std::string_view bifrons::schema_name<v1::Account> = "bank.Account";
template <>
inline constexpr std::string_view bifrons::schema_name<v2::Account> = "bank.Account";
template <>
inline constexpr std::string_view bifrons::schema_name<v3::Account> = "bank.Account";

namespace {

namespace kafka = bifrons::kafka;
using namespace std::chrono_literals;
using bifrons::errc;

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) throw std::runtime_error(std::string(name) + " is not set (ctest sets it)");
  return value;
}

std::string bootstrap() {
  std::ifstream ports(environment("BIFRONS_KAFKA_BROKER_DIR") + "/ports");
  unsigned broker_port = 0;
  if (!(ports >> broker_port)) throw std::runtime_error("no broker ports file: is the broker started?");
  return "127.0.0.1:" + std::to_string(broker_port);
}

// A topic (and consumer group) of its own for every test, and for every run of it.
std::string unique(const std::string& what) {
  static int counter = 0;
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  return what + "-" + std::to_string(now) + "-" + std::to_string(++counter);
}

kafka::config producer_settings() { return {{"bootstrap.servers", bootstrap()}, {"linger.ms", "5"}}; }
kafka::config consumer_settings(const std::string& group) {
  return {{"bootstrap.servers", bootstrap()}, {"group.id", group}, {"session.timeout.ms", "6000"}};
}

// Polls until `count` messages arrived or `limit` passed, committing after each batch.
template <class Value, class Key>
std::vector<kafka::message<Value, Key>> consume(kafka::consumer<Value, Key>& in, std::size_t count,
                                                std::chrono::seconds limit = 60s) {
  std::vector<kafka::message<Value, Key>> all;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (all.size() < count && std::chrono::steady_clock::now() < deadline) {
    auto batch = in.poll(count - all.size(), 500ms);
    for (auto& m : batch) all.push_back(std::move(m));
    if (!batch.empty()) in.commit();
  }
  return all;
}

v2::Account account(std::uint64_t id) {
  return {id, "owner " + std::to_string(id), static_cast<std::int64_t>(id) * 100, "CHF", {"tag", std::to_string(id)}};
}
v1::Account old_account(std::uint64_t id) {
  return {id, "old owner " + std::to_string(id), -static_cast<std::int64_t>(id)};
}

// Bytes of our own, through librdkafka's producer: what a foreign or broken writer puts on a topic.
template <class Producer>
void produce_raw(Producer& out, const std::string& topic, const std::vector<std::byte>& key,
                 const std::vector<std::byte>& value, const std::string& schema_header = "") {
  RdKafka::Headers* headers = nullptr;
  if (!schema_header.empty()) {
    headers = RdKafka::Headers::create();
    headers->add(std::string(kafka::schema_header), schema_header);
  }
  const RdKafka::ErrorCode code = out.handle().produce(topic, RdKafka::Topic::PARTITION_UA,
                                                       RdKafka::Producer::RK_MSG_COPY,
                                                       const_cast<std::byte*>(value.data()), value.size(), key.data(),
                                                       key.size(), 0, headers, nullptr);
  if (code != RdKafka::ERR_NO_ERROR) delete headers;  // librdkafka took them only on success
  ASSERT_EQ(code, RdKafka::ERR_NO_ERROR) << RdKafka::err2str(code);
}

// Runs a shell command: its exit status and standard output.
std::pair<int, std::string> run(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}
std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

TEST(KafkaSchemas, FingerprintsNameSchemasAndDifferAcrossVersions) {
  const std::string& id1 = kafka::schema_id<v1::Account>();
  const std::string& id2 = kafka::schema_id<v2::Account>();
  EXPECT_EQ(id1.size(), 16u);
  EXPECT_EQ(id1.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(id1, id2);
  EXPECT_EQ(id1, kafka::schema_id(kafka::schema_fingerprint<v1::Account>()));
  EXPECT_EQ(kafka::schema_fingerprint<v1::Account>(), kafka::fingerprint(bifrons::schema<v1::Account>()));
  EXPECT_EQ(kafka::schema_id(0x0123456789abcdefu), "0123456789abcdef");
  // FNV-1a 64's published test values: the Python package computes the same.
  EXPECT_EQ(kafka::fingerprint(""), 0xcbf29ce484222325u);
  EXPECT_EQ(kafka::fingerprint("a"), 0xaf63dc4c8601ec8cu);
}

TEST(KafkaSchemas, PublishWritesOnceAndRefusesAnotherSchemaUnderTheSameName) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / unique("bifrons-schemas");
  const auto path = kafka::publish_schema<v2::Account>(dir);
  EXPECT_EQ(path, dir / (kafka::schema_id<v2::Account>() + ".json"));
  std::ifstream in(path);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_EQ(text, bifrons::schema<v2::Account>());
  EXPECT_EQ(kafka::publish_schema<v2::Account>(dir), path);  // already there: kept
  std::ofstream(path, std::ios::trunc) << "{}";
  EXPECT_THROW((void)kafka::publish_schema<v2::Account>(dir), std::runtime_error);
  std::filesystem::remove_all(dir);
}

TEST(KafkaClients, BadSettingsThrowNamingTheProperty) {
  try {
    kafka::producer<v2::Account> out({{"no.such.property", "1"}});
    FAIL() << "no exception";
  } catch (const kafka::kafka_error& e) {
    EXPECT_NE(std::string(e.what()).find("no.such.property"), std::string::npos) << e.what();
  }
}

TEST(KafkaClients, FlushNamesTheMessagesThatWereNotDelivered) {
  // Nothing listens on 127.0.0.1:1: librdkafka gives up on each message after message.timeout.ms.
  kafka::producer<v2::Account> out({{"bootstrap.servers", "127.0.0.1:1"}, {"message.timeout.ms", "300"}});
  for (std::uint64_t i = 0; i < 3; ++i) out.produce("nowhere", account(i));
  try {
    out.flush(20s);
    FAIL() << "no exception";
  } catch (const kafka::kafka_error& e) {
    EXPECT_EQ(e.code(), RdKafka::ERR__MSG_TIMED_OUT);
    EXPECT_NE(std::string(e.what()).find("3 messages not delivered"), std::string::npos) << e.what();
  }
  EXPECT_EQ(out.delivered(), 0u);
  out.flush(1s);  // the failures were reported once
}

TEST(KafkaBroker, ConsumersOfEitherVersionReadProducersOfBoth) {
  const std::string topic = unique("accounts");
  kafka::producer<v1::Account, std::uint64_t> old_out(producer_settings());
  kafka::producer<v2::Account, std::uint64_t> new_out(producer_settings());
  for (std::uint64_t i = 0; i < 10; ++i) {
    if (i % 2 == 0)
      old_out.produce(topic, i, old_account(i));
    else
      new_out.produce(topic, i, account(i));
    // Alternate the producers in the one partition: the consumers see the versions interleaved.
    (i % 2 == 0 ? static_cast<void>(old_out.flush(30s)) : new_out.flush(30s));
  }
  std::vector<std::string> dead;
  const auto on_dead = [&](const kafka::dead_letter& d) { dead.push_back(d.message()); };

  kafka::consumer<v2::Account, std::uint64_t> new_in(consumer_settings(unique("new")), {topic}, on_dead);
  const auto upgraded = consume(new_in, 10);
  ASSERT_EQ(upgraded.size(), 10u);
  for (std::uint64_t i = 0; i < 10; ++i) {
    const auto& m = upgraded[i];
    EXPECT_EQ(m.key, i);
    EXPECT_EQ(m.offset, static_cast<std::int64_t>(i));
    EXPECT_EQ(m.topic, topic);
    const v2::Account expected =
        i % 2 == 0 ? v2::Account{i, old_account(i).owner, old_account(i).balance_cents, "EUR", {}} : account(i);
    EXPECT_EQ(m.value.owner, expected.owner);
    EXPECT_EQ(m.value.balance_cents, expected.balance_cents);
    EXPECT_EQ(m.value.currency, expected.currency);  // v1's messages: the default, "EUR"
    EXPECT_EQ(m.value.tags, expected.tags);
  }

  kafka::consumer<v1::Account, std::uint64_t> old_in(consumer_settings(unique("old")), {topic}, on_dead);
  const auto downgraded = consume(old_in, 10);
  ASSERT_EQ(downgraded.size(), 10u);
  for (std::uint64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(downgraded[i].value.id, i);
    EXPECT_EQ(downgraded[i].value.owner, i % 2 == 0 ? old_account(i).owner : account(i).owner);
  }
  EXPECT_TRUE(dead.empty()) << dead.front();
}

TEST(KafkaBroker, PoisonMessagesReachTheDeadLetterHandlerAndTheGoodOnesAreConsumed) {
  const std::string topic = unique("poison");
  kafka::producer<v2::Account, std::uint64_t> out(producer_settings());
  kafka::producer<std::string, std::uint64_t> strings(producer_settings());
  const auto key_of = [](std::uint64_t k) { return bifrons::to_bytes(k); };
  auto truncated = bifrons::to_framed(account(99));
  truncated.pop_back();
  v2::Account many_tags = account(98);
  many_tags.tags.assign(100, "t");

  out.produce(topic, 0, account(0));                                                  // offset 0
  produce_raw(out, topic, key_of(1), {std::byte{'{'}, std::byte{'}'}}, "../../etc/passwd");  // 1: not bifrons
  out.produce(topic, 2, account(2));  // 2
  out.flush(30s);
  strings.produce(topic, 3, "a string, not an account");  // 3: another type
  strings.flush(30s);
  out.produce(topic, 4, account(4));  // 4
  produce_raw(out, topic, key_of(5), truncated);  // 5: cut short
  out.produce(topic, 6, account(6));  // 6
  produce_raw(out, topic, std::vector<std::byte>(11, std::byte{0xFF}), bifrons::to_framed(account(7)));  // 7: bad key
  out.produce(topic, 8, many_tags);  // 8: over the limit
  out.produce(topic, 9, account(9));  // 9
  out.flush(30s);

  struct letter {
    std::int64_t offset;
    kafka::message_part part;
    errc code;
    std::string schema_id;
    std::string text;
  };
  std::vector<letter> dead;
  bifrons::read_options limits;
  limits.max_elements = 10;
  kafka::consumer<v2::Account, std::uint64_t> in(
      consumer_settings(unique("poison")), {topic},
      [&](const kafka::dead_letter& d) {
        EXPECT_EQ(d.topic, topic);
        EXPECT_EQ(d.partition, 0);
        dead.push_back({d.offset, d.part, d.code, std::string(d.schema_id), d.message()});
      },
      limits);
  const auto good = consume(in, 5);
  ASSERT_EQ(good.size(), 5u);
  const std::int64_t good_offsets[] = {0, 2, 4, 6, 9};
  for (std::size_t i = 0; i < good.size(); ++i) {
    EXPECT_EQ(good[i].offset, good_offsets[i]);
    EXPECT_EQ(good[i].key, static_cast<std::uint64_t>(good_offsets[i]));
    EXPECT_EQ(good[i].value.owner, account(good[i].key).owner);
  }
  ASSERT_EQ(dead.size(), 5u);
  EXPECT_EQ(dead[0].offset, 1);
  EXPECT_EQ(dead[0].code, errc::not_bifrons);
  EXPECT_EQ(dead[0].schema_id, "");  // a header that is no fingerprint (a path here) is not passed on
  EXPECT_EQ(dead[1].offset, 3);
  EXPECT_EQ(dead[1].code, errc::type_mismatch);
  EXPECT_EQ(dead[1].schema_id, kafka::schema_id<std::string>());  // the writer's prefix
  EXPECT_EQ(dead[1].text, topic + "[0]@3: value: " + std::string(bifrons::describe(errc::type_mismatch)) +
                              " at 14");  // 9 of prefix, 5 of frame
  EXPECT_EQ(dead[2].offset, 5);
  EXPECT_EQ(dead[2].code, errc::unexpected_end);
  EXPECT_EQ(dead[2].schema_id, "");  // no header at all
  EXPECT_EQ(dead[3].offset, 7);
  EXPECT_EQ(dead[3].part, kafka::message_part::key);
  EXPECT_EQ(dead[3].code, errc::malformed_varint);
  EXPECT_EQ(dead[4].offset, 8);
  EXPECT_EQ(dead[4].part, kafka::message_part::value);
  EXPECT_EQ(dead[4].code, errc::element_limit_exceeded);
  EXPECT_EQ(dead[4].schema_id, kafka::schema_id<v2::Account>());
}

TEST(KafkaBroker, TheFingerprintTravelsInThePrefixInTheHeaderOrNowhere) {
  const std::string topic = unique("fingerprints");
  kafka::producer<v2::Account, std::uint64_t> with_header(producer_settings(), 30s,
                                                          kafka::fingerprint_placement::header);
  kafka::producer<v2::Account, std::uint64_t> without(producer_settings(), 30s, kafka::fingerprint_placement::omit);
  kafka::producer<v2::Account, std::uint64_t> with_prefix(producer_settings());  // the default
  kafka::producer<std::string, std::uint64_t> strings(producer_settings(), 30s, kafka::fingerprint_placement::omit);
  with_header.produce(topic, 0, account(0));  // offset 0
  with_header.flush(30s);
  without.produce(topic, 1, account(1));  // 1
  without.flush(30s);
  with_prefix.produce(topic, 2, account(2));  // 2
  with_prefix.flush(30s);
  strings.produce(topic, 3, "not an account");  // 3: a dead letter without a fingerprint
  strings.flush(30s);
  auto truncated = bifrons::to_framed(account(4));
  truncated.pop_back();
  produce_raw(with_header, topic, bifrons::to_bytes(std::uint64_t{4}), truncated,
              kafka::schema_id<v2::Account>());  // 4: the 16 hex digits of producers before 8-byte headers
  std::string seven_bytes(7, '\x01');
  produce_raw(with_header, topic, bifrons::to_bytes(std::uint64_t{5}), truncated, seven_bytes);  // 5: neither form
  std::vector<std::byte> prefixed_truncated;
  kafka::detail::write_value(account(6), kafka::fingerprint_placement::prefix, prefixed_truncated);
  prefixed_truncated.pop_back();
  // 6: the prefix names the writer's schema, whatever a header says
  produce_raw(with_header, topic, bifrons::to_bytes(std::uint64_t{6}), prefixed_truncated, std::string(8, '\x02'));
  // 7: a prefix cut short
  produce_raw(with_header, topic, bifrons::to_bytes(std::uint64_t{7}),
              std::vector<std::byte>(prefixed_truncated.begin(), prefixed_truncated.begin() + 5));
  with_header.flush(30s);

  // On the wire, read with librdkafka alone: the header of 8 bytes, most significant first; no
  // header and a plain frame; the prefix (0xbf, the same 8 bytes) before the frame.
  std::string error;
  const std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  for (const auto& [name, value] : consumer_settings(unique("raw")))
    ASSERT_EQ(conf->set(name, value, error), RdKafka::Conf::CONF_OK) << error;
  ASSERT_EQ(conf->set("auto.offset.reset", "earliest", error), RdKafka::Conf::CONF_OK) << error;
  const std::unique_ptr<RdKafka::KafkaConsumer> raw(RdKafka::KafkaConsumer::create(conf.get(), error));
  ASSERT_TRUE(raw) << error;
  ASSERT_EQ(raw->subscribe({topic}), RdKafka::ERR_NO_ERROR);
  std::vector<std::vector<RdKafka::Headers::Header>> headers;
  std::vector<std::string> values;
  for (const auto deadline = std::chrono::steady_clock::now() + 60s;
       headers.size() < 3 && std::chrono::steady_clock::now() < deadline;) {
    const std::unique_ptr<RdKafka::Message> m(raw->consume(500));
    if (m->err() != RdKafka::ERR_NO_ERROR) continue;
    headers.push_back(m->headers() != nullptr ? m->headers()->get_all() : std::vector<RdKafka::Headers::Header>{});
    values.emplace_back(static_cast<const char*>(m->payload()), m->len());
  }
  raw->close();
  ASSERT_EQ(headers.size(), 3u);
  std::string fingerprint(8, '\0');
  for (std::size_t i = 0; i < 8; ++i)
    fingerprint[i] = static_cast<char>(kafka::schema_fingerprint<v2::Account>() >> (56 - 8 * i) & 0xff);
  const std::vector<std::byte> framed = bifrons::to_framed(account(2));
  const std::string frame_of_2(reinterpret_cast<const char*>(framed.data()), framed.size());
  ASSERT_EQ(headers[0].size(), 1u);
  EXPECT_EQ(headers[0][0].key(), kafka::schema_header);
  EXPECT_EQ(std::string(static_cast<const char*>(headers[0][0].value()), headers[0][0].value_size()), fingerprint);
  EXPECT_EQ(values[0].substr(0, 4),
            "\x89"
            "bfr");
  EXPECT_TRUE(headers[1].empty());
  EXPECT_EQ(values[1].substr(0, 4),
            "\x89"
            "bfr");
  EXPECT_TRUE(headers[2].empty());
  EXPECT_EQ(values[2], "\xbf" + fingerprint + frame_of_2);

  // Readers never need the fingerprint; dead letters show it as 16 hex digits, from any form.
  std::vector<std::pair<std::int64_t, std::string>> dead;
  std::vector<std::size_t> error_offsets;
  kafka::consumer<v2::Account, std::uint64_t> in(consumer_settings(unique("fingerprints")), {topic},
                                                 [&](const kafka::dead_letter& d) {
                                                   dead.emplace_back(d.offset, std::string(d.schema_id));
                                                   error_offsets.push_back(d.error_offset);
                                                 });
  const auto good = consume(in, 3);
  ASSERT_EQ(good.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(good[i].value.owner, account(i).owner);
  for (const auto deadline = std::chrono::steady_clock::now() + 60s;
       dead.size() < 5 && std::chrono::steady_clock::now() < deadline;)
    (void)in.poll(10, 500ms);
  ASSERT_EQ(dead.size(), 5u);
  using letter = std::pair<std::int64_t, std::string>;
  EXPECT_EQ(dead[0], letter(3, ""));
  EXPECT_EQ(dead[1], letter(4, kafka::schema_id<v2::Account>()));
  EXPECT_EQ(dead[2], letter(5, ""));
  EXPECT_EQ(dead[3], letter(6, kafka::schema_id<v2::Account>()));
  EXPECT_EQ(dead[4], letter(7, ""));
  // Offsets count from the value's first byte: the cut is at the end of the value in both forms.
  EXPECT_EQ(error_offsets[1], truncated.size());
  EXPECT_EQ(error_offsets[3], prefixed_truncated.size());
  EXPECT_EQ(error_offsets[4], 5u);
}

TEST(KafkaBroker, EveryCutAndEveryCorruptByteIsAccountedForOnce) {
  // One message per position of a framed value and of its key: each cut short there, and each
  // with that byte set to 0xFF. The consumer hands out or dead-letters every offset exactly once,
  // and no cut message reads (the frame and the envelopes say how long a value is).
  const std::string topic = unique("mutations");
  kafka::producer<v2::Account, std::uint64_t> out(producer_settings());
  const std::vector<std::byte> value = bifrons::to_framed(account(300));
  const std::vector<std::byte> key = bifrons::to_bytes(std::uint64_t{300});
  std::vector<bool> cut;  // by offset
  for (std::size_t n = 0; n < value.size(); ++n) {
    produce_raw(out, topic, key, std::vector<std::byte>(value.begin(), value.begin() + static_cast<std::ptrdiff_t>(n)));
    cut.push_back(true);
    auto corrupt = value;
    corrupt[n] = std::byte{0xFF};
    produce_raw(out, topic, key, corrupt);
    cut.push_back(false);
  }
  for (std::size_t n = 0; n < key.size(); ++n) {
    auto corrupt = key;
    corrupt[n] = std::byte{0xFF};
    produce_raw(out, topic, corrupt, value);
    cut.push_back(false);
    produce_raw(out, topic, std::vector<std::byte>(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(n)), value);
    cut.push_back(true);
  }
  out.produce(topic, 301, account(301));  // a good one last: when it is read, all were
  out.flush(30s);

  std::vector<int> seen(cut.size() + 1, 0);
  std::vector<bool> dead(cut.size() + 1, false);
  kafka::consumer<v2::Account, std::uint64_t> in(consumer_settings(unique("mutations")), {topic},
                                                 [&](const kafka::dead_letter& d) {
                                                   ASSERT_GE(d.offset, 0);
                                                   ASSERT_LT(static_cast<std::size_t>(d.offset), seen.size());
                                                   EXPECT_NE(d.code, errc::ok);
                                                   ++seen[static_cast<std::size_t>(d.offset)];
                                                   dead[static_cast<std::size_t>(d.offset)] = true;
                                                 });
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (seen.back() == 0 && std::chrono::steady_clock::now() < deadline)
    for (const auto& m : in.poll(1000, 500ms)) {
      ASSERT_LT(static_cast<std::size_t>(m.offset), seen.size());
      ++seen[static_cast<std::size_t>(m.offset)];
    }
  for (std::size_t offset = 0; offset < seen.size(); ++offset) {
    EXPECT_EQ(seen[offset], 1) << "offset " << offset;
    if (offset < cut.size() && cut[offset]) {
      EXPECT_TRUE(dead[offset]) << "a cut message read, offset " << offset;
    }
  }
  EXPECT_FALSE(dead.back());
}

TEST(KafkaBroker, ConsumptionResumesAfterTheBrokerRestarts) {
  const std::string topic = unique("restart");
  kafka::producer<v2::Account, std::uint64_t> out(producer_settings());
  kafka::consumer<v2::Account, std::uint64_t> in(consumer_settings(unique("restart")), {topic}, nullptr);
  for (std::uint64_t i = 0; i < 20; ++i) out.produce(topic, i, account(i));
  out.flush(30s);
  auto got = consume(in, 20);
  ASSERT_EQ(got.size(), 20u);

  const std::string command = "'" + environment("BIFRONS_KAFKA_BROKER_SCRIPT") + "' restart '" +
                              environment("BIFRONS_KAFKA_BROKER_DIR") + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  // The same producer and consumer, across the restart: librdkafka reconnects both.
  for (std::uint64_t i = 20; i < 40; ++i) out.produce(topic, i, account(i));
  out.flush(60s);
  for (auto& m : consume(in, 20, 90s)) got.push_back(std::move(m));
  ASSERT_EQ(got.size(), 40u);
  for (std::uint64_t i = 0; i < 40; ++i) EXPECT_EQ(got[i].key, i);
}

TEST(KafkaBroker, CommittedOffsetsLoseAndRepeatNothingAcrossAConsumerRestart) {
  const std::string topic = unique("commits");
  const std::string group = unique("commits");
  constexpr std::uint64_t total = 300;
  kafka::producer<v2::Account, std::uint64_t> out(producer_settings());
  std::vector<std::pair<std::uint64_t, v2::Account>> batch;
  for (std::uint64_t i = 0; i < total; ++i) batch.emplace_back(i, account(i));
  out.produce_batch(topic, batch);
  out.flush(30s);
  EXPECT_EQ(out.delivered(), total);

  std::multiset<std::uint64_t> seen;
  {
    // The first consumer handles about a third, committing after each batch, and leaves.
    kafka::consumer<v2::Account, std::uint64_t> first(consumer_settings(group), {topic}, nullptr);
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (seen.size() < total / 3 && std::chrono::steady_clock::now() < deadline) {
      const auto polled = first.poll(25, 500ms);
      for (const auto& m : polled) seen.insert(m.key);
      if (!polled.empty()) first.commit();
    }
    ASSERT_GE(seen.size(), total / 3);
    ASSERT_LT(seen.size(), total);
    first.close();
  }
  // The second starts at the first's committed offsets.
  kafka::consumer<v2::Account, std::uint64_t> second(consumer_settings(group), {topic}, nullptr);
  for (const auto& m : consume(second, total - seen.size())) seen.insert(m.key);
  ASSERT_EQ(seen.size(), total);
  for (std::uint64_t i = 0; i < total; ++i) EXPECT_EQ(seen.count(i), 1u) << i;
  second.close();
  // A third member after one more message: the second committed all it read, so that one comes
  // first, and alone.
  out.produce(topic, total, account(total));
  out.flush(30s);
  kafka::consumer<v2::Account, std::uint64_t> third(consumer_settings(group), {topic}, nullptr);
  const auto rest = consume(third, 2, 8s);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].key, total);
  EXPECT_EQ(rest[0].offset, static_cast<std::int64_t>(total));
}

TEST(KafkaBroker, EveryMessageDecodesWithTheSchemaItsFingerprintNames) {
  // Producers of two versions publish their schemas into one directory and write to one topic.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / unique("bifrons-topic");
  const auto schemas = dir / "schemas";
  kafka::publish_schema<v1::Account>(schemas);
  kafka::publish_schema<v2::Account>(schemas);
  const std::string topic = unique("schemas");
  kafka::producer<v1::Account> old_out(producer_settings());
  kafka::producer<v2::Account> new_out(producer_settings());
  old_out.produce(topic, old_account(7));
  old_out.flush(30s);
  new_out.produce(topic, account(8));
  new_out.flush(30s);

  // A reader without either type (a consumer of another type sees every message as a dead
  // letter) keeps the bytes, and the tools decode each with the schema its fingerprint names:
  // the value's bytes 1 to 8, and the frame after them (docs/kafka.md).
  struct kept {
    std::string schema_id;
    std::filesystem::path file;
  };
  std::vector<kept> letters;
  kafka::consumer<Unrelated> in(consumer_settings(unique("schemas")), {topic}, [&](const kafka::dead_letter& d) {
    const auto file = dir / (std::to_string(d.offset) + ".bin");
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(d.value.data()), static_cast<std::streamsize>(d.value.size()));
    letters.push_back({std::string(d.schema_id), file});
  });
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (letters.size() < 2 && std::chrono::steady_clock::now() < deadline) EXPECT_TRUE(in.poll(10, 500ms).empty());
  ASSERT_EQ(letters.size(), 2u);
  EXPECT_EQ(letters[0].schema_id, kafka::schema_id<v1::Account>());
  EXPECT_EQ(letters[1].schema_id, kafka::schema_id<v2::Account>());

  const std::string owners[] = {old_account(7).owner, account(8).owner};
  for (std::size_t i = 0; i < 2; ++i) {
    // From the bytes alone, with the shell's tools: the fingerprint, and the frame after it.
    const auto [od_status, id] = run("od -An -tx1 -j1 -N8 " + quoted(letters[i].file) + " | tr -d ' \\n'");
    EXPECT_EQ(od_status, 0);
    EXPECT_EQ(id, letters[i].schema_id);
    const auto schema = schemas / (id + ".json");
    const std::filesystem::path frame = letters[i].file.string() + ".frame";
    EXPECT_EQ(run("tail -c +10 " + quoted(letters[i].file) + " > " + quoted(frame)).first, 0);
    const auto [inspect_status, json] =
        run("'" + environment("BIFRONS_INSPECT") + "' --schema " + quoted(schema) + " " + quoted(frame));
    EXPECT_EQ(inspect_status, 0);
    EXPECT_NE(json.find("\"owner\": \"" + owners[i] + "\""), std::string::npos) << json;
    const auto [python_status, owner] =
        run("PYTHONPATH='" + environment("BIFRONS_PYTHON_SOURCES") + "' '" + environment("BIFRONS_PYTHON") +
            "' -c 'import bifrons, sys; print(bifrons.load_schema(sys.argv[1]).decode_framed(open(sys.argv[2], "
            "\"rb\").read())[\"owner\"])' " +
            quoted(schema) + " " + quoted(frame));
    EXPECT_EQ(python_status, 0);
    EXPECT_EQ(owner, owners[i] + "\n");
  }

  // The pre-deploy check: the new schema against every schema the topic has seen.
  const std::string compat = "'" + environment("BIFRONS_COMPAT") + "' --framed --quiet ";
  const auto v1_file = schemas / (kafka::schema_id<v1::Account>() + ".json");
  const auto v2_file = schemas / (kafka::schema_id<v2::Account>() + ".json");
  const auto v3_file = kafka::publish_schema<v3::Account>(dir / "candidate");
  EXPECT_EQ(run(compat + quoted(v1_file) + " " + quoted(v2_file)).first, 0);
  EXPECT_EQ(run(compat + quoted(v1_file) + " " + quoted(v3_file)).first, 1);
  EXPECT_EQ(run(compat + quoted(v2_file) + " " + quoted(v3_file)).first, 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
