// Fuzz harness: what a bifrons::kafka::consumer does with each message it polls
// (kafka::detail::read_message, <bifrons/detail/kafka_message.hpp>: the consumer's own code, with
// no broker and no librdkafka), on arbitrary keys, values and "bifrons-schema" headers.
//
// The input is a message: its first byte is the key's length, its second the header's (both cut
// to what the input holds), then the key, the header and the value. Consumers of golden::Account
// keyed by std::uint64_t, of std::vector<std::int32_t> without a key, and of std::string keyed by
// std::string read it. Properties, for each:
//   - exactly one outcome: the message is appended to the batch, or the dead-letter handler is
//     called once, never both; nothing throws but the handler's own exception, which leaves the
//     batch as it was;
//   - a dead letter has a code other than ok, an offset inside the part that failed (a key only
//     for keyed consumers), the message's place and its very bytes, and the writer's schema id:
//     the prefix's 8 bytes in hex if the value has the prefix, else the header's 8 bytes in hex,
//     else the header if it has the form of an id (16 lowercase hex digits), else empty;
//   - a value with neither the prefix's nor the frame's first byte is not_bifrons at 0, and a
//     prefix cut short unexpected_end at the value's end;
//   - a message read carries its place, and written again by a producer (each fingerprint
//     placement) reads back as a value of the same bytes;
//   - a value that one consumer reads is refused by the consumers of the other types, with
//     type_mismatch at the frame's name (after the prefix, if any): another type never reads;
//   - under tight read_options a message is read only if the reference limits read it, as the
//     same value; a read holds at most twice max_alloc_bytes (fuzz_support.hpp);
//   - no leak (LeakSanitizer), no crash, no undefined behaviour.

#include <bifrons/detail/kafka_message.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"

namespace {

namespace kafka = bifrons::kafka;
using bifrons::errc;
using fuzz::bytes;
using fuzz::context;
using fuzz::input;

constexpr std::string_view topic = "accounts";
constexpr std::int32_t partition = 3;
constexpr std::int64_t offset = 1'234'567;

/// The message an input stands for.
struct fuzzed_message {
  std::span<const std::byte> key;
  std::span<const std::byte> header;
  std::span<const std::byte> value;
};

fuzzed_message split(input in) {
  fuzzed_message m;
  if (in.size() < 2) {
    m.value = in;
    return m;
  }
  std::size_t at = 2;
  const std::size_t key_size = std::min(std::to_integer<std::size_t>(in[0]), in.size() - at);
  m.key = in.subspan(at, key_size);
  at += key_size;
  const std::size_t header_size = std::min(std::to_integer<std::size_t>(in[1]), in.size() - at);
  m.header = in.subspan(at, header_size);
  at += header_size;
  m.value = in.subspan(at);
  return m;
}

bytes join(std::span<const std::byte> key, std::span<const std::byte> header, std::span<const std::byte> value) {
  bytes out{static_cast<std::byte>(key.size()), static_cast<std::byte>(header.size())};
  out.insert(out.end(), key.begin(), key.end());
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), value.begin(), value.end());
  return out;
}

std::string hex_of(std::span<const std::byte> eight) {
  std::uint64_t hash = 0;
  for (const std::byte b : eight) hash = hash << 8 | std::to_integer<std::uint64_t>(b);
  return kafka::schema_id(hash);
}

/// The schema id a dead letter of m must carry (docs/kafka.md, "What is on the wire").
std::string expected_schema_id(const fuzzed_message& m) {
  if (!m.value.empty() && m.value[0] == kafka::fingerprint_prefix_magic)
    return m.value.size() >= kafka::fingerprint_prefix_size ? hex_of(m.value.subspan(1, 8)) : "";
  if (m.header.size() == 8) return hex_of(m.header);
  const std::string text(reinterpret_cast<const char*>(m.header.data()), m.header.size());
  return kafka::is_schema_id(text) ? text : "";
}

std::size_t frame_start(std::span<const std::byte> value) {
  return !value.empty() && value[0] == kafka::fingerprint_prefix_magic ? kafka::fingerprint_prefix_size : 0;
}

/// What read_message did with one message.
template <class Value, class Key>
struct outcome {
  std::optional<kafka::message<Value, Key>> read;
  std::optional<kafka::dead_letter> dead;  // its views point into the input, which outlives it
  std::string schema_id;                   // the dead letter's, copied while it was valid
};

