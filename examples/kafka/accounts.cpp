// A Kafka topic of bifrons messages (README, "Kafka"): the producer publishes its schema beside
// the stream and writes keyed, framed Accounts; the consumer reads them in batches, commits after
// each, and keeps what it cannot read for bifrons-inspect.
//
//   kafka_accounts BOOTSTRAP DIRECTORY     e.g. kafka_accounts 127.0.0.1:9092 /tmp/accounts
//
// Needs a broker (the kafka stage of scripts/test starts one); links rdkafka++ and rdkafka.
#include <bifrons/kafka.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

struct Account {
  std::uint64_t id = 0;
  std::string owner;
  std::int64_t balance_cents = 0;
  std::string currency = "EUR";
};
// The name the frame carries: programs of every version of Account agree on it.
template <>
inline constexpr std::string_view bifrons::schema_name<Account> = "bank.Account";

namespace kafka = bifrons::kafka;
using namespace std::chrono_literals;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s BOOTSTRAP DIRECTORY\n", argv[0]);
    return 2;
  }
  const std::string bootstrap = argv[1];
  const std::filesystem::path directory = argv[2];
  const std::string topic = "accounts-" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());

  // 1. The schema beside the stream: DIRECTORY/schemas/<fingerprint>.json, the name every message's
  //    value gives in its bytes 1 to 8 (the fingerprint prefix, in hex).
  const auto schema_file = kafka::publish_schema<Account>(directory / "schemas");
  std::printf("schema: %s\n", schema_file.string().c_str());

  // 2. Produce 1,000 keyed accounts as one batch; librdkafka groups them into requests.
  kafka::producer<Account, std::uint64_t> out({{"bootstrap.servers", bootstrap}, {"linger.ms", "10"}});
  std::vector<std::pair<std::uint64_t, Account>> accounts;
  std::int64_t total_cents = 0;
  for (std::uint64_t id = 1; id <= 1000; ++id) {
    accounts.emplace_back(id, Account{id, "owner " + std::to_string(id), static_cast<std::int64_t>(id) * 25});
    total_cents += static_cast<std::int64_t>(id) * 25;
  }
  out.produce_batch(topic, accounts);
  // A message no bifrons producer wrote, as a foreign writer might: the consumer must go on past it.
  std::string stray = "{\"id\": 1001}";
  const std::string stray_key = "stray";
  (void)out.handle().produce(topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY, stray.data(),
                             stray.size(), stray_key.data(), stray_key.size(), 0, nullptr, nullptr);
  out.flush(30s);

  // 3. Consume in batches with reader limits; commit after each batch (at-least-once). What cannot
  //    be read goes to the dead-letter handler, which keeps its bytes beside the schemas.
  bifrons::read_options limits;
  limits.max_alloc_bytes = 1 << 20;  // no message of this topic needs more
  int dead_letters = 0;
  kafka::consumer<Account, std::uint64_t> in(
      {{"bootstrap.servers", bootstrap}, {"group.id", "billing"}}, {topic},
      [&](const kafka::dead_letter& letter) {
        ++dead_letters;
        std::filesystem::create_directories(directory / "dead");
        const auto file = directory / "dead" /
                          (std::string(letter.topic) + "-" + std::to_string(letter.partition) + "-" +
                           std::to_string(letter.offset) + ".bin");
        std::ofstream(file, std::ios::binary)
            .write(reinterpret_cast<const char*>(letter.value.data()),
                   static_cast<std::streamsize>(letter.value.size()));
        std::printf("dead letter: %s, kept in %s\n", letter.message().c_str(), file.string().c_str());
      },
      limits);
  std::int64_t read_cents = 0;
  std::size_t read = 0;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while ((read < accounts.size() || dead_letters == 0) && std::chrono::steady_clock::now() < deadline) {
    const auto batch = in.poll(500, 500ms);
    for (const auto& m : batch) read_cents += m.value.balance_cents;
    read += batch.size();
    if (!batch.empty()) in.commit();
  }
  in.close();
  std::printf("read %zu accounts, %d dead letter(s); %lld cents\n", read, dead_letters,
              static_cast<long long>(read_cents));
  return read == accounts.size() && read_cents == total_cents && dead_letters == 1 ? 0 : 1;
}
