// SPDX-License-Identifier: MIT
#pragma once
// The bytes of a Kafka message of <bifrons/kafka.hpp>, without librdkafka: the writer's schema
// fingerprint, the forms of a value (docs/kafka.md, "What is on the wire"), and what a consumer
// does with one message. Apart from kafka.hpp so that the golden test and the consumer's fuzzer
// (tests/fuzz/kafka_fuzz.cpp) run the consumer's own code where librdkafka is not installed.

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../frame.hpp"
#include "../read_options.hpp"
#include "../schema.hpp"

namespace bifrons::kafka {

/// The Key of producers and consumers of messages without a key.
struct no_key {};

/// The 64-bit FNV-1a hash of a schema's canonical text. A fingerprint names a schema among the few
/// versions of one topic (as Avro's 64-bit fingerprints do); it is no defence against a writer
/// that forges one: readers never trust it, they read the value with read_options.
constexpr std::uint64_t fingerprint(std::string_view canonical_schema) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325u;
  for (const char c : canonical_schema) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3u;
  }
  return hash;
}

/// The fingerprint of T's schema (schema<T>()). Computed once per type.
template <class T>
std::uint64_t schema_fingerprint() {
  static const std::uint64_t hash = fingerprint(schema<T>());
  return hash;
}

namespace detail {
/// Writes fingerprint's 16 lowercase hex digits at out.
inline void write_hex(std::uint64_t fingerprint, char* out) noexcept {
  for (std::size_t i = 16; i-- > 0; fingerprint >>= 4) out[i] = "0123456789abcdef"[fingerprint & 0xf];
}
}  // namespace detail

/// A fingerprint as 16 lowercase hex digits: how people, file names and dead letters spell it.
inline std::string schema_id(std::uint64_t fingerprint) {
  std::string hex(16, '0');
  detail::write_hex(fingerprint, hex.data());
  return hex;
}

/// schema_fingerprint<T>() as 16 lowercase hex digits: the name of T's file in a schema directory.
/// Computed once per type.
template <class T>
const std::string& schema_id() {
  static const std::string id = schema_id(schema_fingerprint<T>());
  return id;
}

