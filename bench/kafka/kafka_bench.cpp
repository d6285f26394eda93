// End to end through a Kafka broker: COUNT Account messages (the benchmark suite's account
// workload, bench/harness/models.hpp) produced by one thread and consumed by another, once with
// bifrons values (<bifrons/kafka.hpp>) and once with protobuf values of the same data (the
// generated class of bench/schemas/bench.proto, on librdkafka directly, given to it without a
// copy as bifrons' are). Prints per encoding: messages per second from the first produce to the
// last message read, the bytes of values and headers on the wire, the client's CPU time, and the
// share of it that encoding and decoding COUNT values take (timed alone, in the same process).
// bifrons runs three times, once per place of the writer's schema fingerprint: the prefix of the
// value (the default), the "bifrons-schema" header (the default before the prefix), and nowhere.
// With BIFRONS_KAFKA_BROKER_DIR naming the broker's directory (scripts/lib/kafka-broker.sh), also
// the bytes each topic takes in the broker's log: record batches as sent, compressed or not.
//
//   kafka_bench BOOTSTRAP COUNT [COMPRESSION]   docs/kafka.md, "Benchmark"; the kafka stage runs
//                                               20,000. COMPRESSION: librdkafka's compression.type
//                                               (default none; lz4, zstd...)
#include <bifrons/kafka.hpp>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>

#include "../harness/models.hpp"
#include "bench.pb.h"

// The name the frame carries, as a user names a type on the wire (docs/kafka.md, "Versions"):
// shorter than the C++ name bench::model::Account, which every message would carry otherwise.
template <>
inline constexpr std::string_view bifrons::schema_name<bench::model::Account> = "bench.Account";

