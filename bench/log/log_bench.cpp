// The log benchmark (docs/benchmarks.md, "Logs"): N Account messages (the CppSerialization
// workload of the harness) written to a file in the page cache and read back,
//
//   - bifrons: log_appender<Account> (durability::none, checksums on: every record has its
//     CRC32C) and log_reader<Account>, counting the serialization;
//   - floor: the same messages' bifrons encodings (to_bytes) back to back in a 1 MiB buffer,
//     written with write() when it fills, and read() in 1 MiB calls with from_bytes of each
//     message into a reused Account, the lengths known out of band: serialization and raw IO
//     without the log's record headers and CRCs, the floor under any log of these messages;
//   - floor+CRC: the floor, with each message's CRC32C computed as it is written and checked
//     before it is read (kept out of band, as the lengths): the floor under any log that
//     checksums its records, as the issue asks;
//   - raw: write() and read() of the very bytes of the bifrons log in 1 MiB calls, no
//     serialization: the limit;
//   - protobuf: SerializeDelimitedToZeroCopyStream / ParseDelimitedFromZeroCopyStream over a
//     FileOutputStream / FileInputStream, with the conversions to and from the generated
//     message (as the protobuf adapter times them).
//
// Usage: bench_log [messages (1000000)] [directory ($TMPDIR or /tmp)] [rounds (3)]
// Prints the median round of each, in MB/s of the bifrons log's bytes, and the ratios. Exits
// non-zero if a message does not read back, or if the floor's bytes are not the log's payloads
// (the floor and the log then read back the same values: both are compared with every message).
#include <bifrons/bifrons.hpp>
#include <bifrons/log.hpp>
#include <fcntl.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "../adapters/protobuf_account.hpp"
#include "../harness/models.hpp"

namespace {

namespace m = bench::model;
// The thread's CPU time (user and system: write() and read() into the page cache are CPU work in
// the kernel), as the rest of the suite measures: wall time would also count the time other jobs
// on the machine took the CPU away, which moved these timings by 2x on a loaded machine.
struct clock_type {
  using time_point = double;
  static double now() {
    ::timespec t{};
    if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) std::abort();
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
};

double seconds_since(clock_type::time_point start) { return clock_type::now() - start; }

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(2);
}

struct timings {
  double write = 0;
  double read = 0;
};

/// The median round of each direction (the machine is shared: the best round flatters).
struct rounds_of {
  std::vector<double> writes, reads;
  void add(const timings& t) {
    writes.push_back(t.write);
    reads.push_back(t.read);
  }
  static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 == 1 ? v[h] : (v[h - 1] + v[h]) / 2;
  }
  [[nodiscard]] timings medians() const { return {median(writes), median(reads)}; }
};

constexpr std::size_t io_chunk = 1 << 20;

bool check(const m::Account& got, const m::Account& base, std::uint64_t i) {
  return got.id == static_cast<std::int32_t>(i) && got.name == base.name && got.orders == base.orders;
}

/// Every field, for bifrons' two readers (the log and the floor).
bool check_all(const m::Account& got, m::Account& expected, std::uint64_t i) {
  expected.id = static_cast<std::int32_t>(i);
  return got == expected;
}

void write_all(int fd, const std::byte* p, std::size_t n, const char* what) {
  while (n > 0) {
    const ::ssize_t k = ::write(fd, p, std::min(io_chunk, n));
    if (k <= 0) die(what);
    p += k;
    n -= static_cast<std::size_t>(k);
  }
}

timings run_bifrons(const std::string& path, std::uint64_t n, const m::Account& base) {
  std::filesystem::remove(path);
  m::Account a = base;
  auto start = clock_type::now();
  {
    bifrons::log_appender<m::Account> log(path, {.policy = bifrons::durability::none, .buffer_bytes = 1 << 20});
    for (std::uint64_t i = 0; i < n; ++i) {
      a.id = static_cast<std::int32_t>(i);
      log.append(a);
    }
  }
  const double w = seconds_since(start);
  start = clock_type::now();
  bifrons::log_reader<m::Account> reader(path);
  std::uint64_t i = 0;
  m::Account expected = base;
  for (m::Account got; reader.next(got); ++i)
    if (!check_all(got, expected, i)) die("bifrons: a message did not read back");
  const double r = seconds_since(start);
  if (i != n || !reader.ok()) die("bifrons: the log did not read back");
  return {w, r};
}

