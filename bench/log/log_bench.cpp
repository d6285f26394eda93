// The log benchmark (docs/benchmarks.md, "Logs"): N Account messages (the CppSerialization
// workload of the harness) written to a file in the page cache and read back,
//
//   - bifrons: log_appender<Account> (durability::none, checksums on: every record has its
//     CRC32C) and log_reader<Account>, counting the serialization;
//   - raw: write() and read() of the very bytes of the bifrons log in 1 MiB calls, no
//     serialization: the limit;
//   - protobuf: SerializeDelimitedToZeroCopyStream / ParseDelimitedFromZeroCopyStream over a
//     FileOutputStream / FileInputStream, with the conversions to and from the generated
//     message (as the protobuf adapter times them).
//
// Usage: bench_log [messages (1000000)] [directory ($TMPDIR or /tmp)] [rounds (3)]
// Prints the best round of each, in MB/s of the bifrons log's bytes, and the ratios. Exits
// non-zero if a message does not read back.
#include <bifrons/bifrons.hpp>
#include <bifrons/log.hpp>
#include <fcntl.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "../adapters/protobuf_account.hpp"
#include "../harness/models.hpp"

namespace {

namespace m = bench::model;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(2);
}

struct timings {
  double write = 1e300;
  double read = 1e300;
  void keep_best(double w, double r) {
    write = std::min(write, w);
    read = std::min(read, r);
  }
};

bool check(const m::Account& got, const m::Account& base, std::uint64_t i) {
  return got.id == static_cast<std::int32_t>(i) && got.name == base.name && got.orders == base.orders;
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
  for (m::Account got; reader.next(got); ++i)
    if (!check(got, base, i)) die("bifrons: a message did not read back");
  const double r = seconds_since(start);
  if (i != n || !reader.ok()) die("bifrons: the log did not read back");
  return {w, r};
}

timings run_raw(const std::string& path, const std::vector<char>& bytes) {
  constexpr std::size_t chunk = 1 << 20;
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

  timings bifrons_t, raw_t, protobuf_t;
  std::uintmax_t protobuf_size = 0;
  std::vector<char> log_bytes;
  for (int round = 0; round < rounds; ++round) {
    const timings b = run_bifrons(path, n, base);
    bifrons_t.keep_best(b.write, b.read);
    if (log_bytes.empty()) {
      log_bytes.resize(std::filesystem::file_size(path));
      const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0 || ::read(fd, log_bytes.data(), log_bytes.size()) != static_cast<::ssize_t>(log_bytes.size()))
        die("reading the log's bytes");
      ::close(fd);
    }
    const timings r = run_raw(path, log_bytes);
    raw_t.keep_best(r.write, r.read);
    const timings p = run_protobuf(path, n, base, protobuf_size);
    protobuf_t.keep_best(p.write, p.read);
  }
  std::filesystem::remove(path);

  const double mb = static_cast<double>(log_bytes.size()) / 1e6;
  std::printf("%llu Account messages; bifrons log %.1f MB (%.1f bytes/message, CRC32C: %s), protobuf delimited "
              "%.1f MB; best of %d rounds, files in %s\n",
              static_cast<unsigned long long>(n), mb, static_cast<double>(log_bytes.size()) / static_cast<double>(n),
              bifrons::detail::crc32c_implementation(), static_cast<double>(protobuf_size) / 1e6, rounds, dir.c_str());
  std::printf("%-10s %12s %12s %12s   (MB/s of the bifrons log's bytes; ms)\n", "", "write", "read", "write+read");
  auto line = [&](const char* name, const timings& t) {
    std::printf("%-10s %7.0f MB/s %7.0f MB/s %7.0f MB/s   (%.0f ms + %.0f ms)\n", name, mb / t.write, mb / t.read,
                mb / (t.write + t.read), 1e3 * t.write, 1e3 * t.read);
  };
  line("raw", raw_t);
  line("bifrons", bifrons_t);
  line("protobuf", protobuf_t);
  std::printf("bifrons / raw throughput: write %.2f, read %.2f, write+read %.2f\n", raw_t.write / bifrons_t.write,
              raw_t.read / bifrons_t.read, (raw_t.write + raw_t.read) / (bifrons_t.write + bifrons_t.read));
  std::printf("bifrons speed-up over protobuf delimited: write %.2fx, read %.2fx, write+read %.2fx\n",
              protobuf_t.write / bifrons_t.write, protobuf_t.read / bifrons_t.read,
              (protobuf_t.write + protobuf_t.read) / (bifrons_t.write + bifrons_t.read));
  return 0;
}