template <class Value, class Key>
outcome<Value, Key> consume(const context& ctx, const fuzzed_message& m, const bifrons::read_options& limits) {
  const kafka::detail::raw_message raw{topic, partition, offset, m.key, m.value};
  std::vector<kafka::message<Value, Key>> batch;
  outcome<Value, Key> out;
  std::size_t letters = 0;
  std::array<char, 16> id_text{};
  const kafka::dead_letter_handler on_dead_letter = [&](const kafka::dead_letter& d) {
    ++letters;
    out.dead = d;
    out.schema_id = std::string(d.schema_id);
    ctx.check(d.message().find(topic) == 0, "kafka: a dead letter's message does not begin with its topic");
  };
  fuzz::within_budget(ctx, limits, [&] {
    kafka::detail::read_message(raw, [&] { return m.header; }, limits, batch, on_dead_letter, id_text);
    return 0;
  });
  ctx.check(letters + batch.size() == 1, "kafka: a message was neither read nor a dead letter, or both");
  if (!batch.empty()) out.read = std::move(batch.front());
  return out;
}

/// The message's value as a producer writes it, read back by the same consumer.
template <class Value, class Key>
void check_rewritten(const context& ctx, const kafka::message<Value, Key>& read) {
  const bytes encoding = bifrons::to_bytes(read.value);
  for (const auto placement : {kafka::fingerprint_placement::prefix, kafka::fingerprint_placement::header,
                               kafka::fingerprint_placement::omit}) {
    bytes value;
    kafka::detail::write_value(read.value, placement, value);
    bytes key;
    if constexpr (!std::same_as<Key, kafka::no_key>) key = bifrons::to_bytes(read.key);
    const fuzzed_message again{key, {}, value};
    const auto second = consume<Value, Key>(ctx, again, fuzz::reference_limits);
    ctx.check(second.read.has_value(), "kafka: a message read, written again by a producer, is a dead letter");
    ctx.check(bifrons::to_bytes(second.read->value) == encoding,
              "kafka: a message read, written again and read back, has another value");
  }
}

template <class Value, class Key>
std::optional<bytes> check_consumer(const context& ctx, const fuzzed_message& m) {
  const auto first = consume<Value, Key>(ctx, m, fuzz::reference_limits);
  if (first.dead) {
    const kafka::dead_letter& d = *first.dead;
    ctx.check(d.code != errc::ok, "kafka: a dead letter without an error");
    ctx.check(d.topic == topic && d.partition == partition && d.offset == offset,
              "kafka: a dead letter in another place than its message");
    ctx.check(d.key.data() == m.key.data() && d.key.size() == m.key.size() && d.value.data() == m.value.data() &&
                  d.value.size() == m.value.size(),
              "kafka: a dead letter's bytes are not its message's");
    const bool keyed = !std::same_as<Key, kafka::no_key>;
    ctx.check(keyed || d.part == kafka::message_part::value, "kafka: a dead key of a consumer without keys");
    ctx.check(d.error_offset <= (d.part == kafka::message_part::key ? m.key.size() : m.value.size()),
              "kafka: a dead letter's offset is outside the part that failed");
    ctx.check(first.schema_id == expected_schema_id(m), "kafka: a dead letter's schema id is not the writer's");
    ctx.check(first.schema_id.empty() || kafka::is_schema_id(first.schema_id),
              "kafka: a dead letter's schema id has not the form of one");
    if (d.part == kafka::message_part::value) {
      const bool prefixed = !m.value.empty() && m.value[0] == kafka::fingerprint_prefix_magic;
      if (!prefixed && (m.value.empty() || m.value[0] != bifrons::frame_magic[0]))
        ctx.check(d.code == errc::not_bifrons && d.error_offset == 0,
                  "kafka: a value of neither form is not not_bifrons at 0");
      if (prefixed && m.value.size() < kafka::fingerprint_prefix_size)
        ctx.check(d.code == errc::unexpected_end && d.error_offset == m.value.size(),
                  "kafka: a prefix cut short is not unexpected_end at the value's end");
    }
  } else {
    const auto& r = *first.read;
    ctx.check(r.topic == topic && r.partition == partition && r.offset == offset,
              "kafka: a message read in another place than its message");
    check_rewritten(ctx, r);
  }

  // Tighter limits never make a message read, nor read it otherwise.
  for (const auto& limits : fuzz::tight_limits) {
    const auto tight = consume<Value, Key>(ctx, m, limits);
    if (tight.read)
      ctx.check(first.read && bifrons::to_bytes(tight.read->value) == bifrons::to_bytes(first.read->value),
                "kafka: tight limits read a message the reference limits did not, or another value");
  }

  // A handler that throws: its exception ends the read, and the batch is as it was.
  if (first.dead) {
    std::vector<kafka::message<Value, Key>> batch(1);
    std::array<char, 16> id_text{};
    bool thrown = false;
    try {
      kafka::detail::read_message(
          kafka::detail::raw_message{topic, partition, offset, m.key, m.value}, [&] { return m.header; },
          fuzz::reference_limits, batch, [](const kafka::dead_letter&) { throw fuzz::user_exception{}; }, id_text);
    } catch (const fuzz::user_exception&) {
      thrown = true;
    }
    ctx.check(thrown && batch.size() == 1, "kafka: a throwing dead-letter handler did not end the read cleanly");
  }
  if (!first.read) return std::nullopt;
  return bifrons::to_bytes(first.read->value);
}