/// The floor; with `checksummed`, each message's CRC32C is computed as it is written and checked
/// before it is read (the CRCs kept out of band, as the lengths are): the floor under any log
/// whose records carry a checksum of their payloads, which the issue asks for.
timings run_floor(const std::string& path, std::uint64_t n, const m::Account& base,
                  std::vector<std::uint32_t>& lengths, bool checksummed = false) {
  std::vector<std::uint32_t> crcs;
  if (checksummed) crcs.reserve(n);
  std::filesystem::remove(path);
  lengths.clear();
  lengths.reserve(n);
  m::Account a = base;
  auto start = clock_type::now();
  {
    const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out < 0) die("floor: open");
    std::vector<std::byte> buffer;
    for (std::uint64_t i = 0; i < n; ++i) {
      a.id = static_cast<std::int32_t>(i);
      const std::size_t at = buffer.size();
      bifrons::to_bytes(a, buffer);
      lengths.push_back(static_cast<std::uint32_t>(buffer.size() - at));
      if (checksummed) crcs.push_back(bifrons::detail::crc32c(0, buffer.data() + at, buffer.size() - at));
      if (buffer.size() >= io_chunk) {
        write_all(out, buffer.data(), buffer.size(), "floor: write");
        buffer.clear();
      }
    }
    write_all(out, buffer.data(), buffer.size(), "floor: write");
    ::close(out);
  }
  const double w = seconds_since(start);
  start = clock_type::now();
  const int in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) die("floor: open");
  std::vector<std::byte> buffer(io_chunk);
  std::size_t begin = 0, end = 0;
  m::Account got, expected = base;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::size_t length = lengths[i];
    if (end - begin < length) {
      std::memmove(buffer.data(), buffer.data() + begin, end - begin);
      end -= begin;
      begin = 0;
      if (buffer.size() < length) buffer.resize(length);
      while (end < length) {
        const ::ssize_t k = ::read(in, buffer.data() + end, buffer.size() - end);
        if (k <= 0) die("floor: read");
        end += static_cast<std::size_t>(k);
      }
    }
    if (checksummed && bifrons::detail::crc32c(0, buffer.data() + begin, length) != crcs[i])
      die("floor: a message's checksum does not match");
    bifrons::from_bytes(std::span<const std::byte>(buffer.data() + begin, length), got);
    if (!check_all(got, expected, i)) die("floor: a message did not read back");
    begin += length;
  }
  if (begin != end || ::read(in, buffer.data(), buffer.size()) != 0) die("floor: bytes after the last message");
  ::close(in);
  return {w, seconds_since(start)};
}

/// The floor's file is the log's payloads, record by record: the two measure the same encoding.
void check_floor_is_the_logs_payloads(const std::string& path, const std::vector<char>& log_bytes,
                                      const std::vector<std::uint32_t>& lengths) {
  std::vector<char> floor_bytes(std::filesystem::file_size(path));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::read(fd, floor_bytes.data(), floor_bytes.size()) != static_cast<::ssize_t>(floor_bytes.size()))
    die("reading the floor's bytes");
  ::close(fd);
  const std::size_t records = floor_bytes.size() + lengths.size() * bifrons::log_record_header_size;
  if (records > log_bytes.size()) die("floor: more bytes than the log's payloads");
  std::size_t at_log = log_bytes.size() - records, at_floor = 0;  // the log's header comes first
  for (const std::uint32_t length : lengths) {
    at_log += bifrons::log_record_header_size;
    if (std::memcmp(log_bytes.data() + at_log, floor_bytes.data() + at_floor, length) != 0)
      die("floor: a message's bytes differ from the log's payload");
    at_log += length;
    at_floor += length;
  }
}

timings run_raw(const std::string& path, const std::vector<char>& bytes) {
  constexpr std::size_t chunk = io_chunk;
  std::filesystem::remove(path);
  auto start = clock_type::now();
  const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) die("raw: open");
  for (std::size_t at = 0; at < bytes.size();) {
    const ::ssize_t k = ::write(out, bytes.data() + at, std::min(chunk, bytes.size() - at));
    if (k <= 0) die("raw: write");
    at += static_cast<std::size_t>(k);
  }
  ::close(out);
  const double w = seconds_since(start);
  std::vector<char> buffer(chunk);
  std::size_t total = 0;
  start = clock_type::now();
  const int in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) die("raw: open");
  for (::ssize_t k; (k = ::read(in, buffer.data(), chunk)) > 0;) total += static_cast<std::size_t>(k);
  ::close(in);
  const double r = seconds_since(start);
  if (total != bytes.size()) die("raw: short read");
  return {w, r};
}

