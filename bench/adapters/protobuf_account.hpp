// The conversions of the Account workload between the native model and protobuf's generated
// message, shared by the protobuf adapter (protobuf.cpp) and the log benchmark
// (bench/log/log_bench.cpp), which both time them: a protobuf user pays them too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>

#include "../harness/models.hpp"
#include "bench.pb.h"

namespace bench_protobuf {

namespace m = bench::model;

template <std::size_t N>
inline std::size_t fixed_length(const char (&chars)[N]) {
  return static_cast<std::size_t>(std::find(chars, chars + N, '\0') - chars);
}

inline void fill(benchpb::Account& out, const m::Account& v) {
  out.set_id(v.id);
  out.set_name(v.name);
  auto& wallet = *out.mutable_wallet();
  wallet.set_currency(v.wallet.currency, fixed_length(v.wallet.currency));
  wallet.set_amount(v.wallet.amount);
  auto& orders = *out.mutable_orders();
  orders.Reserve(static_cast<int>(v.orders.size()));
  for (const auto& o : v.orders) {
    auto& order = *orders.Add();
    order.set_id(o.id);
    order.set_symbol(o.symbol, fixed_length(o.symbol));
    order.set_side(static_cast<benchpb::OrderSide>(o.side));
    order.set_type(static_cast<benchpb::OrderType>(o.type));
    order.set_price(o.price);
    order.set_volume(o.volume);
  }
}

template <std::size_t N>
inline void read_fixed(const std::string& in, char (&chars)[N]) {
  if (in.size() > N) throw std::runtime_error("protobuf: string longer than its fixed-size field");
  std::memset(chars, 0, N);
  std::memcpy(chars, in.data(), in.size());
}

template <class Native, class Generated>
inline Native read_enum(Generated value, Generated last) {
  if (value < 0 || value > last) throw std::runtime_error("protobuf: enum value out of range");
  return static_cast<Native>(value);
}

inline void read(const benchpb::Account& in, m::Account& v) {
  v.id = in.id();
  v.name = in.name();
  read_fixed(in.wallet().currency(), v.wallet.currency);
  v.wallet.amount = in.wallet().amount();
  v.orders.resize(static_cast<std::size_t>(in.orders_size()));
  for (std::size_t k = 0; k < v.orders.size(); ++k) {
    const auto& order = in.orders(static_cast<int>(k));
    auto& o = v.orders[k];
    o.id = order.id();
    read_fixed(order.symbol(), o.symbol);
    o.side = read_enum<m::OrderSide>(order.side(), benchpb::OrderSide_MAX);
    o.type = read_enum<m::OrderType>(order.type(), benchpb::OrderType_MAX);
    o.price = order.price();
    o.volume = order.volume();
  }
}

}  // namespace bench_protobuf
