// SPDX-License-Identifier: MIT
#pragma once
// The untyped half of <bifrons/log.hpp> (docs/format.md section 36): the log's header, the
// framing of its records, the bounded buffer a reader reads through, and resynchronisation after
// damage. Nothing here knows the messages' type.

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <istream>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../error.hpp"
#include "../read_options.hpp"
#include "crc32c.hpp"
#include "encoding.hpp"

#if __has_include(<unistd.h>)
#include <unistd.h>
#define BIFRONS_LOG_POSIX 1
#else
#define BIFRONS_LOG_POSIX 0
#endif

namespace bifrons {

/// The first bytes of a log: 89 62 6c 67 ("\x89blg").
inline constexpr std::array<std::byte, 4> log_magic{std::byte{0x89}, std::byte{0x62}, std::byte{0x6c}, std::byte{0x67}};
/// The log format version this library writes and reads.
inline constexpr std::uint32_t log_format = 1;
/// Each record's fixed header: sync marker, length, payload CRC32C, header CRC32C.
inline constexpr std::size_t log_record_header_size = 16;
/// The longest type name a log header may hold (a reader refuses longer before allocating).
inline constexpr std::size_t log_max_name_size = 4096;

/// How a log read ended, or its most recent damage: the code (ok at the end, also after a torn
/// tail), the offset from the log's first byte, and for a torn tail how many bytes it holds.
struct log_status {
  errc code = errc::ok;
  std::uint64_t offset = 0;           ///< of the error; of the torn tail's first byte; of the end
  std::uint64_t torn_tail_bytes = 0;  ///< bytes after the last whole record that make no record
  const char* what = "";              ///< what failed: "log header", "record header", "record payload", "message"
};

/// How a log reader reads.
struct log_read_options {
  /// The limits of each message's read (docs/format.md section 27); max_alloc_bytes also bounds
  /// a record's length, which is refused (allocation_limit_exceeded) before anything is allocated.
  read_options limits{};
  /// Damaged records: false stops at the first with checksum_mismatch; true skips to the next
  /// intact record, counts what it skipped, and calls on_damage for each damaged stretch.
  bool skip_damaged = false;
  std::function<void(const log_status&)> on_damage{};
};

namespace detail {

/// Where a log reader's bytes come from: a file descriptor or an istream.
class log_source {
 public:
  explicit log_source(std::istream& in) noexcept : stream_(&in) {}
#if BIFRONS_LOG_POSIX
  log_source(int fd, bool owned) noexcept : fd_(fd), owned_(owned) {}
#endif
  log_source(log_source&& other) noexcept
      : stream_(std::exchange(other.stream_, nullptr)), fd_(std::exchange(other.fd_, -1)), owned_(other.owned_) {}
  log_source& operator=(log_source&&) = delete;
  ~log_source() {
#if BIFRONS_LOG_POSIX
    if (owned_ && fd_ >= 0) ::close(fd_);
#endif
  }
  /// Up to n bytes into p: how many (0 at the end), or -1 on a failure of the stream or fd.
  std::ptrdiff_t read(std::byte* p, std::size_t n) noexcept {
    if (stream_ != nullptr) {
      stream_->read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(n));
      const auto got = static_cast<std::ptrdiff_t>(stream_->gcount());
      // Bytes read before a failure count; the failure is reported by the next read.
      if (got == 0 && stream_->bad()) return -1;
      return got;
    }
#if BIFRONS_LOG_POSIX
    for (;;) {
      const ::ssize_t got = ::read(fd_, p, n);
      if (got >= 0) return static_cast<std::ptrdiff_t>(got);
      if (errno != EINTR) return -1;
    }
#else
    return -1;
#endif
  }

