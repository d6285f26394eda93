// SPDX-License-Identifier: MIT
#pragma once
// Logs (docs/format.md section 36): a file or stream of many messages of one type, each with its
// length and a CRC32C, read one message at a time in memory bounded by the largest message plus
// a fixed buffer, never by the file's size.
//
//   bifrons::log_appender<Event> log("events.log", {.policy = bifrons::durability::fsync_each});
//   log.append(event);                    // durable when it returns
//
//   bifrons::log_reader<Event> in("events.log");
//   for (Event e; in.next(e);) handle(e);
//   if (!in.ok()) report(in.status());    // damage, or a message this type cannot read
//   if (in.status().torn_tail_bytes != 0) ...  // a crash cut the last append short
//
// Messages are read as from_bytes reads them: with docs/evolution.md's rules (the reader's type
// may be older or newer than the writer's) and the limits of read_options, per message.

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core.hpp"
#include "detail/log_format.hpp"
#include "frame.hpp"
#include "schema.hpp"

#if BIFRONS_LOG_POSIX
#include <fcntl.h>
#include <sys/stat.h>
#endif

namespace bifrons {

/// A log that cannot be appended to: its header is not a log of this type, or a record before its
/// end is damaged (an appender never writes after damage: read the log with skip_damaged and write
/// a new one). code and offset are as in log_status.
class log_error : public std::runtime_error {
 public:
  log_error(errc code, std::uint64_t offset, const std::string& what)
      : std::runtime_error("bifrons: " + what + ": " + describe(code) + " at byte " + std::to_string(offset)),
        code_(code),
        offset_(offset) {}
  [[nodiscard]] errc code() const noexcept { return code_; }
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }

 private:
  errc code_;
  std::uint64_t offset_;
};

/// Reads the messages of a log of T, in order.
template <class T>
class log_reader {
  static_assert(BIFRONS_HAS_EXCEPTIONS || detail::always_false<T>,
                "bifrons: log_reader<T> reads messages with from_bytes and reports file errors with exceptions: "
                "build with exceptions, or read each message with try_from_bytes from your own framing");

 public:
  explicit log_reader(std::istream& in, const log_read_options& options = {})
      : scanner_(detail::log_source(in), options), limits_(options.limits) {
    check_type();
  }
#if BIFRONS_LOG_POSIX
  /// Reads from an open file descriptor, from its current position; the caller keeps it open.
  explicit log_reader(int fd, const log_read_options& options = {})
      : scanner_(detail::log_source(fd, false), options), limits_(options.limits) {
    check_type();
  }
  /// Opens the file (throws std::system_error if it cannot).
  explicit log_reader(const std::filesystem::path& path, const log_read_options& options = {})
      : scanner_(detail::log_source(open_for_reading(path), true), options), limits_(options.limits) {
    check_type();
  }
#endif

  /// Reads the next message into out, reusing its storage as from_bytes(bytes, out) does: true,
  /// or false at the end of the log, at a torn tail or at an error, which status() then describes
  /// (out is then valid but unspecified, if the error was in the message). An exception a user
  /// hook throws passes through, as from from_bytes.
  bool next(T& out) {
    std::span<const std::byte> payload;
    std::uint64_t at = 0;
    if (!scanner_.next(payload, at)) return false;
    try {
      from_bytes(payload, out, limits_);
    } catch (const error& e) {
      const bool placed = e.code() != errc::out_of_memory;
      return scanner_.stop(e.code(), at + (placed ? log_record_header_size + e.offset() : 0), "message");
    }
    last_offset_ = at;
    ++messages_;
    return true;
  }

  /// Whether the log was read without an error so far (a torn tail is not an error: ok() stays
  /// true, status().torn_tail_bytes says how many bytes it holds).
  [[nodiscard]] bool ok() const noexcept { return scanner_.status().code == errc::ok; }
  [[nodiscard]] const log_status& status() const noexcept { return scanner_.status(); }
  /// The type name and the writer's schema (empty if the writer did not include it) of the header.
  [[nodiscard]] std::string_view type_name() const noexcept { return scanner_.header().type_name; }
  [[nodiscard]] std::string_view writer_schema() const noexcept { return scanner_.header().schema; }
  /// Messages returned so far, and the offset of the last one's record.
  [[nodiscard]] std::uint64_t messages() const noexcept { return messages_; }
  [[nodiscard]] std::uint64_t last_offset() const noexcept { return last_offset_; }
  /// With skip_damaged: the damaged stretches skipped, and their bytes.
  [[nodiscard]] std::uint64_t damaged_stretches() const noexcept { return scanner_.damaged_stretches(); }
  [[nodiscard]] std::uint64_t skipped_bytes() const noexcept { return scanner_.skipped_bytes(); }

 private:
#if BIFRONS_LOG_POSIX
  static int open_for_reading(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "bifrons: cannot open log " + path.string());
    return fd;
  }
