// SPDX-License-Identifier: MIT
#pragma once
// Kafka topics of bifrons messages, on librdkafka's C++ API (rdkafkacpp.h; link rdkafka++).
// Opt-in: nothing else in bifrons includes this header, and only programs that include it need
// librdkafka (README, "Kafka").
//
//   bifrons::kafka::producer<Account, AccountId> out({{"bootstrap.servers", "127.0.0.1:9092"}});
//   out.produce("accounts", id, account);
//   out.flush(std::chrono::seconds(10));
//
//   bifrons::kafka::consumer<Account, AccountId> in(
//       {{"bootstrap.servers", "127.0.0.1:9092"}, {"group.id", "billing"}}, {"accounts"},
//       [](const bifrons::kafka::dead_letter& d) { log(d.message()); });
//   for (auto& m : in.poll(500, std::chrono::seconds(1))) use(m.key, m.value);
//   in.commit();
//
// A message's value is the writer's schema fingerprint (a magic byte and 8 bytes) followed by a
// framed bifrons message (frame.hpp), so a consumer of another type refuses it at the frame; its
// key is the key's plain bifrons bytes (canonical, so that equal keys hash to one partition and
// compact together). The fingerprint is in the value rather than in a header because librdkafka
// allocates every message's headers (docs/kafka.md, "The fingerprint prefix"); consumers also
// read values without it, fingerprinted by the header "bifrons-schema" or not at all. The bytes
// and the per-message read are in detail/kafka_message.hpp. Messages that fail to read go to the
// dead-letter handler, and consumption continues.

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <ranges>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "detail/kafka_message.hpp"
#include "frame.hpp"
#include "read_options.hpp"
#include "schema.hpp"

#if !BIFRONS_HAS_EXCEPTIONS
#error "bifrons: <bifrons/kafka.hpp> reports broker and configuration failures with exceptions; build with them"
#endif

namespace bifrons::kafka {

/// librdkafka's configuration properties (CONFIGURATION.md of librdkafka), by name.
using config = std::map<std::string, std::string>;

/// A broker, client or configuration failure; code() is librdkafka's.
class kafka_error : public std::runtime_error {
 public:
  kafka_error(RdKafka::ErrorCode code, const std::string& what)
      : std::runtime_error("bifrons::kafka: " + what + " (" + RdKafka::err2str(code) + ")"), code_(code) {}
  [[nodiscard]] RdKafka::ErrorCode code() const noexcept { return code_; }