/// Whether text has the form of a schema_id: 16 lowercase hex digits. Consumers pass on only
/// such ids, so that a schema's file name made from one stays inside its directory.
constexpr bool is_schema_id(std::string_view text) noexcept {
  if (text.size() != 16) return false;
  for (const char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

/// The first byte of a value that begins with its writer's schema fingerprint (docs/kafka.md,
/// "The fingerprint prefix"): then the fingerprint's 8 bytes, most significant first, then the
/// framed message. No frame begins with it (0x89), nor a Confluent value (0x00) or an Avro
/// single object (0xc3), whose readers refuse it at byte 0 instead of misreading it.
inline constexpr std::byte fingerprint_prefix_magic{0xbf};
/// The bytes before the frame of a value with the prefix: the magic and the fingerprint.
inline constexpr std::size_t fingerprint_prefix_size = 1 + sizeof(std::uint64_t);

/// The header that carried the writer's schema fingerprint before the prefix, and still does for
/// producers made with fingerprint_placement::header: its 8 bytes, most significant first. Its
/// data() ends in a NUL (a literal), as librdkafka's C API wants header names.
inline constexpr std::string_view schema_header = "bifrons-schema";

/// Where a producer puts its schema fingerprint. Readers never need it (the frame names the type);
/// it names the exact schema for tools and dead letters.
///   prefix: before the frame, in the value (9 bytes; the default, docs/kafka.md);
///   header: in the header "bifrons-schema" (about 24 bytes, and allocations in librdkafka for
///           every message): for topics with consumers that predate the prefix, which read only
///           frames;
///   omit:   nowhere (tools pick a schema by the frame's type name).
enum class fingerprint_placement : std::uint8_t { prefix, header, omit };

/// What part of a message failed to read.
enum class message_part : std::uint8_t { key, value };

/// A message that a consumer could not read: where it is, why, and its bytes. The views and spans
/// point into librdkafka's message and are valid during the dead-letter call only.
struct dead_letter {
  std::string_view topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  message_part part = message_part::value;
  errc code = errc::ok;          ///< not_bifrons, type_mismatch, or what the read reports
  std::size_t error_offset = 0;  ///< in the part's bytes, from the value's first byte (the prefix's
                                 ///< or the frame's)
  std::string_view schema_id;    ///< the writer's fingerprint (prefix, else the "bifrons-schema"
                               ///< header); empty without one, or if the header has neither
                               ///< form (8 bytes, or 16 lowercase hex digits: is_schema_id)
  std::span<const std::byte> key;
  std::span<const std::byte> value;

  /// "accounts[0]@17: value: the frame names another type at 14"
  [[nodiscard]] std::string message() const {
    return std::string(topic) + "[" + std::to_string(partition) + "]@" + std::to_string(offset) + ": " +
           (part == message_part::key ? "key: " : "value: ") + std::string(describe(code)) + " at " +
           std::to_string(error_offset);
  }
};

using dead_letter_handler = std::function<void(const dead_letter&)>;

/// A message read: its key (no_key for consumers without keys), value and place.
template <class Value, class Key = no_key>
struct message {
  [[no_unique_address]] Key key{};
  Value value{};
  std::string_view topic;  ///< valid as long as the consumer that read the message
  std::int32_t partition = 0;
  std::int64_t offset = 0;
};

namespace detail {

/// A fingerprint's 8 bytes, most significant first (the prefix's and the header's form).
inline std::array<std::byte, 8> fingerprint_bytes(std::uint64_t hash) noexcept {
  std::array<std::byte, 8> bytes{};
  for (std::size_t i = bytes.size(); i-- > 0; hash >>= 8) bytes[i] = static_cast<std::byte>(hash & 0xff);
  return bytes;
}

inline std::uint64_t load_fingerprint(std::span<const std::byte, 8> bytes) noexcept {
  std::uint64_t hash = 0;
  for (const std::byte b : bytes) hash = hash << 8 | std::to_integer<std::uint64_t>(b);
  return hash;
}

/// Whether a value begins with the fingerprint prefix's magic (it may still be cut short).
inline bool has_fingerprint_prefix(std::span<const std::byte> value) noexcept {
  return !value.empty() && value[0] == fingerprint_prefix_magic;
}

/// Appends the value a producer sends: the framed message of value, after the fingerprint prefix
/// if placement is prefix. Out grows once (reserve, then the frame and the value in place).
template <class Value, bifrons::detail::byte_container Out>
void write_value(const Value& value, fingerprint_placement placement, Out& out) {
  const bool prefixed = placement == fingerprint_placement::prefix;
  const std::size_t old = out.size();
  if constexpr (requires(std::size_t n) { out.reserve(n); })
    out.reserve(old + (prefixed ? fingerprint_prefix_size : 0) + frame_magic.size() +
                2 * bifrons::detail::max_varint_size + frame_type_name<Value>().size() + size_bound(value));
  if (prefixed) {
    static const std::array<std::byte, 8> id = fingerprint_bytes(schema_fingerprint<Value>());
    out.resize(old + fingerprint_prefix_size);
    auto* at = reinterpret_cast<std::byte*>(out.data()) + old;
    *at = fingerprint_prefix_magic;
    std::copy(id.begin(), id.end(), at + 1);
  }
  to_framed(value, out);
}

/// The writer's fingerprint of a message as 16 hex digits in text: the prefix's, else the
/// header's (header() gives its bytes, empty without one: 8 bytes, or the 16 hex digits of the
/// first producers), else empty. The header is asked for only when the value has no prefix.
template <class HeaderLookup>
std::string_view writer_schema_id(std::span<const std::byte> value, HeaderLookup&& header, std::array<char, 16>& text) {
  if (has_fingerprint_prefix(value)) {
    if (value.size() < fingerprint_prefix_size) return {};
    write_hex(load_fingerprint(value.subspan<1, 8>()), text.data());
    return {text.data(), text.size()};
  }
  const std::span<const std::byte> id = header();
  if (id.size() == 8) {
    write_hex(load_fingerprint(id.first<8>()), text.data());
    return {text.data(), text.size()};
  }
  const std::string_view hex(reinterpret_cast<const char*>(id.data()), id.size());
  return is_schema_id(hex) ? hex : std::string_view();
}

/// One message's place and bytes, as librdkafka hands them to a consumer.
struct raw_message {
  std::string_view topic;
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::span<const std::byte> key;
  std::span<const std::byte> value;
};

/// What a consumer does with each message: reads its key and value with options and appends them
/// to batch, or gives on_dead_letter (if set) the part that failed, its error and offset, and
/// the writer's fingerprint (writer_schema_id: header() is asked only then). A value is read
/// after the fingerprint prefix if it has one, else from byte 0 (the frame of producers without
/// the prefix); a prefix cut short is unexpected_end at the value's end. id_text holds the
/// fingerprint's digits that a dead letter's schema_id views.
template <class Value, class Key, class HeaderLookup>
void read_message(const raw_message& raw, HeaderLookup&& header, const read_options& options,
                  std::vector<message<Value, Key>>& batch, const dead_letter_handler& on_dead_letter,
                  std::array<char, 16>& id_text) {
  const auto dead = [&](message_part part, errc code, std::size_t error_offset) {
    if (!on_dead_letter) return;
    const dead_letter letter{
        raw.topic, raw.partition, raw.offset, part, code, error_offset, writer_schema_id(raw.value, header, id_text),
        raw.key,   raw.value};
    on_dead_letter(letter);
  };
  [[maybe_unused]] Key key{};
  if constexpr (!std::same_as<Key, no_key>) {
    result<Key> read = try_from_bytes<Key>(raw.key, options);
    if (!read) return dead(message_part::key, read.code(), read.offset());
    key = std::move(read).value();
  }
  const std::size_t start = has_fingerprint_prefix(raw.value) ? fingerprint_prefix_size : 0;
  if (raw.value.size() < start) return dead(message_part::value, errc::unexpected_end, raw.value.size());
  result<Value> value = try_from_framed<Value>(raw.value.subspan(start), options);
  if (!value) return dead(message_part::value, value.code(), start + value.offset());
  batch.push_back({std::move(key), std::move(value).value(), raw.topic, raw.partition, raw.offset});
}

}  // namespace detail
}  // namespace bifrons::kafka