 private:
  std::istream* stream_ = nullptr;
  int fd_ = -1;
  bool owned_ = false;
};

/// The parsed header of a log.
struct log_header {
  std::string type_name;
  std::string schema;  ///< the writer's schema (docs/schema.md), or empty
  std::array<std::byte, 4> sync{};
  std::uint64_t name_offset = 0;  ///< of the name's length: where type_mismatch is reported
  std::uint64_t size = 0;         ///< the header's bytes: the first record starts there
};

/// The header's bytes for a log of type_name, with an optional schema and the file's sync marker.
inline std::vector<std::byte> log_header_bytes(std::string_view type_name, std::string_view schema,
                                               const std::array<std::byte, 4>& sync) {
  std::vector<std::byte> out(log_magic.begin(), log_magic.end());
  std::byte varint[max_varint_size];
  auto put_varint = [&](std::uint64_t v) { out.insert(out.end(), varint, write_varint(varint, v)); };
  auto put_text = [&](std::string_view text) {
    put_varint(text.size());
    const auto* p = reinterpret_cast<const std::byte*>(text.data());
    out.insert(out.end(), p, p + text.size());
  };
  put_varint(log_format);
  put_text(type_name);
  put_text(schema);
  out.insert(out.end(), sync.begin(), sync.end());
  std::byte crc[4];
  store_le(crc, crc32c(0, out.data(), out.size()));
  out.insert(out.end(), crc, crc + 4);
  return out;
}

/// A record's 16-byte header for a payload of n bytes with CRC32C payload_crc.
inline void log_record_header(std::byte* out, const std::array<std::byte, 4>& sync, std::uint32_t n,
                              std::uint32_t payload_crc) noexcept {
  std::copy(sync.begin(), sync.end(), out);
  store_le(out + 4, n);
  store_le(out + 8, payload_crc);
  store_le(out + 12, crc32c(0, out, 12));
}

/// Reads a log's records through a buffer of a fixed size plus the largest record: the header
/// first, then each record's payload, checked, with its offset. Damage and torn tails end up in
/// status(); with skip_damaged, damaged stretches are skipped by searching for the sync marker.
///
/// Resynchronisation is linear in the bytes it scans, whatever the input. Hostile bytes can put an
/// intact header claiming a large length at every few bytes; checking each candidate's payload
/// from scratch would cost the file's size times the claimed length. Instead, once a payload
/// check has failed, payloads that start inside bytes already checked are checked from CRC
/// registers kept every mark_spacing bytes (each byte enters them once): a payload's CRC is then
/// two registers joined by a multiplication, whatever its length. And the buffer moves its unread
/// bytes to the front only when it has consumed an eighth as many since the last move.
class log_scanner {
 public:
  static constexpr std::size_t chunk = std::size_t{64} << 10;
  static constexpr std::size_t mark_spacing = 64;
  /// The most fill() is asked for (a 32-bit host cannot hold a record of 4 GiB, whatever the limits).
  static constexpr std::size_t max_fill = std::numeric_limits<std::size_t>::max() - 2 * chunk;

  log_scanner(log_source source, const log_read_options& options) : source_(std::move(source)), options_(options) {
    read_header();
  }

  [[nodiscard]] const log_header& header() const noexcept { return header_; }
  [[nodiscard]] const log_status& status() const noexcept { return status_; }
  [[nodiscard]] bool failed() const noexcept { return status_.code != errc::ok; }
  /// The offset after the last whole record returned (where an appender continues).
  [[nodiscard]] std::uint64_t end_of_records() const noexcept { return end_of_records_; }
  [[nodiscard]] std::uint64_t damaged_stretches() const noexcept { return damaged_stretches_; }
  [[nodiscard]] std::uint64_t skipped_bytes() const noexcept { return skipped_bytes_; }
  /// The bytes checksummed, searched for the marker or moved in the buffer so far: the work of
  /// the scan, which stays within a constant factor of the bytes read.
  [[nodiscard]] std::uint64_t work() const noexcept { return work_; }

  /// The next intact record's payload (valid until the next call) and its offset, or false at
  /// the end, at a torn tail or at an error (status()).
  bool next(std::span<const std::byte>& payload, std::uint64_t& record_offset) {
    if (done_) return false;
    if (offset_of(begin_) < verified_until_ || verify_buffered()) return next_verified(payload, record_offset);
    return next_checked(payload, record_offset);
  }

  /// Ends the scan with an error found in a record's message (at offset).
  bool stop(errc code, std::uint64_t offset, const char* what) {
    status_ = {code, offset, 0, what};
    done_ = true;
    return false;
  }

 private:
  /// The record at begin_, checked with the records buffered with it (verify_buffered).
  bool next_verified(std::span<const std::byte>& payload, std::uint64_t& record_offset) noexcept {
    const std::byte* h = buffer_.data() + begin_;
    const std::size_t length = load_le<std::uint32_t>(h + 4);
    payload = std::span<const std::byte>(h + log_record_header_size, length);
    record_offset = offset_of(begin_);
    begin_ += log_record_header_size + length;
    end_of_records_ = offset_of(begin_);
    return true;
  }