 private:
  RdKafka::ErrorCode code_;
};

/// Writes T's schema to directory/<schema_id<T>()>.json unless it is there, and returns that path:
/// the schema directory beside a topic (docs/kafka.md), from which bifrons-inspect and the Python
/// package decode any message by its fingerprint. The file appears whole (written beside it, then
/// renamed), so producers that start together may all call this. Throws std::runtime_error if
/// the file holds another schema (two schemas with one fingerprint) or cannot be written.
template <class T>
std::filesystem::path publish_schema(const std::filesystem::path& directory) {
  const std::string text = schema<T>();
  const std::filesystem::path path = directory / (schema_id<T>() + ".json");
  std::filesystem::create_directories(directory);
  if (std::filesystem::exists(path)) {
    std::ifstream in(path, std::ios::binary);
    const std::string existing{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (existing != text)
      throw std::runtime_error("bifrons::kafka: " + path.string() + " holds another schema with the fingerprint of " +
                               frame_type_name<T>() + "'s");
    return path;
  }
  std::filesystem::path temporary = path;
  temporary += ".tmp" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  {
    std::ofstream out(temporary, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out.flush()) throw std::runtime_error("bifrons::kafka: cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, path);
  return path;
}

namespace detail {

/// A byte buffer from malloc that hands its storage to librdkafka (RK_MSG_FREE, which frees it
/// with free()): the framed value is written once, where librdkafka sends it from.
class malloc_bytes {
 public:
  using value_type = std::byte;
  malloc_bytes() = default;
  malloc_bytes(const malloc_bytes&) = delete;
  malloc_bytes& operator=(const malloc_bytes&) = delete;
  ~malloc_bytes() { std::free(data_); }

  void reserve(std::size_t capacity) {
    if (capacity <= capacity_) return;
    void* grown = std::realloc(data_, capacity);
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<std::byte*>(grown);
    capacity_ = capacity;
  }
  void resize(std::size_t size) {
    if (size > capacity_) reserve(std::max(size, capacity_ + capacity_ / 2));
    size_ = size;
  }
  [[nodiscard]] std::byte* data() noexcept { return data_; }
  [[nodiscard]] const std::byte* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  /// Gives up the storage (librdkafka owns it now).
  void release() noexcept { data_ = nullptr, size_ = 0, capacity_ = 0; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

inline std::unique_ptr<RdKafka::Conf> make_conf(const config& settings) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string error;
  for (const auto& [name, value] : settings)
    if (conf->set(name, value, error) != RdKafka::Conf::CONF_OK)
      throw kafka_error(RdKafka::ERR__INVALID_ARG, "configuration property " + name + ": " + error);
  return conf;
}

inline std::span<const std::byte> bytes_of(const void* data, std::size_t size) noexcept {
  return {static_cast<const std::byte*>(data), data == nullptr ? 0 : size};
}

}  // namespace detail

/// Writes framed Values, keyed by Key (no_key: no key), after their schema fingerprint (placement).
/// librdkafka batches them (linger.ms, batch.size); produce() returns when a message is queued.
/// Not thread-safe: one producer per thread, or a lock around it.
template <class Value, class Key = no_key>
class producer {
 public:
  /// settings: librdkafka's properties (bootstrap.servers at least). queue_timeout: how long
  /// produce() waits for room when librdkafka's queue is full (queue.buffering.max.messages).
  explicit producer(const config& settings, std::chrono::milliseconds queue_timeout = std::chrono::seconds(30),
                    fingerprint_placement placement = fingerprint_placement::prefix)
      : queue_timeout_(queue_timeout), placement_(placement) {
    std::unique_ptr<RdKafka::Conf> conf = detail::make_conf(settings);
    std::string error;
    if (conf->set("dr_cb", &reports_, error) != RdKafka::Conf::CONF_OK)
      throw kafka_error(RdKafka::ERR__INVALID_ARG, "dr_cb: " + error);
    producer_.reset(RdKafka::Producer::create(conf.get(), error));
    if (!producer_) throw kafka_error(RdKafka::ERR__INVALID_ARG, "creating the producer: " + error);
  }
  /// producer({{"bootstrap.servers", "..."}}): a braced list of settings (the copy constructor
  /// would make that call ambiguous).
  explicit producer(std::initializer_list<config::value_type> settings,
                    std::chrono::milliseconds queue_timeout = std::chrono::seconds(30),
                    fingerprint_placement placement = fingerprint_placement::prefix)
      : producer(config(settings), queue_timeout, placement) {}
  producer(const producer&) = delete;
  producer& operator=(const producer&) = delete;
  /// Waits up to 10 s for queued messages to be delivered; call flush() to know they were.
  ~producer() {
    if (producer_) producer_->flush(10'000);
  }

  /// Queues value for topic, with no key.
  void produce(const std::string& topic, const Value& value)
    requires std::same_as<Key, no_key>
  {
    send(topic, {}, value);
  }
  /// Queues value for topic, with key (its plain bifrons bytes: librdkafka's partitioner hashes them).
  void produce(const std::string& topic, const Key& key, const Value& value)
    requires(!std::same_as<Key, no_key>)
  {
    key_bytes_.clear();
    to_bytes(key, key_bytes_);
    send(topic, key_bytes_, value);
  }
  /// Queues every element of messages: Values, or (Key, Value) pairs for a keyed producer.
  template <std::ranges::input_range Messages>
  void produce_batch(const std::string& topic, const Messages& messages) {
    for (const auto& message : messages) {
      if constexpr (std::same_as<Key, no_key>) {
        produce(topic, message);
      } else {
        const auto& [key, value] = message;
        produce(topic, key, value);
      }
    }
  }

  /// Waits up to timeout until every queued message is delivered or failed. Throws kafka_error if
  /// messages are still queued then, or if any message failed since the last flush (librdkafka
  /// retried it until message.timeout.ms), naming how many.
  void flush(std::chrono::milliseconds timeout) {
    const RdKafka::ErrorCode code =
        producer_->flush(static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(timeout.count(), 0,
                                                                                     std::numeric_limits<int>::max())));
    if (code != RdKafka::ERR_NO_ERROR)
      throw kafka_error(code, std::to_string(producer_->outq_len()) + " messages still queued after flush");
    if (reports_.failed != 0) {
      const std::uint64_t failed = std::exchange(reports_.failed, 0);
      throw kafka_error(std::exchange(reports_.first_error, RdKafka::ERR_NO_ERROR),
                        std::to_string(failed) + " messages not delivered");
    }
  }
  /// Messages the broker acknowledged since the producer started.
  [[nodiscard]] std::uint64_t delivered() const noexcept { return reports_.delivered; }
  /// librdkafka's producer, for what this class does not wrap (its delivery reports are ours).
  [[nodiscard]] RdKafka::Producer& handle() noexcept { return *producer_; }

 private:
  struct delivery_reports : RdKafka::DeliveryReportCb {
    void dr_cb(RdKafka::Message& message) override {
      if (message.err() == RdKafka::ERR_NO_ERROR) {
        ++delivered;
      } else {
        if (failed++ == 0) first_error = message.err();
      }
    }
    std::uint64_t delivered = 0;
    std::uint64_t failed = 0;
    RdKafka::ErrorCode first_error = RdKafka::ERR_NO_ERROR;
  };

  // Through the C API's rd_kafka_produceva: the C++ produce() copies the topic's name and makes a
  // Headers object for every message.
  void send(const std::string& topic, std::span<const std::byte> key, const Value& value) {
    detail::malloc_bytes payload;
    detail::write_value(value, placement_, payload);
    rd_kafka_vu_t parts[5] = {};
    std::size_t part_count = 0;
    parts[part_count].vtype = RD_KAFKA_VTYPE_TOPIC;
    parts[part_count++].u.cstr = topic.c_str();
    // RD_KAFKA_MSG_F_FREE: librdkafka takes the buffer on success; on failure it stays ours.
    parts[part_count].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
    parts[part_count++].u.i = RD_KAFKA_MSG_F_FREE;
    parts[part_count].vtype = RD_KAFKA_VTYPE_VALUE;
    parts[part_count++].u.mem = {payload.data(), payload.size()};
    if (placement_ == fingerprint_placement::header) {
      static const std::array<std::byte, 8> id = detail::fingerprint_bytes(schema_fingerprint<Value>());
      parts[part_count].vtype = RD_KAFKA_VTYPE_HEADER;  // librdkafka copies the header's name and value
      parts[part_count++].u.header = {schema_header.data(), id.data(), static_cast<ssize_t>(id.size())};
    }
    if (!key.empty()) {
      parts[part_count].vtype = RD_KAFKA_VTYPE_KEY;  // librdkafka copies the key
      parts[part_count++].u.mem = {const_cast<std::byte*>(key.data()), key.size()};
    }
    std::chrono::steady_clock::time_point deadline{};  // read the clock only when the queue is full
    for (;;) {
      rd_kafka_error_t* error = rd_kafka_produceva(producer_->c_ptr(), parts, part_count);
      if (error == nullptr) {
        payload.release();
        producer_->poll(0);  // serves delivery reports
        return;
      }
      const auto code = static_cast<RdKafka::ErrorCode>(rd_kafka_error_code(error));
      rd_kafka_error_destroy(error);
      if (code == RdKafka::ERR__QUEUE_FULL && deadline == std::chrono::steady_clock::time_point{})
        deadline = std::chrono::steady_clock::now() + queue_timeout_;
      if (code != RdKafka::ERR__QUEUE_FULL || std::chrono::steady_clock::now() >= deadline)
        throw kafka_error(code, "producing to " + topic);
      producer_->poll(10);
    }
  }

  delivery_reports reports_;  // before producer_: librdkafka calls it until the producer is gone
  std::unique_ptr<RdKafka::Producer> producer_;
  std::chrono::milliseconds queue_timeout_;
  fingerprint_placement placement_;
  std::vector<std::byte> key_bytes_;
};

/// Reads the framed Values (and Keys) of topics as a member of a consumer group (group.id),
/// each with read_options. Offsets are committed by commit() only (enable.auto.commit is off
/// unless settings turn it on): commit after handling a batch for at-least-once delivery.
/// Not thread-safe.
template <class Value, class Key = no_key>
class consumer {
 public:
  consumer(const config& settings, const std::vector<std::string>& topics, dead_letter_handler on_dead_letter,
           const read_options& options = {})
      : on_dead_letter_(std::move(on_dead_letter)), options_(options) {
    config with_defaults = settings;
    with_defaults.try_emplace("enable.auto.commit", "false");
    with_defaults.try_emplace("auto.offset.reset", "earliest");
    std::unique_ptr<RdKafka::Conf> conf = detail::make_conf(with_defaults);
    std::string error;
    consumer_.reset(RdKafka::KafkaConsumer::create(conf.get(), error));
    if (!consumer_) throw kafka_error(RdKafka::ERR__INVALID_ARG, "creating the consumer: " + error);
    if (const RdKafka::ErrorCode code = consumer_->subscribe(topics); code != RdKafka::ERR_NO_ERROR)
      throw kafka_error(code, "subscribing");
  }
  consumer(const consumer&) = delete;
  consumer& operator=(const consumer&) = delete;
  /// Leaves the group (without committing).
  ~consumer() {
    if (consumer_ && !closed_) consumer_->close();
  }

  /// Up to max_messages messages: waits up to timeout for the first, then takes those already
  /// fetched. Each is read straight from librdkafka's buffer (no copy of the bytes) and released;
  /// one that fails to read goes to the dead-letter handler, and the batch goes on. Errors of the
  /// client that librdkafka recovers from (a broker away, a rebalance) end the batch early and
  /// are kept in last_error(); a fatal one throws kafka_error.
  std::vector<message<Value, Key>> poll(std::size_t max_messages, std::chrono::milliseconds timeout) {
    std::vector<message<Value, Key>> batch;
    // As many as the last batch held: growing by doubling moved every value read so far.
    batch.reserve(std::min(max_messages, last_batch_size_));
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (batch.size() < max_messages) {
      // The clock is read only while waiting for the first message: the rest take what is fetched.
      int wait_ms = 0;
      if (batch.empty()) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        wait_ms = static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(left.count(), 0,
                                                                              std::numeric_limits<int>::max()));
      }
      // The C API: the C++ consume() allocates a Message object around every message.
      const std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> m(
          rd_kafka_consumer_poll(consumer_->c_ptr(), wait_ms), rd_kafka_message_destroy);
      if (!m) {
        if (!batch.empty() || wait_ms == 0) break;
        continue;
      }
      const auto code = static_cast<RdKafka::ErrorCode>(m->err);
      if (code == RdKafka::ERR__PARTITION_EOF) continue;
      if (code == RdKafka::ERR__FATAL)
        throw kafka_error(code, std::string("consumer: ") + rd_kafka_message_errstr(m.get()));
      if (code != RdKafka::ERR_NO_ERROR) {
        last_error_ = code;
        break;
      }
      read(m.get(), batch);
    }
    last_batch_size_ = batch.size();
    return batch;
  }

  /// Commits the positions of every message poll() handed out or sent to the dead-letter
  /// handler, synchronously. Throws kafka_error if the group coordinator refuses.
  void commit() {
    const RdKafka::ErrorCode code = consumer_->commitSync();
    // Nothing consumed since the last commit: nothing to do.
    if (code != RdKafka::ERR_NO_ERROR && code != RdKafka::ERR__NO_OFFSET) throw kafka_error(code, "committing offsets");
  }
  /// Leaves the group, so that its partitions go to the other members at once.
  void close() {
    if (!closed_) consumer_->close();
    closed_ = true;
  }
  /// The last error poll() ended a batch on (ERR_NO_ERROR if none).
  [[nodiscard]] RdKafka::ErrorCode last_error() const noexcept { return last_error_; }
  /// librdkafka's consumer, for what this class does not wrap.
  [[nodiscard]] RdKafka::KafkaConsumer& handle() noexcept { return *consumer_; }

 private:
  // Through the C API, which gives the topic's name and the header's bytes where they are
  // (the C++ API copies both into new strings, for every message).
  void read(rd_kafka_message_t* c_message, std::vector<message<Value, Key>>& batch) {
    const detail::raw_message raw{topic_name(rd_kafka_topic_name(c_message->rkt)), c_message->partition,
                                  c_message->offset, detail::bytes_of(c_message->key, c_message->key_len),
                                  detail::bytes_of(c_message->payload, c_message->len)};
    detail::read_message(
        raw, [c_message] { return schema_header_of(c_message); }, options_, batch, on_dead_letter_, writer_id_);
  }

  /// The bytes of the header "bifrons-schema" (empty without one). Only dead letters of values
  /// without the prefix need it: librdkafka parses a message's headers when first asked.
  static std::span<const std::byte> schema_header_of(rd_kafka_message_t* c_message) noexcept {
    rd_kafka_headers_t* headers = nullptr;
    const void* id = nullptr;
    std::size_t size = 0;
    if (rd_kafka_message_headers(c_message, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR ||
        rd_kafka_header_get_last(headers, schema_header.data(), &id, &size) != RD_KAFKA_RESP_ERR_NO_ERROR)
      return {};
    return detail::bytes_of(id, size);
  }

  /// The consumer's own copy of a topic's name, made once per topic: message::topic views it.
  std::string_view topic_name(const char* name) {
    const std::string_view wanted(name);
    auto at = topics_.find(wanted);
    if (at == topics_.end()) at = topics_.emplace(wanted).first;
    return *at;
  }

  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  dead_letter_handler on_dead_letter_;
  read_options options_;
  std::set<std::string, std::less<>> topics_;  // nodes: the views into them stay valid
  RdKafka::ErrorCode last_error_ = RdKafka::ERR_NO_ERROR;
  std::array<char, 16> writer_id_{};  // what a dead letter's schema_id views
  std::size_t last_batch_size_ = 0;
  bool closed_ = false;
};

}  // namespace bifrons::kafka
