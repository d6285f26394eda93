// Logs (include/bifrons/log.hpp, docs/format.md section 36): round trips through a path, an fd
// and an istream; every bit flip and every truncation of a small log; damaged records stopped at
// or skipped; hostile lengths and floods of records; evolution; reopening after a torn tail; a
// writer killed with SIGKILL at random points; the reader's memory on a large log.

#include <bifrons/bifrons.hpp>
#include <bifrons/log.hpp>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <system_error>
#include <vector>

#include "emulation.hpp"

// AddressSanitizer keeps freed blocks in quarantine, resident: under it the memory test measures
// the heap's live bytes (what the reader holds) instead of the process's peak RSS.
#if defined(__SANITIZE_ADDRESS__)
#define BIFRONS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIFRONS_TEST_ASAN 1
#endif
#endif
#ifdef BIFRONS_TEST_ASAN
#include <sanitizer/allocator_interface.h>
#endif

struct LogEvent {
  std::uint64_t id = 0;
  std::string text;
  std::vector<std::int32_t> values;
  bool operator==(const LogEvent&) const = default;
};
// An older version of LogEvent (no values), under the same schema name.
struct LogEventV1 {
  std::uint64_t id = 0;
  std::string text;
};
template <>
inline constexpr std::string_view bifrons::schema_name<LogEvent> = "test.LogEvent";
template <>
inline constexpr std::string_view bifrons::schema_name<LogEventV1> = "test.LogEvent";

struct Empty {
  bool operator==(const Empty&) const = default;
};
struct Blob {
  std::uint64_t id = 0;
  std::vector<std::uint8_t> data;
};