  /// The next intact record, each part checked here (and resynchronising after damage).
  bool next_checked(std::span<const std::byte>& payload, std::uint64_t& record_offset) {
    for (;;) {
      const std::uint64_t at = offset_of(begin_);
      if (!fill(log_record_header_size)) return finish_short(at);
      const std::byte* h = buffer_.data() + begin_;
      const bool header_intact = std::equal(header_.sync.begin(), header_.sync.end(), h) &&
                                 checksum(h, 12) == load_le<std::uint32_t>(h + 12);
      if (!header_intact) {
        if (damaged(at, "record header")) continue;
        return false;
      }
      const std::uint32_t length = load_le<std::uint32_t>(h + 4);
      const std::uint64_t claimed = length;  // compared as 64 bits: beyond max_fill only on 32-bit hosts
      if (claimed > options_.limits.max_alloc_bytes || claimed > max_fill - log_record_header_size)
        return stop(errc::allocation_limit_exceeded, at + 4, "record header");
      const std::size_t whole = log_record_header_size + static_cast<std::size_t>(length);
      if (!fill(whole)) return finish_short(at);
      h = buffer_.data() + begin_;
      const std::byte* body = h + log_record_header_size;
      if (payload_crc(at + log_record_header_size, body, length) != load_le<std::uint32_t>(h + 8)) {
        checked_until_ = std::max(checked_until_, at + whole);
        if (damaged(at, "record payload")) continue;
        return false;
      }
      end_damage(at);
      payload = std::span<const std::byte>(body, length);
      record_offset = at;
      begin_ += whole;
      end_of_records_ = at + whole;
      return true;
    }
  }

  std::uint64_t offset_of(std::size_t index) const noexcept { return consumed_ + index; }
  std::size_t available() const noexcept { return end_ - begin_; }

  /// Makes n bytes available from begin_, reading more (false: the input ends before, or fails).
  bool fill(std::size_t n) {
    if (available() >= n) return true;
    if (eof_) return false;
    // Moving the unread bytes costs what they hold: done once the bytes consumed since the last
    // move are an eighth of them, so that each byte is moved at most 8 times and the buffer holds
    // at most an eighth more than the largest record (plus chunk).
    if (begin_ != 0 && (begin_ >= available() / 8 || n > max_fill - begin_)) compact();
    while (available() < n) {
      if (end_ == buffer_.size()) {
        // Grows with the bytes that arrive (at most doubling), not with what a length claims: a
        // header claiming 200 MiB at the end of a short file costs what the file holds.
        const std::size_t target = begin_ + n + chunk;
        const std::size_t size = buffer_.size();
        buffer_.resize(size + std::min(std::max(size, chunk), target - size));
      }
      const std::ptrdiff_t got = source_.read(buffer_.data() + end_, buffer_.size() - end_);
      if (got < 0) {
        stop(errc::stream_error, offset_of(end_), "read");
        return false;
      }
      if (got == 0) {
        eof_ = true;
        return false;
      }
      end_ += static_cast<std::size_t>(got);
    }
    return true;
  }

  /// Checks the whole records already buffered from begin_ together (their CRCs overlap:
  /// crc32c_each), so that next() returns them without checking each; stops before the first
  /// that is not whole in the buffer or not intact, which next() then checks alone. A batch is
  /// 8 records, so a record's bytes are checksummed by at most 8 batches cut short by damage.
  /// Whether the record at begin_ is then verified.
  bool verify_buffered() {
    if (in_damage_ || offset_of(begin_) < checked_until_) return false;
    constexpr std::size_t batch = 8;
    const std::byte* headers[batch];
    const std::byte* payloads[batch];
    std::size_t header_lengths[batch];
    std::size_t lengths[batch];
    std::uint32_t crcs[batch];
    std::size_t count = 0;
    for (std::size_t pos = begin_; count < batch && end_ - pos >= log_record_header_size; ++count) {
      const std::byte* h = buffer_.data() + pos;
      const std::size_t length = load_le<std::uint32_t>(h + 4);
      if (!std::equal(header_.sync.begin(), header_.sync.end(), h) || length > options_.limits.max_alloc_bytes ||
          length > end_ - pos - log_record_header_size)
        break;
      headers[count] = h;
      header_lengths[count] = 12;
      payloads[count] = h + log_record_header_size;
      lengths[count] = length;
      pos += log_record_header_size + length;
    }
    if (count < 2) return false;  // next_checked() checks a lone record as it reads it
    crc32c_each(count, headers, header_lengths, crcs);
    std::size_t intact = 0;
    while (intact < count && crcs[intact] == load_le<std::uint32_t>(headers[intact] + 12)) ++intact;
    work_ += 12 * count;
    crc32c_each(intact, payloads, lengths, crcs);
    std::uint64_t until = offset_of(begin_);
    for (std::size_t k = 0; k < intact; ++k) work_ += lengths[k];
    for (std::size_t k = 0; k < intact && crcs[k] == load_le<std::uint32_t>(headers[k] + 8); ++k)
      until += log_record_header_size + lengths[k];
    verified_until_ = until;
    return until > offset_of(begin_);
  }

