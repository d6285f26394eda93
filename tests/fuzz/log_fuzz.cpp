// Fuzz harness: bifrons::log_reader (bifrons/log.hpp) over a std::istream of the input, as a log
// of std::vector<std::int32_t> (the golden logs' type) and as a log of golden::Account.
//
// Each type reads the input as it is, and a log built from it whose records' checksums match
// (forged_log: garbage that only the messages' reader can refuse). Properties, for each:
//   - the reader never throws, ends cleanly (ok) or with an error at an offset inside the input;
//     ending ok, its end offset plus the torn tail's bytes is the input's size;
//   - with skip_damaged, it returns the messages the stopping reader returned, then maybe more;
//     when the stopping reader met no error, the skipping one returns the same and ends the same;
//     the bytes it skipped fit in the input;
//   - under tight read_options it returns a prefix of the reference messages;
//   - the scan's work (bytes checksummed, searched or moved) is linear in the input's size;
//   - the messages read, written back as a log with the same header, read back as the same
//     messages with no error, no torn tail and nothing skipped;
//   - a read holds at most three times max_alloc_bytes plus two 64 KiB buffers (the record, the
//     message being read, the buffer: docs/format.md section 36), plus bookkeeping.

#include <bifrons/log.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"

namespace {

using fuzz::bytes;
using fuzz::context;
using fuzz::input;

template <class T>
struct log_read {
  std::vector<T> messages;
  bifrons::log_status status;
  std::uint64_t skipped = 0;
  std::string type_name;
  std::array<std::byte, 4> sync{};
};

template <class T>
log_read<T> read_log(const context& ctx, input in, const bifrons::read_options& limits, bool skip) {
  std::istringstream stream(std::string(reinterpret_cast<const char*>(in.data()), in.size()));
  bifrons::log_read_options options;
  options.limits = limits;
  options.skip_damaged = skip;
  fuzz::allocations& a = fuzz::tracked();
  a = fuzz::allocations{};
  a.on = true;
  log_read<T> out;
  {
    bifrons::log_reader<T> reader(stream, options);
    for (T value; reader.next(value);) {
      a.on = false;  // the harness's copies are not the reader's memory
      out.messages.push_back(value);
      a.on = true;
    }
    out.status = reader.status();
    out.skipped = reader.skipped_bytes();
    out.type_name = std::string(reader.type_name());
  }
  a.on = false;
  const std::size_t bound = 3 * limits.max_alloc_bytes + 2 * (std::size_t{64} << 10) + 64 * in.size() + 4096;
  ctx.check(static_cast<std::size_t>(std::max<std::int64_t>(a.peak, 0)) <= bound,
            "log reader: held more than 3 x max_alloc_bytes + its buffers");
  return out;
}

template <class T>
bool same_messages(const std::vector<T>& a, const std::vector<T>& b, std::size_t n) {
  if (a.size() < n || b.size() < n) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (bifrons::to_bytes(a[i]) != bifrons::to_bytes(b[i])) return false;
  return true;
}

template <class T>
void check_log(const char* name, input in) {
  const context ctx{name, in};
  const auto stopped = read_log<T>(ctx, in, fuzz::reference_limits, false);
  const bifrons::log_status& s = stopped.status;
  if (s.code == bifrons::errc::ok)
    ctx.check(s.offset + s.torn_tail_bytes == in.size(), "log reader: ended ok before the end of the input");
  else
    ctx.check(s.offset <= in.size() && s.torn_tail_bytes == 0, "log reader: an error outside the input");

  const auto skipping = read_log<T>(ctx, in, fuzz::reference_limits, true);
  ctx.check(same_messages(skipping.messages, stopped.messages, stopped.messages.size()),
            "log reader: skip_damaged lost or changed a message before the first damage");
  ctx.check(skipping.skipped <= in.size(), "log reader: skipped more bytes than the input holds");
  if (s.code == bifrons::errc::ok)
    ctx.check(skipping.messages.size() == stopped.messages.size() && skipping.status.code == s.code &&
                  skipping.status.offset == s.offset && skipping.status.torn_tail_bytes == s.torn_tail_bytes &&
                  skipping.skipped == 0,
              "log reader: skip_damaged differs on a log without damage");

  // The scan's work (bytes checksummed, searched or moved) is linear in the input, damage or not:
  // per byte at most one marker search, one header CRC and two register-mark tails of under 64
  // bytes (a candidate at every byte), one register mark, two direct checks, 8 batches' checks
  // (verify_buffered) and 8 moves (log_scanner's comment). Inputs of CI's sizes stay under it
  // either way; campaigns with a larger -max_len (scripts/fuzz) can break it.
  {
    std::istringstream stream(std::string(reinterpret_cast<const char*>(in.data()), in.size()));
    bifrons::log_read_options options;
    options.limits = fuzz::reference_limits;
    options.skip_damaged = true;
    bifrons::detail::log_scanner scanner(bifrons::detail::log_source(stream), options);
    std::span<const std::byte> payload;
    std::uint64_t at = 0;
    while (scanner.next(payload, at)) {
    }
    ctx.check(scanner.work() <= 192 * std::uint64_t{in.size()} + (std::uint64_t{64} << 10),
              "log reader: resynchronising did more than linear work");
  }

  for (const auto& limits : fuzz::tight_limits) {
    const auto tight = read_log<T>(ctx, in, limits, false);
    ctx.check(tight.messages.size() <= stopped.messages.size() &&
                  same_messages(tight.messages, stopped.messages, tight.messages.size()),
              "log reader: tight limits returned other messages");
  }

  // Written back as a log: the same messages, intact.
  if (stopped.type_name.empty() || skipping.messages.empty()) return;
  std::array<std::byte, 4> sync{};
  bifrons::detail::store_le(sync.data(), std::uint32_t{0x5eb1f0a3u});
  bytes log = bifrons::detail::log_header_bytes(stopped.type_name, {}, sync);
  for (const T& m : skipping.messages) {
    const bytes payload = bifrons::to_bytes(m);
    std::byte header[bifrons::log_record_header_size];
    bifrons::detail::log_record_header(header, sync, static_cast<std::uint32_t>(payload.size()),
                                       bifrons::detail::crc32c(0, payload.data(), payload.size()));
    log.insert(log.end(), header, header + sizeof header);
    log.insert(log.end(), payload.begin(), payload.end());
  }
  const auto again = read_log<T>(ctx, log, fuzz::reference_limits, false);
  ctx.check(again.status.code == bifrons::errc::ok && again.status.torn_tail_bytes == 0 &&
                again.messages.size() == skipping.messages.size() &&
                same_messages(again.messages, skipping.messages, again.messages.size()),
            "log reader: the messages read, written back, do not read back");
}

/// The input as the payloads of records with valid checksums (garbage a checksum does not stop):
/// each record's length is the next input byte, and a last record shorter than its length is a
/// torn tail.
template <class T>
bytes forged_log(input in) {
  std::array<std::byte, 4> sync{};
  bifrons::detail::store_le(sync.data(), std::uint32_t{0x5eb1f0a3u});
  bytes log = bifrons::detail::log_header_bytes(bifrons::frame_type_name<T>(), {}, sync);
  for (std::size_t pos = 0; pos < in.size();) {
    const std::size_t length = std::to_integer<std::size_t>(in[pos++]);
    const std::size_t present = std::min(length, in.size() - pos);
    std::byte header[bifrons::log_record_header_size];
    bifrons::detail::log_record_header(header, sync, static_cast<std::uint32_t>(length),
                                       bifrons::detail::crc32c(0, in.data() + pos, length == present ? length : 0));
    log.insert(log.end(), header, header + sizeof header);
    log.insert(log.end(), in.begin() + static_cast<std::ptrdiff_t>(pos),
               in.begin() + static_cast<std::ptrdiff_t>(pos + present));
    pos += present;
  }
  return log;
}

/// Seeds: the golden logs, a log of the golden Account, and a resynchronisation past forged
/// headers that claim large lengths.
void write_log_seeds(const std::string& dir) {
  for (const char* name : {"intact", "torn_tail", "damaged_middle"})
    fuzz::write_file(dir + "/golden-" + name + ".log",
                     fuzz::read_file(std::string(BIFRONS_FUZZ_GOLDEN_DIR) + "/log/" + name + ".log"));
  std::array<std::byte, 4> sync{};
  bifrons::detail::store_le(sync.data(), std::uint32_t{0x01020304u});
  bytes log = bifrons::detail::log_header_bytes(bifrons::frame_type_name<golden::Account>(), {}, sync);
  for (const auto& account : {golden::account::value(), golden::Account{}}) {
    const bytes payload = bifrons::to_bytes(account);
    std::byte header[bifrons::log_record_header_size];
    bifrons::detail::log_record_header(header, sync, static_cast<std::uint32_t>(payload.size()),
                                       bifrons::detail::crc32c(0, payload.data(), payload.size()));
    log.insert(log.end(), header, header + sizeof header);
    log.insert(log.end(), payload.begin(), payload.end());
  }
  fuzz::write_file(dir + "/accounts.log", log);

  // Resynchronisation under hostile headers: a damaged record, then forged intact headers 16
  // bytes apart claiming 2 KiB each (wrong payload CRCs) with a real record every 32 of them,
  // zeros so that every claim ends inside the log, and a last real record. (Kept small: the
  // largest seed sets libFuzzer's input size. tests/log_test.cpp's LogHostile test is the one
  // large enough for checking each claim from its bytes to break the linear bound.)
  bytes hostile = bifrons::detail::log_header_bytes(bifrons::frame_type_name<std::vector<std::int32_t>>(), {}, sync);
  auto append_message = [&](const std::vector<std::int32_t>& value, bool damage) {
    bytes payload = bifrons::to_bytes(value);
    std::byte header[bifrons::log_record_header_size];
    bifrons::detail::log_record_header(header, sync, static_cast<std::uint32_t>(payload.size()),
                                       bifrons::detail::crc32c(0, payload.data(), payload.size()));
    if (damage) payload.back() ^= std::byte{1};
    hostile.insert(hostile.end(), header, header + sizeof header);
    hostile.insert(hostile.end(), payload.begin(), payload.end());
  };
  append_message({1, 2, 3}, false);
  append_message({4, 5, 6}, true);
  constexpr std::uint32_t claimed = 2048;
  for (std::int32_t group = 0; group < 4; ++group) {
    for (int i = 0; i < 32; ++i) {
      std::byte header[bifrons::log_record_header_size];
      bifrons::detail::log_record_header(header, sync, claimed, 0);
      hostile.insert(hostile.end(), header, header + sizeof header);
    }
    append_message({group, -group}, false);
  }
  hostile.insert(hostile.end(), claimed, std::byte{0});
  append_message({7}, false);
  fuzz::write_file(dir + "/hostile-resync.log", hostile);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("BIFRONS_FUZZ_SEEDS");
  if (dir != nullptr && *dir != '\0') write_log_seeds(dir);
  fuzz::initialize<>();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const input in(reinterpret_cast<const std::byte*>(data), size);
  check_log<std::vector<std::int32_t>>("log of sequence<i32>", in);
  check_log<golden::Account>("log of golden::Account", in);
  check_log<std::vector<std::int32_t>>("forged log of sequence<i32>", forged_log<std::vector<std::int32_t>>(in));
  check_log<golden::Account>("forged log of golden::Account", forged_log<golden::Account>(in));
  return 0;
}