namespace {

using bifrons::errc;
namespace fs = std::filesystem;

LogEvent make_event(std::uint64_t id, std::size_t text_size = 0) {
  LogEvent e;
  e.id = id;
  e.text.assign(text_size != 0 ? text_size : static_cast<std::size_t>(id % 23), static_cast<char>('a' + id % 26));
  for (std::uint64_t i = 0; i < id % 5; ++i) e.values.push_back(static_cast<std::int32_t>(id * 7 - i));
  return e;
}

/// A fresh path in the temporary directory, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& stem)
      : path_(fs::temp_directory_path() / (stem + "-" + std::to_string(::getpid()) + ".log")) {
    fs::remove(path_);
  }
  ~TempFile() { fs::remove(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::vector<std::byte> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return {p, p + s.size()};
}

void write_file(const fs::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string as_string(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

/// A log of `count` events and the offset of each record (the last entry: the log's size).
std::vector<std::byte> small_log(std::size_t count, std::vector<std::size_t>& offsets,
                                 bifrons::log_write_options options = {}) {
  TempFile file("bifrons-small");
  options.sync_marker = 0x5eb1f0a3u;
  {
    bifrons::log_appender<LogEvent> log(file.path(), options);
    offsets.push_back(static_cast<std::size_t>(log.size()));
    for (std::size_t i = 0; i < count; ++i) {
      log.append(make_event(i));
      offsets.push_back(static_cast<std::size_t>(log.size()));
    }
  }
  return read_file(file.path());
}

struct Outcome {
  std::vector<LogEvent> events;
  bifrons::log_status status;
  std::uint64_t damaged = 0;
  std::uint64_t skipped = 0;
};

Outcome read_all(const std::vector<std::byte>& bytes, const bifrons::log_read_options& options = {}) {
  std::istringstream in(as_string(bytes));
  bifrons::log_reader<LogEvent> reader(in, options);
  Outcome out;
  for (LogEvent e; reader.next(e);) out.events.push_back(e);
  out.status = reader.status();
  out.damaged = reader.damaged_stretches();
  out.skipped = reader.skipped_bytes();
  return out;
}

void expect_prefix(const std::vector<LogEvent>& events, std::size_t at_most) {
  ASSERT_LE(events.size(), at_most);
  for (std::size_t i = 0; i < events.size(); ++i) ASSERT_EQ(events[i], make_event(i)) << "message " << i;
}

// ---- round trips ---------------------------------------------------------------------------------

TEST(Log, RoundTripThroughAPathAnFdAndAnIstream) {
  TempFile file("bifrons-roundtrip");
  {
    bifrons::log_appender<LogEvent> log(file.path(), {.with_schema = true});
    for (std::uint64_t i = 0; i < 100; ++i) log.append(make_event(i));
  }
  auto check = [](bifrons::log_reader<LogEvent>& reader) {
    EXPECT_EQ(reader.type_name(), "test.LogEvent");
    EXPECT_EQ(reader.writer_schema(), bifrons::schema<LogEvent>());
    std::uint64_t n = 0;
    for (LogEvent e; reader.next(e); ++n) ASSERT_EQ(e, make_event(n));
    EXPECT_EQ(n, 100u);
    EXPECT_TRUE(reader.ok());
    EXPECT_EQ(reader.status().torn_tail_bytes, 0u);
    EXPECT_EQ(reader.messages(), 100u);
  };
  bifrons::log_reader<LogEvent> by_path(file.path());
  check(by_path);
  const int fd = ::open(file.path().c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  {
    bifrons::log_reader<LogEvent> by_fd(fd);
    check(by_fd);
  }
  EXPECT_EQ(::close(fd), 0);  // the reader left the caller's fd open
  std::ifstream stream(file.path(), std::ios::binary);
  bifrons::log_reader<LogEvent> by_stream(stream);
  check(by_stream);
}

TEST(Log, EveryDurabilityPolicyWritesTheSameRecords) {
  std::vector<std::size_t> offsets;
  const auto reference = small_log(40, offsets);
  for (const auto policy :
       {bifrons::durability::none, bifrons::durability::fsync_each, bifrons::durability::fsync_batch}) {
    std::vector<std::size_t> other_offsets;
    EXPECT_EQ(small_log(40, other_offsets, {.policy = policy, .buffer_bytes = 100}), reference);
    EXPECT_EQ(other_offsets, offsets);
  }
}

TEST(Log, AnEmptyLogHoldsItsHeaderOnly) {
  std::vector<std::size_t> offsets;
  const auto bytes = small_log(0, offsets);
  EXPECT_EQ(bytes.size(), offsets.front());
  const auto out = read_all(bytes);
  EXPECT_TRUE(out.events.empty());
  EXPECT_EQ(out.status.code, errc::ok);
  EXPECT_EQ(out.status.torn_tail_bytes, 0u);
}

TEST(Log, ALogOfAnotherTypeIsATypeMismatch) {
  std::vector<std::size_t> offsets;
  const auto bytes = small_log(3, offsets);
  std::istringstream in(as_string(bytes));
  bifrons::log_reader<Blob> reader(in);
  Blob b;
  EXPECT_FALSE(reader.next(b));
  EXPECT_EQ(reader.status().code, errc::type_mismatch);
  EXPECT_EQ(reader.status().offset, 5u);  // the name's length, after the magic and the format
  std::istringstream not_a_log(
      "\x89"
      "bfr not a log");
  bifrons::log_reader<LogEvent> other(not_a_log);
  LogEvent e;
  EXPECT_FALSE(other.next(e));
  EXPECT_EQ(other.status().code, errc::not_bifrons);
  EXPECT_EQ(other.status().offset, 0u);
}

// ---- corruption --------------------------------------------------------------------------------

TEST(LogCorruption, EverySingleBitFlipIsDetected) {
  std::vector<std::size_t> offsets;
  const auto bytes = small_log(6, offsets);
  const std::uint64_t header = offsets.front();
  for (std::size_t bit = 0; bit < 8 * bytes.size(); ++bit) {
    auto damaged = bytes;
    const std::size_t at = bit / 8;
    damaged[at] ^= std::byte{static_cast<unsigned char>(1u << (bit % 8))};
    const auto out = read_all(damaged);
    ASSERT_NE(out.status.code, errc::ok) << "bit " << bit << " flipped went unnoticed";
    if (at < header) {
      ASSERT_TRUE(out.events.empty());
      continue;
    }
    // The messages before the damaged record, then checksum_mismatch at the record.
    std::size_t record = 0;
    while (offsets[record + 1] <= at) ++record;
    ASSERT_EQ(out.status.code, errc::checksum_mismatch) << "bit " << bit;
    ASSERT_EQ(out.status.offset, offsets[record]) << "bit " << bit;
    ASSERT_EQ(out.events.size(), record);
    expect_prefix(out.events, record);
  }
}

TEST(LogCorruption, EveryTruncationIsATornTailNeverAWrongMessage) {
  std::vector<std::size_t> offsets;
  const auto bytes = small_log(6, offsets);
  for (std::size_t n = offsets.front(); n <= bytes.size(); ++n) {
    const std::vector<std::byte> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    const auto out = read_all(cut);
    std::size_t whole = 0;
    while (whole + 1 < offsets.size() && offsets[whole + 1] <= n) ++whole;
    ASSERT_EQ(out.status.code, errc::ok) << n;
    ASSERT_EQ(out.events.size(), whole) << n;
    expect_prefix(out.events, whole);
    ASSERT_EQ(out.status.offset, offsets[whole]) << n;
    ASSERT_EQ(out.status.torn_tail_bytes, n - offsets[whole]) << n;
  }
  // A cut inside the header is the header's unexpected_end.
  for (std::size_t n = 0; n < offsets.front(); ++n) {
    const auto out = read_all(std::vector<std::byte>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)));
    ASSERT_NE(out.status.code, errc::ok) << n;
    ASSERT_TRUE(out.events.empty());
  }
}

TEST(LogCorruption, SkippingDamagedRecordsKeepsTheRestAndCountsWhatItSkipped) {
  std::vector<std::size_t> offsets;
  const auto bytes = small_log(10, offsets);
  for (const std::size_t victim : {0u, 4u, 9u}) {
    auto damaged = bytes;
    damaged[offsets[victim] + 18] ^= std::byte{0x40};  // inside the payload
    std::vector<bifrons::log_status> reported;
    bifrons::log_read_options options;
    options.skip_damaged = true;
    options.on_damage = [&](const bifrons::log_status& s) { reported.push_back(s); };
    const auto out = read_all(damaged, options);
    EXPECT_EQ(out.status.code, errc::ok);
    ASSERT_EQ(out.events.size(), 9u);
    for (std::size_t i = 0, id = 0; i < out.events.size(); ++i, ++id) {
      if (id == victim) ++id;
      EXPECT_EQ(out.events[i], make_event(id));
    }
    EXPECT_EQ(out.damaged, 1u);
    EXPECT_EQ(out.skipped, offsets[victim + 1] - offsets[victim]);
    ASSERT_EQ(reported.size(), 1u);
    EXPECT_EQ(reported[0].offset, offsets[victim]);
    EXPECT_EQ(reported[0].code, errc::checksum_mismatch);
    EXPECT_STREQ(reported[0].what, "record payload");
    // The default stops at the damage.
    const auto stopped = read_all(damaged);
    EXPECT_EQ(stopped.status.code, errc::checksum_mismatch);
    EXPECT_EQ(stopped.status.offset, offsets[victim]);
    EXPECT_EQ(stopped.events.size(), victim);
  }
  // Garbage inserted between records, and a stretch of zeros overwriting three of them.
  auto inserted = bytes;
  inserted.insert(inserted.begin() + static_cast<std::ptrdiff_t>(offsets[3]), 77, std::byte{0x5e});
  bifrons::log_read_options skip;
  skip.skip_damaged = true;
  auto out = read_all(inserted, skip);
  EXPECT_EQ(out.events.size(), 10u);
  EXPECT_EQ(out.skipped, 77u);
  auto zeroed = bytes;
  std::fill(zeroed.begin() + static_cast<std::ptrdiff_t>(offsets[2]),
            zeroed.begin() + static_cast<std::ptrdiff_t>(offsets[5]), std::byte{0});
  out = read_all(zeroed, skip);
  EXPECT_EQ(out.events.size(), 7u);
  EXPECT_EQ(out.damaged, 1u);
  EXPECT_EQ(out.skipped, offsets[5] - offsets[2]);
  // Damage that runs to the end: skipped, not a torn tail.
  auto tail = bytes;
  std::fill(tail.begin() + static_cast<std::ptrdiff_t>(offsets[8]), tail.end(), std::byte{1});
  out = read_all(tail, skip);
  EXPECT_EQ(out.events.size(), 8u);
  EXPECT_EQ(out.status.torn_tail_bytes, 0u);
  EXPECT_EQ(out.skipped, bytes.size() - offsets[8]);
}

// ---- hostile logs ------------------------------------------------------------------------------

/// A record of payload with a correct header and checksum (as an attacker would write it).
void append_record(std::vector<std::byte>& log, std::span<const std::byte> payload, std::uint32_t claimed_length) {
  std::array<std::byte, 4> sync{};
  bifrons::detail::store_le(sync.data(), std::uint32_t{0x5eb1f0a3u});
  std::byte header[bifrons::log_record_header_size];
  bifrons::detail::log_record_header(header, sync, claimed_length,
                                     bifrons::detail::crc32c(0, payload.data(), payload.size()));
  log.insert(log.end(), header, header + sizeof header);
  log.insert(log.end(), payload.begin(), payload.end());
}

TEST(LogHostile, ALengthAboveTheLimitFailsBeforeAllocating) {
  std::vector<std::size_t> offsets;
  auto log = small_log(1, offsets);
  append_record(log, {}, 0xfffffff0u);  // claims 4 GiB, with a header checksum that matches
  bifrons::log_read_options options;
  options.limits.max_alloc_bytes = 1 << 20;
  const auto out = read_all(log, options);
  EXPECT_EQ(out.events.size(), 1u);
  EXPECT_EQ(out.status.code, errc::allocation_limit_exceeded);
  EXPECT_EQ(out.status.offset, offsets[1] + 4);
  // Within the limit but beyond the input: a torn tail, not an allocation of the claim.
  auto short_log = small_log(1, offsets);
  append_record(short_log, {}, 1u << 19);
  const auto torn = read_all(short_log, options);
  EXPECT_EQ(torn.status.code, errc::ok);
  EXPECT_EQ(torn.status.torn_tail_bytes, 16u);
}

TEST(LogHostile, GarbageWithMatchingChecksumsIsRefusedByTheMessagesReader) {
  std::vector<std::size_t> offsets;
  auto log = small_log(2, offsets);
  // A struct header that announces 127 bytes, in a 3-byte payload.
  const std::vector<std::byte> garbage{std::byte{0xfe}, std::byte{0x01}, std::byte{0x00}};
  append_record(log, garbage, 3);
  auto out = read_all(log);
  EXPECT_EQ(out.events.size(), 2u);
  EXPECT_EQ(out.status.code, errc::unexpected_end);
  EXPECT_STREQ(out.status.what, "message");
  EXPECT_GE(out.status.offset, offsets[2] + 16);
  // The per-message limits apply: a sequence of 1,000 ints under max_elements = 10.
  auto big = small_log(0, offsets);
  const auto payload = bifrons::to_bytes(LogEvent{1, "x", std::vector<std::int32_t>(1000, 1)});
  append_record(big, payload, static_cast<std::uint32_t>(payload.size()));
  bifrons::log_read_options options;
  options.limits.max_elements = 10;
  out = read_all(big, options);
  EXPECT_EQ(out.status.code, errc::element_limit_exceeded);
}

TEST(LogHostile, ResynchronisingPastHeadersThatClaimLargeLengthsIsLinear) {
  // After a damaged record, 64 Ki forged record headers, 16 bytes apart, each intact (marker and
  // header CRC) and claiming 1 MiB with a wrong payload CRC; every 4,096 of them, a real record;
  // then 1 MiB of zeros (so that every claim ends inside the log) and a last real record.
  // Checking each candidate's payload from its bytes would checksum 64 GiB; the scanner's work
  // (bytes checksummed, searched and moved) must stay within a small factor of the log's size.
  constexpr std::uint32_t claimed = 1u << 20;
  std::vector<std::size_t> offsets;
  auto log = small_log(2, offsets);
  log[offsets[1] + 18] ^= std::byte{0x40};  // the second record's payload
  std::array<std::byte, 4> sync{};
  bifrons::detail::store_le(sync.data(), std::uint32_t{0x5eb1f0a3u});
  std::vector<LogEvent> expected{make_event(0)};
  std::uint64_t kept = offsets[1];  // the header and the first record
  auto append_event = [&](const LogEvent& e) {
    const auto payload = bifrons::to_bytes(e);
    append_record(log, payload, static_cast<std::uint32_t>(payload.size()));
    expected.push_back(e);
    kept += bifrons::log_record_header_size + payload.size();
  };
  for (std::uint64_t group = 0; group < 16; ++group) {
    for (int i = 0; i < 4096; ++i) {
      std::byte header[bifrons::log_record_header_size];
      bifrons::detail::log_record_header(header, sync, claimed, 0);
      log.insert(log.end(), header, header + sizeof header);
    }
    append_event(make_event(100 + group, 40));
  }
  log.insert(log.end(), claimed, std::byte{0});
  append_event(make_event(999, 7));

  bifrons::log_read_options options;
  options.skip_damaged = true;
  std::istringstream in(as_string(log));
  bifrons::detail::log_scanner scanner(bifrons::detail::log_source(in), options);
  std::vector<LogEvent> read;
  std::span<const std::byte> payload;
  std::uint64_t at = 0;
  while (scanner.next(payload, at)) read.push_back(bifrons::from_bytes<LogEvent>(payload));
  EXPECT_EQ(scanner.status().code, errc::ok);
  EXPECT_EQ(scanner.status().torn_tail_bytes, 0u);
  EXPECT_EQ(read, expected);
  EXPECT_EQ(scanner.skipped_bytes(), log.size() - kept);
  EXPECT_EQ(scanner.damaged_stretches(), 17u);  // before each real record after the first
  EXPECT_LE(scanner.work(), 16 * log.size()) << "bytes checksummed, searched or moved, for " << log.size();
}

TEST(LogHostile, MillionsOfEmptyMessagesStreamInConstantMemory) {
  const std::size_t count = bifrons_test::scaled_count(1'000'000);
  TempFile file("bifrons-empty");
  std::uint64_t header = 0;
  {
    bifrons::log_appender<Empty> log(file.path(), {.policy = bifrons::durability::none});
    header = log.size();
    for (std::size_t i = 0; i < count; ++i) log.append(Empty{});
  }
  // Each a 16-byte record header and the 1-byte empty struct.
  EXPECT_EQ(fs::file_size(file.path()), header + count * 17);
  bifrons::log_reader<Empty> reader(file.path());
  std::size_t n = 0;
  for (Empty e; reader.next(e);) ++n;
  EXPECT_EQ(n, count);
  EXPECT_TRUE(reader.ok());
  // Records of length 0 (no message at all) are refused by the message's reader, one at a time.
  std::vector<std::size_t> offsets;
  auto log = small_log(0, offsets);
  for (int i = 0; i < 1000; ++i) append_record(log, {}, 0);
  const auto out = read_all(log);
  EXPECT_EQ(out.status.code, errc::unexpected_end);
  EXPECT_EQ(out.status.offset, offsets[0] + 16);
}

// ---- evolution -----------------------------------------------------------------------------------

TEST(LogEvolution, OlderAndNewerReadersFollowTheEvolutionRules) {
  TempFile file("bifrons-evolution");
  {
    bifrons::log_appender<LogEvent> log(file.path());
    for (std::uint64_t i = 0; i < 5; ++i) log.append(make_event(i));
  }
  bifrons::log_reader<LogEventV1> older(file.path());
  std::uint64_t n = 0;
  for (LogEventV1 e; older.next(e); ++n) {
    EXPECT_EQ(e.id, n);
    EXPECT_EQ(e.text, make_event(n).text);
  }
  EXPECT_EQ(n, 5u);
  EXPECT_TRUE(older.ok());
  // The older writer appends to the same log; the newer reader reads the new field's default.
  {
    bifrons::log_appender<LogEventV1> log(file.path());
    log.append(LogEventV1{5, "old"});
  }
  bifrons::log_reader<LogEvent> newer(file.path());
  std::vector<LogEvent> events;
  for (LogEvent e; newer.next(e);) events.push_back(e);
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events[4], make_event(4));
  EXPECT_EQ(events[5], (LogEvent{5, "old", {}}));
}

// ---- appending -----------------------------------------------------------------------------------

TEST(LogAppend, ReopeningCutsATornTailAndContinues) {
  TempFile file("bifrons-reopen");
  std::vector<std::size_t> offsets;
  const auto bytes = small_log(4, offsets);
  write_file(file.path(), std::vector<std::byte>(bytes.begin(), bytes.end() - 3));
  {
    bifrons::log_appender<LogEvent> log(file.path());
    EXPECT_EQ(log.torn_tail_cut(), offsets[4] - offsets[3] - 3);
    EXPECT_EQ(log.size(), offsets[3]);
    log.append(make_event(3));
    log.append(make_event(4));
  }
  bifrons::log_reader<LogEvent> reader(file.path());
  std::uint64_t n = 0;
  for (LogEvent e; reader.next(e); ++n) EXPECT_EQ(e, make_event(n));
  EXPECT_EQ(n, 5u);
  EXPECT_EQ(reader.status().torn_tail_bytes, 0u);
  EXPECT_EQ(read_file(file.path()).size(), offsets[4] + 16 + bifrons::serialized_size(make_event(4)));
}

TEST(LogAppend, RefusesALogOfAnotherTypeOrDamagedBeforeItsEnd) {
  TempFile file("bifrons-refuse");
  std::vector<std::size_t> offsets;
  auto bytes = small_log(4, offsets);
  write_file(file.path(), bytes);
  try {
    bifrons::log_appender<Blob> log(file.path());
    FAIL() << "appended to a log of another type";
  } catch (const bifrons::log_error& e) {
    EXPECT_EQ(e.code(), errc::type_mismatch);
  }
  bytes[offsets[1] + 20] ^= std::byte{1};
  write_file(file.path(), bytes);
  try {
    bifrons::log_appender<LogEvent> log(file.path());
    FAIL() << "appended after damage";
  } catch (const bifrons::log_error& e) {
    EXPECT_EQ(e.code(), errc::checksum_mismatch);
    EXPECT_EQ(e.offset(), offsets[1]);
    EXPECT_STREQ(e.what(), ("bifrons: record payload: checksum mismatch (the data is damaged) at byte " +
                            std::to_string(offsets[1]))
                               .c_str());
  }
  EXPECT_EQ(read_file(file.path()), bytes);  // untouched
}

TEST(LogAppend, RefusesOversizedMessagesAndAppendsAfterClose) {
  TempFile file("bifrons-limits");
  bifrons::log_appender<LogEvent> log(file.path(), {.max_message_bytes = 64});
  try {
    log.append(make_event(1, 100));
    FAIL() << "a 100-byte message under a 64-byte limit";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::allocation_limit_exceeded);
  }
  const std::uint64_t before = log.size();
  log.append(make_event(2));
  EXPECT_EQ(log.size(), before + 16 + bifrons::serialized_size(make_event(2)));
  log.close();
  EXPECT_THROW(log.append(make_event(3)), std::logic_error);
  bifrons::log_reader<LogEvent> reader(file.path());
  LogEvent e;
  ASSERT_TRUE(reader.next(e));
  EXPECT_EQ(e, make_event(2));
  EXPECT_FALSE(reader.next(e));
  EXPECT_TRUE(reader.ok());
}

TEST(LogAppend, AppendsToADescriptor) {
  TempFile file("bifrons-fd");
  const int fd = ::open(file.path().c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  {
    bifrons::log_appender<LogEvent> log(fd, {.policy = bifrons::durability::fsync_batch});
    log.append(make_event(0));
    log.commit();
  }
  {
    bifrons::log_appender<LogEvent> again(fd, {});
    again.append(make_event(1));
  }
  EXPECT_EQ(::close(fd), 0);
  bifrons::log_reader<LogEvent> reader(file.path());
  std::uint64_t n = 0;
  for (LogEvent e; reader.next(e); ++n) EXPECT_EQ(e, make_event(n));
  EXPECT_EQ(n, 2u);
}

TEST(LogErrors, FilesThatCannotBeOpenedThrowSystemErrors) {
  const fs::path missing = fs::temp_directory_path() / "bifrons-no-such-dir" / "x.log";
  EXPECT_THROW(bifrons::log_reader<LogEvent>{missing}, std::system_error);
  EXPECT_THROW(bifrons::log_appender<LogEvent>{missing}, std::system_error);
}

/// A stream buffer that fails after n bytes (a disk error under an istream).
class failing_buffer : public std::streambuf {
 public:
  explicit failing_buffer(std::string data) : data_(std::move(data)) {
    setg(data_.data(), data_.data(), data_.data() + data_.size());
  }

 protected:
  int_type underflow() override { throw std::runtime_error("the disk failed"); }

 private:
  std::string data_;
};

TEST(LogErrors, AStreamThatFailsIsAStreamError) {
  std::vector<std::size_t> offsets;
  const auto bytes = small_log(3, offsets);
  failing_buffer buffer(as_string(bytes).substr(0, offsets[2] + 5));
  std::istream in(&buffer);
  bifrons::log_reader<LogEvent> reader(in);
  std::vector<LogEvent> events;
  for (LogEvent e; reader.next(e);) events.push_back(e);
  // libstdc++'s istream::read drops what it read in a call that failed: what came before, if any.
  expect_prefix(events, 2);
  EXPECT_EQ(reader.status().code, errc::stream_error);
  EXPECT_STREQ(reader.status().what, "read");
}

TEST(LogErrors, BrokenHeadersAreRefusedWithTheirOffsets) {
  std::vector<std::size_t> offsets;
  const auto good = small_log(0, offsets);
  auto outcome = [](std::vector<std::byte> bytes) {
    const auto out = read_all(bytes);
    return std::string(bifrons::describe(out.status.code)) + " at " + std::to_string(out.status.offset);
  };
  auto overlong = good;  // the format as 81 00: not minimal
  overlong[4] = std::byte{0x81};
  overlong.insert(overlong.begin() + 5, std::byte{0x00});
  EXPECT_EQ(outcome(overlong), "malformed varint at 4");
  auto format_2 = good;
  format_2[4] = std::byte{2};
  EXPECT_EQ(outcome(format_2), "not bifrons data (no frame, or an unknown format version) at 4");
  auto long_name = good;  // a name of 5,000 bytes: over the 4,096 a header may hold
  long_name[5] = std::byte{0x88};
  long_name.insert(long_name.begin() + 6, std::byte{0x27});
  EXPECT_EQ(outcome(long_name), "allocation budget exceeded at 5");
  auto bad_crc = good;
  bad_crc.back() ^= std::byte{1};
  EXPECT_EQ(outcome(bad_crc), "checksum mismatch (the data is damaged) at " + std::to_string(good.size() - 4));
  EXPECT_EQ(outcome(std::vector<std::byte>(good.begin(), good.begin() + 8)), "unexpected end of input at 8");
  EXPECT_EQ(outcome(std::vector<std::byte>(good.begin(), good.end() - 2)),
            "unexpected end of input at " + std::to_string(good.size() - 2));
  EXPECT_EQ(outcome(std::vector<std::byte>(good.begin(), good.begin() + 5)), "unexpected end of input at 5");
}

// The two tests below fork. Under qemu-i386 (the cross-i686 stage) a forked child of the
// multi-threaded emulator never runs (it spins, and the test waits for its report), so they are
// not built there; what they check, the host kernel's durability and the reader's resident
// memory, they check natively in every other stage and under qemu-s390x and qemu-ppc.
#if !(BIFRONS_TEST_EMULATED && defined(__i386__))

// ---- crash consistency ---------------------------------------------------------------------------

/// The child: appends events from first_id on, reporting each id on `report` once append returned.
[[noreturn]] void crash_writer(const fs::path& path, std::uint64_t first_id, int report, unsigned seed) {
  std::mt19937 random(seed);
  try {
    bifrons::log_appender<LogEvent> log(path, {.policy = bifrons::durability::flush_each});
    for (std::uint64_t id = first_id;; ++id) {
      // Mostly small messages, some of 16-80 KiB, which a kill can cut inside the write.
      const std::size_t size = random() % 8 == 0 ? 16'000 + random() % 64'000 : 1 + random() % 200;
      log.append(make_event(id, size));
      if (::write(report, &id, sizeof id) != static_cast<::ssize_t>(sizeof id)) ::_exit(3);
    }
  } catch (...) {
    ::_exit(2);
  }
}

TEST(LogCrash, EveryMessageReportedDurableSurvivesSigkill) {
  TempFile file("bifrons-crash");
  std::mt19937 random(20261128);
  // 200 kills natively; a tenth under qemu-user (the cross stages), where each fork costs about
  // 0.3 s and the kills exercise the same host kernel (tests/emulation.hpp).
  const int kills = static_cast<int>(bifrons_test::scaled_count(200));
  std::uint64_t next_id = 0;
  int torn_tails = 0;
  std::uint64_t reported_total = 0;
  for (int kill = 0; kill < kills; ++kill) {
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(pipe_fds[0]);
      crash_writer(file.path(), next_id, pipe_fds[1], static_cast<unsigned>(random()));
    }
    ::close(pipe_fds[1]);
    // Wait for at least one report (the child has reopened the log), then a random while.
    std::uint64_t last_reported = next_id;
    bool any = false;
    pollfd p{pipe_fds[0], POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 20'000), 1) << "the writer reported nothing";
    ::usleep(static_cast<useconds_t>(random() % 1000));
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer exited with " << WEXITSTATUS(status);
    std::uint64_t id = 0;
    while (::read(pipe_fds[0], &id, sizeof id) == static_cast<::ssize_t>(sizeof id)) {
      last_reported = id;
      any = true;
    }
    ::close(pipe_fds[0]);
    ASSERT_TRUE(any);
    reported_total += last_reported + 1 - next_id;
    // Every reported message reads back intact, in order; a torn tail is reported, not returned.
    bifrons::log_reader<LogEvent> reader(file.path());
    std::uint64_t n = 0;
    for (LogEvent e; reader.next(e); ++n) {
      ASSERT_EQ(e.id, n);
      ASSERT_EQ(e.values, make_event(n).values);
      ASSERT_TRUE(e.text.empty() || e.text.find_first_not_of(e.text[0]) == std::string::npos);
    }
    ASSERT_TRUE(reader.ok()) << bifrons::describe(reader.status().code) << " at " << reader.status().offset;
    ASSERT_GE(n, last_reported + 1) << "a message reported durable was lost at kill " << kill;
    ASSERT_LE(n, last_reported + 2);
    torn_tails += reader.status().torn_tail_bytes != 0;
    next_id = n;
    // Start again now and then, so that reopening (which reads the whole log) stays fast.
    if (fs::file_size(file.path()) > (std::uintmax_t{256} << 10)) {
      fs::remove(file.path());
      next_id = 0;
    }
  }
  // The log still takes messages after the last kill.
  {
    bifrons::log_appender<LogEvent> log(file.path());
    log.append(make_event(next_id));
  }
  bifrons::log_reader<LogEvent> reader(file.path());
  std::uint64_t n = 0;
  for (LogEvent e; reader.next(e); ++n) ASSERT_EQ(e.id, n);
  EXPECT_EQ(n, next_id + 1);
  EXPECT_EQ(reader.status().torn_tail_bytes, 0u);
  std::printf("[ crash    ] %d kills, %d torn tails cut on reopening, %llu messages reported durable\n", kills,
              torn_tails, static_cast<unsigned long long>(reported_total));
}

// ---- bounded memory ------------------------------------------------------------------------------

/// The peak resident memory so far in KiB; under ASan, the heap's live bytes now (see above).
long memory_kib() {
#ifdef BIFRONS_TEST_ASAN
  return static_cast<long>(__sanitizer_get_current_allocated_bytes() / 1024);
#else
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
#endif
}

TEST(LogMemory, ReadingALargeLogKeepsResidentMemoryBounded) {
  // BIFRONS_LOG_TEST_MIB=4096 runs the 4 GiB version (docs/format.md section 36).
  const char* env = std::getenv("BIFRONS_LOG_TEST_MIB");
  const std::uint64_t mib = env != nullptr ? std::strtoull(env, nullptr, 10) : (bifrons_test::emulated ? 16 : 128);
  TempFile file("bifrons-large");
  std::uint64_t messages = 0;
  {
    bifrons::log_appender<Blob> log(file.path(), {.policy = bifrons::durability::none});
    Blob blob;
    std::mt19937 random(4);
    while (log.size() < (mib << 20)) {
      blob.id = messages++;
      blob.data.assign(1 + random() % (1 << 20), static_cast<std::uint8_t>(blob.id));
      log.append(blob);
    }
  }
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // A fresh process: the growth of its peak RSS is what reading the log costs.
    long result[3] = {memory_kib(), 0, 0};
    long peak = result[0];
    bifrons::log_reader<Blob> reader(file.path());
    std::uint64_t n = 0;
    for (Blob b; reader.next(b); ++n) {
      if (b.id != n || (!b.data.empty() && b.data.back() != static_cast<std::uint8_t>(n))) ::_exit(3);
      peak = std::max(peak, memory_kib());
    }
    result[1] = std::max(peak, memory_kib());
    result[2] = static_cast<long>(n);
    const bool written = ::write(pipe_fds[1], result, sizeof result) == static_cast<::ssize_t>(sizeof result);
    ::_exit(written && reader.ok() ? 0 : 4);
  }
  ::close(pipe_fds[1]);
  long result[3] = {};
  const bool got = ::read(pipe_fds[0], result, sizeof result) == static_cast<::ssize_t>(sizeof result);
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the reading child failed";
  ASSERT_TRUE(got);
  EXPECT_EQ(static_cast<std::uint64_t>(result[2]), messages);
  const long growth_kib = result[1] - result[0];
  // The largest message is 1 MiB: its record in the buffer, the value read, the buffer's 64 KiB.
  EXPECT_LT(growth_kib, 16 * 1024) << "reading " << mib << " MiB";
#ifdef BIFRONS_TEST_ASAN
  const char* measured = "the live heap's peak";
#else
  const char* measured = "peak RSS";
#endif
  std::printf("[ memory   ] read %llu MiB (%llu messages): %s grew by %ld KiB\n", static_cast<unsigned long long>(mib),
              static_cast<unsigned long long>(messages), measured, growth_kib);
}
#endif  // !(BIFRONS_TEST_EMULATED && defined(__i386__))

}  // namespace