  /// Moves the unread bytes to the front, keeping the bytes from the last register mark at or
  /// before them (the marks behind it are dropped; all of them if none reaches the unread bytes).
  void compact() {
    std::size_t from = begin_;
    if (!marks_.empty()) {
      const std::uint64_t first_unread = offset_of(begin_);
      const std::uint64_t last_mark = marks_base_ + (marks_.size() - 1) * std::uint64_t{mark_spacing};
      if (last_mark < first_unread) {
        marks_.clear();
      } else {
        const std::uint64_t drop = (first_unread - marks_base_) / mark_spacing;
        marks_.erase(marks_.begin(), marks_.begin() + static_cast<std::ptrdiff_t>(drop));
        marks_base_ += drop * mark_spacing;
        from = begin_ - static_cast<std::size_t>(first_unread - marks_base_);
      }
    }
    std::memmove(buffer_.data(), buffer_.data() + from, end_ - from);
    work_ += end_ - from;
    consumed_ += from;
    end_ -= from;
    begin_ -= from;
  }

  std::uint32_t checksum(const std::byte* p, std::size_t n) noexcept {
    work_ += n;
    return crc32c(0, p, n);
  }

  /// The CRC32C of the payload at body (offset at in the log): computed from its bytes, unless
  /// it starts inside bytes a failed check already covered; then from the register marks.
  std::uint32_t payload_crc(std::uint64_t at, const std::byte* body, std::size_t length) {
    if (at >= checked_until_) return checksum(body, length);
    const std::uint64_t end = at + length;
    const std::uint32_t before = register_at(at);
    const std::uint32_t after = register_at(end);
    // after = before * x^(8 length) + the payload's register from 0; the CRC starts from ~0.
    return ~(after ^ crc32c_multiply(before ^ 0xffffffffu, crc32c_zero_bytes(length)));
  }

  /// The CRC register after the buffered bytes from marks_base_ up to offset (from 0 at
  /// marks_base_), extending the marks to it. offset is at or after the first unread byte.
  std::uint32_t register_at(std::uint64_t offset) {
    auto extend = [&](std::uint32_t reg, std::uint64_t from, std::size_t n) {
      work_ += n;
      return ~crc32c(~reg, buffer_.data() + static_cast<std::size_t>(from - consumed_), n);
    };
    if (marks_.empty()) {
      marks_base_ = offset_of(begin_);
      marks_.push_back(0);
    }
    const std::uint64_t j = (offset - marks_base_) / mark_spacing;
    while (marks_.size() <= j) {
      const std::uint64_t from = marks_base_ + (marks_.size() - 1) * std::uint64_t{mark_spacing};
      marks_.push_back(extend(marks_.back(), from, mark_spacing));
    }
    const std::uint64_t from = marks_base_ + j * mark_spacing;
    return extend(marks_[static_cast<std::size_t>(j)], from, static_cast<std::size_t>(offset - from));
  }

  /// The input ended inside a record (or failed): a torn tail, or the clean end.
  bool finish_short(std::uint64_t at) {
    if (done_) return false;  // a stream error
    done_ = true;
    if (in_damage_) {
      // Damage that runs to the end: skipped, like the rest of the stretch.
      skipped_bytes_ += offset_of(end_) - damage_start_;
      in_damage_ = false;
      status_ = {errc::ok, offset_of(end_), 0, ""};
      return false;
    }
    status_ = {errc::ok, at, available(), available() == 0 ? "" : "torn tail"};
    return false;
  }