#endif
  void check_type() {
    if (!scanner_.failed() && scanner_.header().type_name != frame_type_name<T>())
      scanner_.stop(errc::type_mismatch, scanner_.header().name_offset, "log header");
  }

  detail::log_scanner scanner_;
  read_options limits_;
  std::uint64_t messages_ = 0;
  std::uint64_t last_offset_ = 0;
};

#if BIFRONS_LOG_POSIX

/// When an appended message is durable.
enum class durability : std::uint8_t {
  none,         ///< buffered; written when the buffer fills, on commit() and on close
  flush_each,   ///< written to the file (the kernel) by append: survives the process, not the machine
  fsync_each,   ///< written and synced to the device by append
  fsync_batch,  ///< buffered; commit() writes the batch and syncs it to the device
};

/// How a log appender writes.
struct log_write_options {
  durability policy = durability::flush_each;
  /// Write the schema of T (schema<T>()) into a new log's header, for tools and other readers.
  bool with_schema = false;
  /// Messages larger than this are refused (allocation_limit_exceeded); reopening a log reads
  /// records up to this size.
  std::size_t max_message_bytes = read_options{}.max_alloc_bytes;
  /// Bytes buffered before a write under durability::none and fsync_batch.
  std::size_t buffer_bytes = std::size_t{64} << 10;
  /// A new log's sync marker (little-endian); by default a random one, so that a log stored in
  /// another log's messages cannot be mistaken for its records when a reader resynchronises.
  std::optional<std::uint32_t> sync_marker{};
};

/// Appends messages of T to a log file, creating it with its header, or continuing an existing
/// log of T after cutting a torn tail back to its last whole record. Throws std::system_error
/// when the file system fails and log_error when the file is not a log of T or is damaged.
template <class T>
class log_appender {
  static_assert(BIFRONS_HAS_EXCEPTIONS || detail::always_false<T>,
                "bifrons: log_appender<T> reports file-system failures with std::system_error: build with "
                "exceptions");

