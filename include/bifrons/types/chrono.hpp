// SPDX-License-Identifier: MIT
#pragma once
// std::chrono::duration: its count() in the encoding of Rep. time_point: its duration since the
// clock's epoch. The period and the clock are part of the type and are not written.

#include <chrono>

#include "../detail/codec.hpp"

namespace bifrons {
template <class Rep, class Period>
struct codec<std::chrono::duration<Rep, Period>> {
  using D = std::chrono::duration<Rep, Period>;
  static constexpr std::size_t min_size = codec<Rep>::min_size;
  static std::size_t size(const D& d) { return codec<Rep>::size(d.count()); }
  static std::byte* write(std::byte* out, const D& d) { return codec<Rep>::write(out, d.count()); }
  static void read(detail::source& in, D& d) {
    Rep r{};
    codec<Rep>::read(in, r);
    d = D(r);
  }
};

template <class Clock, class Duration>
struct codec<std::chrono::time_point<Clock, Duration>> {
  using P = std::chrono::time_point<Clock, Duration>;
  static constexpr std::size_t min_size = codec<Duration>::min_size;
  static std::size_t size(const P& p) { return codec<Duration>::size(p.time_since_epoch()); }
  static std::byte* write(std::byte* out, const P& p) { return codec<Duration>::write(out, p.time_since_epoch()); }
  static void read(detail::source& in, P& p) {
    Duration d{};
    codec<Duration>::read(in, d);
    p = P(d);
  }
};
}  // namespace bifrons