  /// A damaged record at `at`: stops (false), or moves on to the next sync marker (true).
  bool damaged(std::uint64_t at, const char* what) {
    if (!options_.skip_damaged) return stop(errc::checksum_mismatch, at, what);
    if (!in_damage_) {
      in_damage_ = true;
      damage_start_ = at;
      ++damaged_stretches_;
      if (options_.on_damage) options_.on_damage(log_status{errc::checksum_mismatch, at, 0, what});
    }
    ++begin_;
    for (;;) {
      const std::byte* first = buffer_.data() + begin_;
      const std::byte* last = buffer_.data() + end_;
      const std::byte* found = std::search(first, last, header_.sync.begin(), header_.sync.end());
      work_ += static_cast<std::size_t>(found - first);
      if (found != last) {
        begin_ = static_cast<std::size_t>(found - buffer_.data());
        return true;
      }
      // Keep what could be the start of a marker cut by the buffer's end.
      begin_ = end_ - std::min<std::size_t>(available(), header_.sync.size() - 1);
      if (!fill(available() + 1)) return true;  // next() reports the end
    }
  }

  void end_damage(std::uint64_t at) noexcept {
    if (!in_damage_) return;
    skipped_bytes_ += at - damage_start_;
    in_damage_ = false;
  }

  void read_header() {
    auto refuse = [&](errc code, std::uint64_t at) { stop(code, at, "log header"); };
    if (!fill(log_magic.size()) || !std::equal(log_magic.begin(), log_magic.end(), buffer_.data())) {
      if (!failed()) refuse(errc::not_bifrons, 0);
      return;
    }
    std::size_t pos = log_magic.size();
    auto varint = [&](std::uint64_t& v) {
      const std::size_t at = pos;
      for (unsigned shift = 0;; shift += 7) {
        if (!fill(pos + 1)) return refuse(errc::unexpected_end, offset_of(pos)), false;
        const auto b = std::to_integer<std::uint64_t>(buffer_[pos++]);
        if (shift == 63 && b > 1) return refuse(errc::malformed_varint, at), false;
        v |= (b & 0x7f) << shift;
        if (b < 0x80) return (b != 0 || shift == 0) ? true : (refuse(errc::malformed_varint, at), false);
      }
    };
    auto text = [&](std::string& out, std::uint64_t limit) {
      const std::size_t at = pos;
      std::uint64_t n = 0;
      if (!varint(n)) return false;
      if (n > limit || n > max_fill - pos) return refuse(errc::allocation_limit_exceeded, at), false;
      if (!fill(pos + static_cast<std::size_t>(n))) return refuse(errc::unexpected_end, offset_of(end_)), false;
      out.assign(reinterpret_cast<const char*>(buffer_.data() + pos), static_cast<std::size_t>(n));
      pos += static_cast<std::size_t>(n);
      return true;
    };
    std::uint64_t format = 0;
    if (!varint(format)) return;
    if (format != log_format) return refuse(errc::not_bifrons, log_magic.size());
    header_.name_offset = pos;
    if (!text(header_.type_name, log_max_name_size) || !text(header_.schema, options_.limits.max_alloc_bytes)) return;
    if (!fill(pos + 8)) return refuse(errc::unexpected_end, offset_of(end_));
    std::copy_n(buffer_.data() + pos, 4, header_.sync.begin());
    if (crc32c(0, buffer_.data(), pos + 4) != load_le<std::uint32_t>(buffer_.data() + pos + 4))
      return refuse(errc::checksum_mismatch, pos + 4);
    header_.size = pos + 8;
    begin_ = pos + 8;
    end_of_records_ = header_.size;
  }

 private:
  log_source source_;
  log_read_options options_;
  log_header header_;
  log_status status_;
  std::vector<std::byte> buffer_;
  std::size_t begin_ = 0;       // the first unread byte in buffer_
  std::size_t end_ = 0;         // the end of the bytes read into buffer_
  std::uint64_t consumed_ = 0;  // the offset of buffer_[0] in the log
  std::uint64_t end_of_records_ = 0;
  std::uint64_t damaged_stretches_ = 0;
  std::uint64_t skipped_bytes_ = 0;
  std::uint64_t damage_start_ = 0;
  std::uint64_t checked_until_ = 0;     // the end of the furthest payload whose check failed
  std::uint64_t verified_until_ = 0;    // the end of the records verify_buffered() found intact
  std::vector<std::uint32_t> marks_;    // marks_[j]: the CRC register at marks_base_ + j * mark_spacing
  std::uint64_t marks_base_ = 0;        // a buffered offset (register 0 there)
  std::uint64_t work_ = 0;
  bool in_damage_ = false;
  bool eof_ = false;
  bool done_ = false;
};

}  // namespace detail
}  // namespace bifrons