 public:
  explicit log_appender(const std::filesystem::path& path, const log_write_options& options = {}) : options_(options) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "bifrons: cannot open log " + path.string());
    owned_ = true;
    try {
      start();
      if (created_ && options_.policy != durability::none) sync_directory(path);
    } catch (...) {
      ::close(fd_);
      throw;
    }
  }
  /// Appends to an open descriptor (read and write; the caller keeps it open), as the path does.
  log_appender(int fd, const log_write_options& options) : options_(options), fd_(fd) { start(); }

  log_appender(const log_appender&) = delete;
  log_appender& operator=(const log_appender&) = delete;
  /// Writes what is buffered (a failure there is lost: call close() to see it).
  ~log_appender() {
    try {
      close();
    } catch (...) {
    }
  }

  /// Appends value: durable as the policy says when it returns.
  void append(const T& value) {
    if (fd_ < 0) throw std::logic_error("bifrons: log_appender::append after close()");
    const std::size_t at = pending_.size();
    pending_.resize(at + log_record_header_size);
    to_bytes(value, pending_);
    const std::size_t length = pending_.size() - at - log_record_header_size;
    if (length > options_.max_message_bytes || length > std::numeric_limits<std::uint32_t>::max()) {
      pending_.resize(at);
      detail::raise(errc::allocation_limit_exceeded, length);
    }
    // The checksums are filled in when the buffer is written, several records at once (seal()).
    std::byte* record = pending_.data() + at;
    std::copy(sync_.begin(), sync_.end(), record);
    detail::store_le(record + 4, static_cast<std::uint32_t>(length));
    switch (options_.policy) {
      case durability::none:
      case durability::fsync_batch:
        if (pending_.size() >= options_.buffer_bytes) write_pending();
        break;
      case durability::flush_each: write_pending(); break;
      case durability::fsync_each:
        write_pending();
        sync();
        break;
    }
  }

  /// Writes what is buffered and syncs the file to the device: every message appended before is
  /// durable when it returns (the end of a batch under fsync_batch).
  void commit() {
    write_pending();
    sync();
  }

  /// Writes what is buffered (and syncs it, unless the policy is none) and closes the file.
  void close() {
    if (fd_ < 0) return;
    const int fd = fd_;
    if (options_.policy == durability::none)
      write_pending();
    else
      commit();
    fd_ = -1;
    if (owned_ && ::close(fd) != 0) throw std::system_error(errno, std::generic_category(), "bifrons: closing a log");
  }

  /// The log's size once what is buffered is written: the offset of the next record.
  [[nodiscard]] std::uint64_t size() const noexcept { return written_ + pending_.size(); }
  /// The bytes of a torn tail cut when the log was opened (0 if it ended with a whole record).
  [[nodiscard]] std::uint64_t torn_tail_cut() const noexcept { return torn_tail_cut_; }

 private:
  void start() {
    const ::off_t end = ::lseek(fd_, 0, SEEK_END);
    if (end < 0) throw std::system_error(errno, std::generic_category(), "bifrons: seeking a log");
    if (end == 0) {
      std::uint32_t marker = 0;
      if (options_.sync_marker) {
        marker = *options_.sync_marker;
      } else {
        std::random_device random;
        marker = static_cast<std::uint32_t>(random());
      }
      detail::store_le(sync_.data(), marker);
      const std::string schema_text = options_.with_schema ? schema<T>() : std::string();
      const auto header = detail::log_header_bytes(frame_type_name<T>(), schema_text, sync_);
      pending_.assign(header.begin(), header.end());
      sealed_ = pending_.size();
      // Written at once, so that a reader opening the file meanwhile finds a log; synced only
      // under a policy that promises durability, as the directory is.
      if (options_.policy == durability::none)
        write_pending();
      else
        commit();
      created_ = true;
      return;
    }
    if (::lseek(fd_, 0, SEEK_SET) != 0)
      throw std::system_error(errno, std::generic_category(), "bifrons: seeking a log");
    log_read_options scan;
    scan.limits.max_alloc_bytes = options_.max_message_bytes;
    detail::log_scanner scanner(detail::log_source(fd_, false), scan);
    if (!scanner.failed() && scanner.header().type_name != frame_type_name<T>())
      throw log_error(errc::type_mismatch, scanner.header().name_offset, "log header");
    std::span<const std::byte> payload;
    std::uint64_t at = 0;
    while (scanner.next(payload, at)) {
    }
    const log_status& status = scanner.status();
    if (status.code != errc::ok) throw log_error(status.code, status.offset, status.what);
    sync_ = scanner.header().sync;
    written_ = scanner.end_of_records();
    if (status.torn_tail_bytes != 0) {
      torn_tail_cut_ = status.torn_tail_bytes;
      if (::ftruncate(fd_, static_cast<::off_t>(written_)) != 0)
        throw std::system_error(errno, std::generic_category(), "bifrons: cutting a log's torn tail");
      sync();
    }
    if (::lseek(fd_, static_cast<::off_t>(written_), SEEK_SET) < 0)
      throw std::system_error(errno, std::generic_category(), "bifrons: seeking a log");
  }

  /// A new file's name is durable once its directory is synced too.
  static void sync_directory(const std::filesystem::path& path) {
    const std::filesystem::path parent = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) throw std::system_error(errno, std::generic_category(), "bifrons: opening a log's directory");
    const int status = ::fsync(dir);
    const int failure = errno;
    ::close(dir);
    if (status != 0) throw std::system_error(failure, std::generic_category(), "bifrons: syncing a log's directory");
  }

  /// Fills in the payload and header CRC32Cs of the records appended since the last write, a
  /// batch at a time: independent records' CRCs overlap (detail::crc32c_each).
  void seal() {
    constexpr std::size_t batch = 8;
    while (sealed_ < pending_.size()) {
      std::size_t at[batch];
      const std::byte* parts[batch];
      std::size_t lengths[batch];
      std::uint32_t crcs[batch];
      std::size_t count = 0;
      for (; count < batch && sealed_ < pending_.size(); ++count) {
        at[count] = sealed_;
        lengths[count] = detail::load_le<std::uint32_t>(pending_.data() + sealed_ + 4);
        parts[count] = pending_.data() + sealed_ + log_record_header_size;
        sealed_ += log_record_header_size + lengths[count];
      }
      detail::crc32c_each(count, parts, lengths, crcs);
      for (std::size_t k = 0; k < count; ++k) {
        detail::store_le(pending_.data() + at[k] + 8, crcs[k]);
        parts[k] = pending_.data() + at[k];
        lengths[k] = 12;
      }
      detail::crc32c_each(count, parts, lengths, crcs);
      for (std::size_t k = 0; k < count; ++k) detail::store_le(pending_.data() + at[k] + 12, crcs[k]);
    }
  }

  void write_pending() {
    seal();
    const std::byte* p = pending_.data();
    std::size_t left = pending_.size();
    while (left > 0) {
      const ::ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        // What was written stays written; a later append retries the rest, and reopening cuts
        // a record that never completed.
        const int failure = errno;
        pending_.erase(pending_.begin(), pending_.begin() + (p - pending_.data()));
        sealed_ = pending_.size();
        throw std::system_error(failure, std::generic_category(), "bifrons: writing a log");
      }
      p += n;
      left -= static_cast<std::size_t>(n);
      written_ += static_cast<std::uint64_t>(n);
    }
    pending_.clear();
    sealed_ = 0;
  }

  void sync() {
#if defined(__linux__)
    const int status = ::fdatasync(fd_);
#else
    const int status = ::fsync(fd_);
#endif
    if (status != 0) throw std::system_error(errno, std::generic_category(), "bifrons: syncing a log");
  }

  log_write_options options_;
  int fd_ = -1;
  bool owned_ = false;
  bool created_ = false;
  std::array<std::byte, 4> sync_{};
  std::vector<std::byte> pending_;
  std::size_t sealed_ = 0;  // pending_ before it holds whole records with their CRCs (or the log's header)
  std::uint64_t written_ = 0;
  std::uint64_t torn_tail_cut_ = 0;
};

#endif  // BIFRONS_LOG_POSIX

}  // namespace bifrons