namespace {

namespace kafka = bifrons::kafka;
namespace model = bench::model;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// The account workload's value as protobuf's generated class: the same fields and values.
benchpb::Account protobuf_account(const model::Account& a) {
  benchpb::Account out;
  out.set_id(a.id);
  out.set_name(a.name);
  out.mutable_wallet()->set_currency(a.wallet.currency, std::strlen(a.wallet.currency));
  out.mutable_wallet()->set_amount(a.wallet.amount);
  for (const model::Order& o : a.orders) {
    benchpb::Order* order = out.add_orders();
    order->set_id(o.id);
    order->set_symbol(o.symbol, std::strlen(o.symbol));
    order->set_side(static_cast<benchpb::OrderSide>(o.side));
    order->set_type(static_cast<benchpb::OrderType>(o.type));
    order->set_price(o.price);
    order->set_volume(o.volume);
  }
  return out;
}

struct outcome {
  double seconds = 0;
  std::uint64_t value_bytes = 0;
  std::uint64_t header_bytes = 0;
  double client_cpu = 0;
  double codec_cpu = 0;
  std::uint64_t id_sum = 0;  // of what the consumer read: every message arrived, decoded
  std::uint64_t log_bytes = 0;  // in the broker's log, if its directory is known
};

// The bytes of topic's log segments in the broker's data directory (0 if it is not known).
std::uint64_t log_bytes(const std::string& topic) {
  const char* broker = std::getenv("BIFRONS_KAFKA_BROKER_DIR");
  if (broker == nullptr) return 0;
  std::uint64_t total = 0;
  for (const auto& partition : std::filesystem::directory_iterator(std::filesystem::path(broker) / "data"))
    if (partition.path().filename().string().rfind(topic + "-", 0) == 0)
      for (const auto& file : std::filesystem::directory_iterator(partition.path()))
        if (file.path().extension() == ".log") total += file.file_size();
  return total;
}

std::string compression = "none";

kafka::config producer_settings(const std::string& bootstrap) {
  return {{"bootstrap.servers", bootstrap},
          {"linger.ms", "20"},
          {"batch.num.messages", "10000"},
          {"queue.buffering.max.messages", "1000000"},
          {"compression.type", compression}};
}
kafka::config consumer_settings(const std::string& bootstrap, const std::string& group) {
  return {{"bootstrap.servers", bootstrap}, {"group.id", group}, {"fetch.wait.max.ms", "20"}};
}
std::string unique(const std::string& what) {
  return what + "-" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
}

// Every run first sends one message and waits until the consumer has it, so that the topic exists
// and the group has its partition before the clock starts.
constexpr std::int32_t warm_up_id = -1;

outcome run_bifrons(const std::string& bootstrap, std::uint64_t count, kafka::fingerprint_placement placement) {
  const std::string topic = unique("bench-bifrons");
  model::Account account = model::make_account();
  kafka::producer<model::Account> out(producer_settings(bootstrap), 30s, placement);
  std::uint64_t dead = 0;
  kafka::consumer<model::Account> in(consumer_settings(bootstrap, topic), {topic},
                                     [&](const kafka::dead_letter&) { ++dead; });
  account.id = warm_up_id;
  out.produce(topic, account);
  out.flush(60s);
  for (const auto deadline = clock_type::now() + 60s; in.poll(1, 500ms).empty();)
    if (clock_type::now() > deadline) throw std::runtime_error("bifrons: the warm-up message never came");

  outcome result;
  const double cpu_before = process_cpu_seconds();
  const auto start = clock_type::now();
  std::thread producing([&] {
    model::Account a = model::make_account();
    for (std::uint64_t i = 0; i < count; ++i) {
      a.id = static_cast<std::int32_t>(i);
      out.produce(topic, a);
    }
    out.flush(120s);
  });
  std::uint64_t read = 0;
  for (const auto deadline = clock_type::now() + 300s; read < count && clock_type::now() < deadline;) {
    const auto batch = in.poll(10'000, 200ms);
    for (const auto& m : batch) result.id_sum += static_cast<std::uint64_t>(m.value.id);
    read += batch.size();
  }
  result.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  producing.join();
  result.client_cpu = process_cpu_seconds() - cpu_before;
  if (read != count || dead != 0) throw std::runtime_error("bifrons: messages lost or unreadable");

  // What went on the wire, and the codec's own CPU time for count values (as the producer writes
  // them, and as the consumer reads them: the frame after the prefix, if any).
  std::vector<std::byte> bytes;
  const std::size_t frame_start = placement == kafka::fingerprint_placement::prefix ? kafka::fingerprint_prefix_size
                                                                                    : 0;
  const double codec_before = thread_cpu_seconds();
  for (std::uint64_t i = 0; i < count; ++i) {
    account.id = static_cast<std::int32_t>(i);
    bytes.clear();
    kafka::detail::write_value(account, placement, bytes);
    result.value_bytes += bytes.size();
    if (bifrons::from_framed<model::Account>(std::span(bytes).subspan(frame_start)).id != account.id)
      throw std::runtime_error("bifrons: round trip");
  }
  result.codec_cpu = thread_cpu_seconds() - codec_before;
  if (placement == kafka::fingerprint_placement::header)
    result.header_bytes = count * (kafka::schema_header.size() + sizeof(std::uint64_t));
  result.log_bytes = log_bytes(topic);
  return result;
}

outcome run_protobuf(const std::string& bootstrap, std::uint64_t count) {
  const std::string topic = unique("bench-protobuf");
  benchpb::Account account = protobuf_account(model::make_account());
  std::string error;
  const auto conf = [&](const kafka::config& settings) {
    std::unique_ptr<RdKafka::Conf> c(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
    for (const auto& [name, value] : settings)
      if (c->set(name, value, error) != RdKafka::Conf::CONF_OK) throw std::runtime_error(error);
    return c;
  };
  // Delivery reports, as the bifrons producer counts them: a producer that never learns of a lost
  // message does less work (librdkafka frees delivered messages in its own thread).
  struct : RdKafka::DeliveryReportCb {
    void dr_cb(RdKafka::Message& message) override {
      if (message.err() != RdKafka::ERR_NO_ERROR) ++failed;
    }
    std::uint64_t failed = 0;
  } reports;
  const std::unique_ptr<RdKafka::Conf> producer_conf = conf(producer_settings(bootstrap));
  if (producer_conf->set("dr_cb", &reports, error) != RdKafka::Conf::CONF_OK) throw std::runtime_error(error);
  const std::unique_ptr<RdKafka::Producer> out(RdKafka::Producer::create(producer_conf.get(), error));
  kafka::config consumer_config = consumer_settings(bootstrap, topic);
  consumer_config["auto.offset.reset"] = "earliest";
  consumer_config["enable.auto.commit"] = "false";
  const std::unique_ptr<RdKafka::KafkaConsumer> in(RdKafka::KafkaConsumer::create(conf(consumer_config).get(), error));
  if (!out || !in || in->subscribe({topic}) != RdKafka::ERR_NO_ERROR) throw std::runtime_error("protobuf: " + error);
  // Serialized into a malloc'd buffer that librdkafka takes (RK_MSG_FREE), as the bifrons producer does.
  const auto produce = [&](const benchpb::Account& a) {
    const std::size_t size = a.ByteSizeLong();
    auto* buffer = static_cast<std::uint8_t*>(std::malloc(size));
    a.SerializeWithCachedSizesToArray(buffer);
    while (out->produce(topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_FREE, buffer, size, nullptr, 0,
                        0, nullptr, nullptr) == RdKafka::ERR__QUEUE_FULL)
      out->poll(10);
    out->poll(0);
  };
  account.set_id(warm_up_id);
  produce(account);
  out->flush(60'000);
  for (const auto deadline = clock_type::now() + 60s;;) {
    const std::unique_ptr<RdKafka::Message> m(in->consume(500));
    if (m->err() == RdKafka::ERR_NO_ERROR) break;
    if (clock_type::now() > deadline) throw std::runtime_error("protobuf: the warm-up message never came");
  }

  outcome result;
  const double cpu_before = process_cpu_seconds();
  const auto start = clock_type::now();
  std::thread producing([&] {
    benchpb::Account a = account;
    for (std::uint64_t i = 0; i < count; ++i) {
      a.set_id(static_cast<std::int32_t>(i));
      produce(a);
    }
    out->flush(120'000);
  });
  std::uint64_t read = 0;
  benchpb::Account decoded;
  for (const auto deadline = clock_type::now() + 300s; read < count && clock_type::now() < deadline;) {
    const std::unique_ptr<RdKafka::Message> m(in->consume(200));
    if (m->err() != RdKafka::ERR_NO_ERROR) continue;
    if (!decoded.ParseFromArray(m->payload(), static_cast<int>(m->len()))) throw std::runtime_error("protobuf: parse");
    result.id_sum += static_cast<std::uint64_t>(decoded.id());
    ++read;
  }
  result.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  producing.join();
  result.client_cpu = process_cpu_seconds() - cpu_before;
  in->close();
  if (read != count || reports.failed != 0) throw std::runtime_error("protobuf: messages lost");

  std::string bytes;
  const double codec_before = thread_cpu_seconds();
  for (std::uint64_t i = 0; i < count; ++i) {
    account.set_id(static_cast<std::int32_t>(i));
    bytes.clear();
    account.SerializeToString(&bytes);
    result.value_bytes += bytes.size();
    if (!decoded.ParseFromString(bytes) || decoded.id() != account.id())
      throw std::runtime_error("protobuf: round trip");
  }
  result.codec_cpu = thread_cpu_seconds() - codec_before;
  result.log_bytes = log_bytes(topic);
  return result;
}

void report(const char* name, const outcome& r, std::uint64_t count) {
  std::printf(
      "%-9s %10.0f msg/s  %6.2f s  value %5.1f B/msg  header %4.1f B/msg  client CPU %6.2f s  codec CPU %5.2f s "
      "(%4.1f%%)\n",
      name, static_cast<double>(count) / r.seconds, r.seconds,
      static_cast<double>(r.value_bytes) / static_cast<double>(count),
      static_cast<double>(r.header_bytes) / static_cast<double>(count), r.client_cpu, r.codec_cpu,
      100.0 * r.codec_cpu / r.client_cpu);
  if (r.log_bytes != 0)
    std::printf("%-9s in the broker's log: %.1f B/msg\n", name,
                static_cast<double>(r.log_bytes) / static_cast<double>(count + 1));  // + the warm-up message
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s BOOTSTRAP COUNT [COMPRESSION]\n", argv[0]);
    return 2;
  }
  if (argc == 4) compression = argv[3];
  const std::string bootstrap = argv[1];
  const std::uint64_t count = std::strtoull(argv[2], nullptr, 10);
  try {
    const outcome b = run_bifrons(bootstrap, count, kafka::fingerprint_placement::prefix);
    const outcome h = run_bifrons(bootstrap, count, kafka::fingerprint_placement::header);
    const outcome n = run_bifrons(bootstrap, count, kafka::fingerprint_placement::omit);
    const outcome p = run_protobuf(bootstrap, count);
    const std::uint64_t expected_sum = count * (count - 1) / 2;
    if (b.id_sum != expected_sum || h.id_sum != expected_sum || n.id_sum != expected_sum || p.id_sum != expected_sum)
      throw std::runtime_error("a message was read twice or not at all");
    std::printf("%llu Account messages, produced and consumed through %s, compression %s\n",
                static_cast<unsigned long long>(count), bootstrap.c_str(), compression.c_str());
    report("bifrons", b, count);  // fingerprint_placement::prefix, the default
    report("header", h, count);   // fingerprint_placement::header
    report("none", n, count);     // fingerprint_placement::omit
    report("protobuf", p, count);
    for (const auto& [name, r] : {std::pair{"bifrons", b}, std::pair{"header", h}, std::pair{"none", n}})
      std::printf("%s/protobuf: throughput %.2f, bytes per message %.2f (value and header), client CPU %.2f\n", name,
                  p.seconds / r.seconds,
                  static_cast<double>(r.value_bytes + r.header_bytes) /
                      static_cast<double>(p.value_bytes + p.header_bytes),
                  r.client_cpu / p.client_cpu);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kafka_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
