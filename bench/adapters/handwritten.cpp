// handwritten: what a careful programmer would write by hand for the Account
// model alone, as a floor for the libraries' costs. Fixed little-endian
// layout, no envelopes, no varints, no evolution:
//
//   account  = id:i32 name_length:u32 name:bytes currency:10 bytes amount:f64
//              order_count:u32 order*
//   order    = id:i32 symbol:10 bytes side:u8 type:u8 price:f64 volume:f64
//
// Decoding checks every length against the bytes left and throws on
// truncation, on trailing bytes and on enum values out of range.
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "../harness/harness.hpp"

namespace {

using bench::model::Account;
using bench::model::Order;
using bench::model::OrderSide;
using bench::model::OrderType;

constexpr std::size_t order_size = 4 + sizeof Order::symbol + 1 + 1 + 8 + 8;

// Little-endian stores and loads; on a little-endian host GCC turns each into
// one move.
inline std::byte* put_u32(std::byte* p, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) p[k] = static_cast<std::byte>(v >> (8 * k));
  return p + 4;
}
inline std::byte* put_u64(std::byte* p, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) p[k] = static_cast<std::byte>(v >> (8 * k));
  return p + 8;
}
inline std::byte* put_f64(std::byte* p, double v) { return put_u64(p, std::bit_cast<std::uint64_t>(v)); }
inline std::byte* put_bytes(std::byte* p, const void* data, std::size_t n) {
  if (n != 0) std::memcpy(p, data, n);
  return p + n;
}

inline std::uint32_t get_u32(const std::byte* p) {
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v |= std::uint32_t(std::to_integer<std::uint8_t>(p[k])) << (8 * k);
  return v;
}
inline std::uint64_t get_u64(const std::byte* p) {
  std::uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v |= std::uint64_t(std::to_integer<std::uint8_t>(p[k])) << (8 * k);
  return v;
}
inline double get_f64(const std::byte* p) { return std::bit_cast<double>(get_u64(p)); }

[[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("handwritten: ") + what); }

std::size_t encoded_size(const Account& a) {
  return 4 + 4 + a.name.size() + sizeof a.wallet.currency + 8 + 4 + a.orders.size() * order_size;
}

std::byte* write(const Account& a, std::byte* p) {
  p = put_u32(p, static_cast<std::uint32_t>(a.id));
  p = put_u32(p, static_cast<std::uint32_t>(a.name.size()));
  p = put_bytes(p, a.name.data(), a.name.size());
  p = put_bytes(p, a.wallet.currency, sizeof a.wallet.currency);
  p = put_f64(p, a.wallet.amount);
  p = put_u32(p, static_cast<std::uint32_t>(a.orders.size()));
  for (const Order& o : a.orders) {
    p = put_u32(p, static_cast<std::uint32_t>(o.id));
    p = put_bytes(p, o.symbol, sizeof o.symbol);
    *p++ = static_cast<std::byte>(o.side);
    *p++ = static_cast<std::byte>(o.type);
    p = put_f64(p, o.price);
    p = put_f64(p, o.volume);
  }
  return p;
}

struct handwritten_adapter {
  static constexpr std::string_view name = "handwritten";

  std::vector<std::byte> buffer;  // grows once, then reused

  bench::bytes_view encode(const Account& a) {
    if (a.name.size() > UINT32_MAX || a.orders.size() > UINT32_MAX) fail("too large");
    const std::size_t size = encoded_size(a);
    if (buffer.size() < size) buffer.resize(size);
    write(a, buffer.data());
    return {buffer.data(), size};
  }

  std::size_t encode_into(const Account& a, std::span<std::byte> out) {
    if (a.name.size() > UINT32_MAX || a.orders.size() > UINT32_MAX) fail("too large");
    const std::size_t size = encoded_size(a);
    if (out.size() < size) fail("buffer too small");
    write(a, out.data());
    return size;
  }

  void decode(bench::bytes_view in, Account& a) {
    const std::byte* p = in.data();
    const std::byte* const end = p + in.size();
    const auto need = [&](std::size_t n) {
      if (static_cast<std::size_t>(end - p) < n) fail("truncated input");
    };
    need(8);
    a.id = static_cast<std::int32_t>(get_u32(p));
    const std::uint32_t name_length = get_u32(p + 4);
    p += 8;
    need(std::size_t{name_length} + sizeof a.wallet.currency + 8 + 4);
    a.name.assign(reinterpret_cast<const char*>(p), name_length);
    p += name_length;
    std::memcpy(a.wallet.currency, p, sizeof a.wallet.currency);
    p += sizeof a.wallet.currency;
    a.wallet.amount = get_f64(p);
    const std::uint32_t count = get_u32(p + 8);
    p += 12;
    if (count > static_cast<std::size_t>(end - p) / order_size) fail("truncated input");
    if (static_cast<std::size_t>(end - p) != count * order_size) fail("trailing bytes");
    a.orders.resize(count);
    for (Order& o : a.orders) {
      o.id = static_cast<std::int32_t>(get_u32(p));
      std::memcpy(o.symbol, p + 4, sizeof o.symbol);
      const auto side = std::to_integer<std::uint8_t>(p[4 + sizeof o.symbol]);
      const auto type = std::to_integer<std::uint8_t>(p[5 + sizeof o.symbol]);
      if (side > static_cast<std::uint8_t>(OrderSide::sell)) fail("bad order side");
      if (type > static_cast<std::uint8_t>(OrderType::stop)) fail("bad order type");
      o.side = static_cast<OrderSide>(side);
      o.type = static_cast<OrderType>(type);
      o.price = get_f64(p + 6 + sizeof o.symbol);
      o.volume = get_f64(p + 14 + sizeof o.symbol);
      p += order_size;
    }
  }

  static std::string_view unsupported_reason(std::string_view) { return "baseline for the Account model only"; }
};

}  // namespace

BENCH_ADAPTER(handwritten_adapter);