timings run_protobuf(const std::string& path, std::uint64_t n, const m::Account& base, std::uintmax_t& size) {
  std::filesystem::remove(path);
  benchpb::Account message;
  auto start = clock_type::now();
  {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) die("protobuf: open");
    google::protobuf::io::FileOutputStream out(fd, 1 << 20);
    m::Account a = base;
    for (std::uint64_t i = 0; i < n; ++i) {
      a.id = static_cast<std::int32_t>(i);
      message.Clear();
      bench_protobuf::fill(message, a);
      if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(message, &out)) die("protobuf: write");
    }
    if (!out.Close()) die("protobuf: close");
  }
  const double w = seconds_since(start);
  size = std::filesystem::file_size(path);
  start = clock_type::now();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) die("protobuf: open");
  {
    google::protobuf::io::FileInputStream in(fd, 1 << 20);
    m::Account got;
    std::uint64_t i = 0;
    bool clean_eof = false;
    // ParseDelimited merges into the message: cleared before each (as a user must).
    for (message.Clear(); google::protobuf::util::ParseDelimitedFromZeroCopyStream(&message, &in, &clean_eof);
         message.Clear()) {
      bench_protobuf::read(message, got);
      if (!check(got, base, i++)) die("protobuf: a message did not read back");
    }
    if (!clean_eof || i != n) die("protobuf: the stream did not read back");
  }
  ::close(fd);
  return {w, seconds_since(start)};
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  const char* tmp = std::getenv("TMPDIR");
  const std::string dir = argc > 2 ? argv[2] : (tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  const std::string path = dir + "/bifrons-bench-" + std::to_string(::getpid()) + ".log";
  const m::Account base = m::make_account();

  rounds_of bifrons_r, floor_r, checksummed_floor_r, raw_r, protobuf_r;
  std::uintmax_t protobuf_size = 0;
  std::vector<char> log_bytes;
  std::vector<std::uint32_t> lengths;
  for (int round = 0; round < rounds; ++round) {
    bifrons_r.add(run_bifrons(path, n, base));
    if (log_bytes.empty()) {
      log_bytes.resize(std::filesystem::file_size(path));
      const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0 || ::read(fd, log_bytes.data(), log_bytes.size()) != static_cast<::ssize_t>(log_bytes.size()))
        die("reading the log's bytes");
      ::close(fd);
    }
    floor_r.add(run_floor(path, n, base, lengths));
    if (round == 0) check_floor_is_the_logs_payloads(path, log_bytes, lengths);
    checksummed_floor_r.add(run_floor(path, n, base, lengths, true));
    raw_r.add(run_raw(path, log_bytes));
    protobuf_r.add(run_protobuf(path, n, base, protobuf_size));
  }
  std::filesystem::remove(path);
  const timings bifrons_t = bifrons_r.medians(), floor_t = floor_r.medians(),
                checksummed_floor_t = checksummed_floor_r.medians(), raw_t = raw_r.medians(),
                protobuf_t = protobuf_r.medians();

  const double mb = static_cast<double>(log_bytes.size()) / 1e6;
  std::printf(
      "%llu Account messages; bifrons log %.1f MB (%.1f bytes/message, CRC32C: %s), protobuf delimited "
      "%.1f MB; median of %d rounds, files in %s\n",
      static_cast<unsigned long long>(n), mb, static_cast<double>(log_bytes.size()) / static_cast<double>(n),
      bifrons::detail::crc32c_implementation(), static_cast<double>(protobuf_size) / 1e6, rounds, dir.c_str());
  std::printf("%-10s %12s %12s %12s   (MB/s of the bifrons log's bytes; ms)\n", "", "write", "read", "write+read");
  auto line = [&](const char* name, const timings& t) {
    std::printf("%-10s %7.0f MB/s %7.0f MB/s %7.0f MB/s   (%.0f ms + %.0f ms)\n", name, mb / t.write, mb / t.read,
                mb / (t.write + t.read), 1e3 * t.write, 1e3 * t.read);
  };
  line("raw", raw_t);
  line("floor", floor_t);
  line("floor+CRC", checksummed_floor_t);
  line("bifrons", bifrons_t);
  line("protobuf", protobuf_t);
  auto ratios = [](const char* what, const timings& base_t, const timings& t) {
    std::printf("%s: write %.2f, read %.2f, write+read %.2f\n", what, base_t.write / t.write, base_t.read / t.read,
                (base_t.write + base_t.read) / (t.write + t.read));
  };
  ratios("bifrons / floor throughput", floor_t, bifrons_t);
  ratios("bifrons / checksummed floor throughput (target: 0.80 each way)", checksummed_floor_t, bifrons_t);
  ratios("checksummed floor / floor throughput", floor_t, checksummed_floor_t);
  ratios("bifrons / raw throughput", raw_t, bifrons_t);
  ratios("floor / raw throughput", raw_t, floor_t);
  std::printf("bifrons speed-up over protobuf delimited: write %.2fx, read %.2fx, write+read %.2fx\n",
              protobuf_t.write / bifrons_t.write, protobuf_t.read / bifrons_t.read,
              (protobuf_t.write + protobuf_t.read) / (bifrons_t.write + bifrons_t.read));
  return 0;
}
