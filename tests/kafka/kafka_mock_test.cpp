// <bifrons/kafka.hpp>'s own code under AddressSanitizer and UndefinedBehaviorSanitizer (this test is
// built with them: tests/kafka/CMakeLists.txt), against librdkafka's mock cluster instead of a
// broker: the buffers the producer hands to librdkafka (RD_KAFKA_MSG_F_FREE) and keeps when a
// produce fails, the messages the consumer takes from librdkafka and releases, and exceptions out
// of poll(). The proof against a real broker is kafka_test; the per-message read is fuzzed
// (fuzz.kafka). Every wait is bounded.
#include <bifrons/kafka.hpp>
#include <gtest/gtest.h>
#include <librdkafka/rdkafka_mock.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace kafka = bifrons::kafka;
using namespace std::chrono_literals;
using bifrons::errc;

struct Account {
  std::uint64_t id = 0;
  std::string owner;
  std::vector<std::string> tags;
};

/// A mock cluster of one broker on 127.0.0.1, owned by a client of its own.
class mock_cluster {
 public:
  mock_cluster() {
    char error[256];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    owner_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);  // takes conf on success
    if (owner_ == nullptr) {
      rd_kafka_conf_destroy(conf);
      throw std::runtime_error(error);
    }
    cluster_ = rd_kafka_mock_cluster_new(owner_, 1);
    if (cluster_ == nullptr) throw std::runtime_error("no mock cluster");
  }
  mock_cluster(const mock_cluster&) = delete;
  mock_cluster& operator=(const mock_cluster&) = delete;
  ~mock_cluster() {
    rd_kafka_mock_cluster_destroy(cluster_);
    rd_kafka_destroy(owner_);
  }
  [[nodiscard]] std::string bootstrap() const { return rd_kafka_mock_cluster_bootstraps(cluster_); }
  void create_topic(const std::string& topic) const {
    ASSERT_EQ(rd_kafka_mock_topic_create(cluster_, topic.c_str(), 1, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  }

 private:
  rd_kafka_t* owner_ = nullptr;
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
};

Account account(std::uint64_t id) { return {id, "owner " + std::to_string(id), {"a", std::to_string(id)}}; }

TEST(KafkaMock, EveryPlacementAndEveryPoisonMessageIsAccountedFor) {
  mock_cluster cluster;
  const std::string topic = "accounts";
  cluster.create_topic(topic);
  const kafka::config settings{{"bootstrap.servers", cluster.bootstrap()}, {"linger.ms", "1"}};
  kafka::producer<Account, std::uint64_t> prefix(settings);
  kafka::producer<Account, std::uint64_t> header(settings, 30s, kafka::fingerprint_placement::header);
  kafka::producer<Account, std::uint64_t> omit(settings, 30s, kafka::fingerprint_placement::omit);
  kafka::producer<std::string, std::uint64_t> strings(settings);
  std::vector<std::pair<std::uint64_t, Account>> batch;
  for (std::uint64_t i = 0; i < 30; ++i) batch.emplace_back(i, account(i));
  prefix.produce_batch(topic, batch);  // offsets 0-29
  prefix.flush(30s);
  header.produce(topic, 30, account(30));
  header.flush(30s);
  omit.produce(topic, 31, account(31));
  omit.flush(30s);
  strings.produce(topic, 32, "not an account");  // 32: another type
  strings.flush(30s);
  std::vector<std::byte> cut;
  kafka::detail::write_value(account(33), kafka::fingerprint_placement::prefix, cut);
  cut.resize(cut.size() / 2);
  const std::vector<std::byte> key = bifrons::to_bytes(std::uint64_t{33});
  ASSERT_EQ(prefix.handle().produce(topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY, cut.data(),
                                    cut.size(), key.data(), key.size(), 0, nullptr, nullptr),
            RdKafka::ERR_NO_ERROR);  // 33: cut short
  prefix.produce(topic, 34, account(34));
  prefix.flush(30s);
  EXPECT_EQ(prefix.delivered(), 32u);  // the raw one too: delivery reports are the producer's

  std::vector<std::pair<std::int64_t, errc>> dead;
  kafka::consumer<Account, std::uint64_t> in({{"bootstrap.servers", cluster.bootstrap()}, {"group.id", "mock"}},
                                             {topic},
                                             [&](const kafka::dead_letter& d) { dead.emplace_back(d.offset, d.code); });
  std::vector<kafka::message<Account, std::uint64_t>> got;
  for (const auto deadline = std::chrono::steady_clock::now() + 60s;
       got.size() + dead.size() < 35 && std::chrono::steady_clock::now() < deadline;) {
    auto polled = in.poll(7, 200ms);
    for (auto& m : polled) got.push_back(std::move(m));
    if (!polled.empty()) in.commit();
  }
  in.close();
  ASSERT_EQ(got.size(), 33u);
  for (const auto& m : got) {
    EXPECT_EQ(m.value.owner, account(m.key).owner);
    EXPECT_EQ(m.offset, static_cast<std::int64_t>(m.key));
    EXPECT_EQ(m.topic, topic);
  }
  ASSERT_EQ(dead.size(), 2u);
  EXPECT_EQ(dead[0], std::make_pair(std::int64_t{32}, errc::type_mismatch));
  EXPECT_EQ(dead[1], std::make_pair(std::int64_t{33}, errc::unexpected_end));
}

TEST(KafkaMock, AThrowingDeadLetterHandlerEndsPollAndLeaksNothing) {
  mock_cluster cluster;
  const std::string topic = "poison";
  cluster.create_topic(topic);
  kafka::producer<std::string> strings({{"bootstrap.servers", cluster.bootstrap()}});
  strings.produce(topic, "a string");
  strings.flush(30s);
  kafka::consumer<Account> in({{"bootstrap.servers", cluster.bootstrap()}, {"group.id", "mock"}}, {topic},
                              [](const kafka::dead_letter&) { throw std::runtime_error("stop"); });
  bool thrown = false;
  for (const auto deadline = std::chrono::steady_clock::now() + 60s;
       !thrown && std::chrono::steady_clock::now() < deadline;) {
    try {
      EXPECT_TRUE(in.poll(10, 200ms).empty());
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "stop");
      thrown = true;
    }
  }
  EXPECT_TRUE(thrown);
}

TEST(KafkaMock, AProduceThatFailsKeepsAndFreesItsValue) {
  // Too large for message.max.bytes: librdkafka refuses it at once and the value stays ours.
  mock_cluster cluster;
  kafka::producer<Account> small({{"bootstrap.servers", cluster.bootstrap()}, {"message.max.bytes", "1000"}});
  Account large = account(1);
  large.tags.assign(1000, "tag");  // about 4 KB
  try {
    small.produce("t", large);
    FAIL() << "no exception";
  } catch (const kafka::kafka_error& e) {
    EXPECT_EQ(e.code(), RdKafka::ERR_MSG_SIZE_TOO_LARGE);
  }
  // A full queue and nowhere to deliver: produce() waits for room up to its timeout, then throws.
  kafka::producer<Account> stuck({{"bootstrap.servers", "127.0.0.1:1"},
                                  {"queue.buffering.max.messages", "1"},
                                  {"message.timeout.ms", "200"}},
                                 50ms);
  stuck.produce("t", account(1));
  try {
    stuck.produce("t", account(2));
    FAIL() << "no exception";
  } catch (const kafka::kafka_error& e) {
    EXPECT_EQ(e.code(), RdKafka::ERR__QUEUE_FULL);
  }
  EXPECT_THROW(stuck.flush(10s), kafka::kafka_error);  // the first one timed out
}

}  // namespace
