// std::streambufs for the stream-based libraries (cereal, Boost): output into
// storage reused across calls, input read in place from the caller's bytes.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstring>
#include <streambuf>
#include <vector>

#include "harness.hpp"

namespace bench {

// Output: a put area over storage kept across calls. reset() rewinds it; when
// it is full it doubles, so once warm, serializing allocates nothing.
class reused_output_buffer : public std::streambuf {
 public:
  void reset() {
    if (storage_.empty()) storage_.resize(4096);
    setp(storage_.data(), storage_.data() + storage_.size());
  }
  bench::bytes_view bytes() const {
    return {reinterpret_cast<const std::byte*>(pbase()), static_cast<std::size_t>(pptr() - pbase())};
  }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    grow(1);
    *pptr() = traits_type::to_char_type(ch);
    advance(1);
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const auto count = static_cast<std::size_t>(n);
    if (static_cast<std::size_t>(epptr() - pptr()) < count) grow(count);
    std::memcpy(pptr(), s, count);
    advance(count);
    return n;
  }

 private:
  void grow(std::size_t extra) {
    const auto used = static_cast<std::size_t>(pptr() - pbase());
    storage_.resize(std::max(2 * storage_.size(), used + extra));
    setp(storage_.data(), storage_.data() + storage_.size());
    advance(used);
  }
  void advance(std::size_t n) {  // pbump takes an int
    for (; n > INT_MAX; n -= INT_MAX) pbump(INT_MAX);
    pbump(static_cast<int>(n));
  }

  std::vector<char> storage_;
};

// Input: a get area over the caller's bytes, read in place.
class bytes_input_buffer : public std::streambuf {
 public:
  void reset(bench::bytes_view in) {
    // The get area is never written through; streambuf just wants char*.
    char* begin = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
    setg(begin, begin, begin + in.size());
  }

 protected:
  std::streamsize xsgetn(char* s, std::streamsize n) override {
    const auto count = std::min(static_cast<std::size_t>(n), static_cast<std::size_t>(egptr() - gptr()));
    if (count != 0) std::memcpy(s, gptr(), count);
    setg(eback(), gptr() + count, egptr());
    return static_cast<std::streamsize>(count);
  }
};

}  // namespace bench