/// A value one consumer read: every consumer of another type refuses it at the frame's name.
template <class Value, class Key>
void check_refused(const context& ctx, const fuzzed_message& m) {
  const auto other = consume<Value, Key>(ctx, m, fuzz::reference_limits);
  if (other.dead && other.dead->part == kafka::message_part::key) return;  // its key is another type
  ctx.check(other.dead && other.dead->code == errc::type_mismatch &&
                other.dead->error_offset == frame_start(m.value) + bifrons::frame_magic.size() + 1,
            "kafka: a consumer of another type did not refuse a value at the frame's name");
}

void seeds(const std::string& dir) {
  const bytes account_key = bifrons::to_bytes(std::uint64_t{7});
  const auto id = kafka::detail::fingerprint_bytes(kafka::schema_fingerprint<golden::Account>());
  const std::string hex = kafka::schema_id<golden::Account>();
  const std::span<const std::byte> hex_bytes(reinterpret_cast<const std::byte*>(hex.data()), hex.size());
  std::size_t n = 0;
  const auto write = [&](const bytes& message) { fuzz::write_file(dir + "/kafka-" + std::to_string(n++), message); };
  for (const auto placement : {kafka::fingerprint_placement::prefix, kafka::fingerprint_placement::header,
                               kafka::fingerprint_placement::omit}) {
    bytes value;
    kafka::detail::write_value(golden::account::value(), placement, value);
    write(join(account_key,
               placement == kafka::fingerprint_placement::header ? std::span<const std::byte>(id)
                                                                 : std::span<const std::byte>(),
               value));
    write(join(account_key, hex_bytes, value));
    bytes cut(value.begin(), value.end() - 1);
    write(join(account_key, {}, cut));
    bytes vector_value;
    kafka::detail::write_value(std::vector<std::int32_t>{1, -2}, placement, vector_value);
    write(join({}, {}, vector_value));
    bytes string_value;
    kafka::detail::write_value(std::string("a string"), placement, string_value);
    write(join(bifrons::to_bytes(std::string("key")), {}, string_value));
  }
  write(join(account_key, {}, bytes(5, kafka::fingerprint_prefix_magic)));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("BIFRONS_FUZZ_SEEDS");
  if (dir != nullptr && *dir != '\0') seeds(dir);
  fuzz::initialize<>();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const input in(reinterpret_cast<const std::byte*>(data), size);
  const fuzzed_message m = split(in);
  const context accounts{"consumer<golden::Account, u64>", in};
  const context vectors{"consumer<sequence<i32>>", in};
  const context strings{"consumer<string, string>", in};
  if (check_consumer<golden::Account, std::uint64_t>(accounts, m)) {
    check_refused<std::vector<std::int32_t>, kafka::no_key>(accounts, m);
    check_refused<std::string, std::string>(accounts, m);
  }
  if (check_consumer<std::vector<std::int32_t>, kafka::no_key>(vectors, m)) {
    check_refused<golden::Account, std::uint64_t>(vectors, m);
    check_refused<std::string, std::string>(vectors, m);
  }
  if (check_consumer<std::string, std::string>(strings, m)) {
    check_refused<golden::Account, std::uint64_t>(strings, m);
    check_refused<std::vector<std::int32_t>, kafka::no_key>(strings, m);
  }
  return 0;
}
