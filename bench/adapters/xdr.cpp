// XDR (RFC 4506) through libtirpc's xdrmem streams: the wire format of Sun
// RPC and NFS, and the baseline of Ulmer's Kelpie comparison.
//
// XDR has no code generator for C++ types (rpcgen emits C structs with
// malloc'ed arrays), so the routines here are written by hand, with the same
// wire format rpcgen would give the equivalent .x declarations:
//   string<>  / opaque<>  -> xdr_u_int length + xdr_opaque (padded to 4)
//   T v<>                 -> xdr_u_int count + one xdr_* call per element
//                            (what xdr_array does, minus its indirect call;
//                            xdr_array itself would malloc into a C array)
//   opaque v[10]          -> xdr_opaque, 10 bytes padded to 12
//   enums                 -> xdr_enum, range-checked on decode
//   T* (optional-data)    -> xdr_bool + the node, as xdr_pointer writes it;
//                            xdr_pointer would malloc/free the nodes itself
// Like rpcgen's inline mode (its default for 5 or more consecutive fixed-size
// fields), IntegerClass takes the XDR_INLINE fast path when the stream can
// hand out the 40 bytes directly, and falls back to xdr_int32_t otherwise.
//
// Every routine is written once for both directions (XDR's idiom: one xdrproc
// per type, the stream says encode or decode); encoding casts const away but
// never writes. Decoding checks every length against the bytes left before
// resizing, so a corrupt length cannot allocate beyond the input's size.
//
// XDR has no pointer identity and no type tags, so the shared and the
// polymorphic trees are not supported.
#include <rpc/xdr.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../harness/harness.hpp"

namespace {

using namespace bench::model;

// An xdrmem stream plus its size, so decoding can bound lengths.
struct stream {
  XDR x;
  u_int size = 0;

  stream(char* data, std::size_t n, xdr_op op) {
    if (n > UINT32_MAX) throw std::length_error("XDR: buffers are limited to 4 GiB");
    size = static_cast<u_int>(n);
    xdrmem_create(&x, data, size, op);
  }
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream() { xdr_destroy(&x); }

  bool decoding() const { return x.x_op == XDR_DECODE; }
  u_int position() { return XDR_GETPOS(&x); }
  // On decode: can `count` items of at least `unit` wire bytes each still follow?
  bool fits(u_int count, u_int unit) { return !decoding() || count <= (size - position()) / unit; }
};

// Length or count prefix: written from `current`, read into `count`.
bool code_count(stream& s, std::size_t current, u_int& count, u_int unit) {
  if (!s.decoding()) {
    if (current > UINT32_MAX) return false;
    count = static_cast<u_int>(current);
  }
  return xdr_u_int(&s.x, &count) && s.fits(count, unit);
}

bool code(stream& s, std::int32_t& v) { return xdr_int32_t(&s.x, &v); }
bool code(stream& s, std::uint32_t& v) { return xdr_uint32_t(&s.x, &v); }
bool code(stream& s, std::uint64_t& v) { return xdr_uint64_t(&s.x, &v); }
bool code(stream& s, float& v) { return xdr_float(&s.x, &v); }
bool code(stream& s, double& v) { return xdr_double(&s.x, &v); }

// string<> and opaque<>: the bytes of any contiguous char-sized container.
template <class Bytes>
bool code_bytes(stream& s, Bytes& bytes) {
  u_int n = 0;
  if (!code_count(s, bytes.size(), n, 1)) return false;
  if (s.decoding()) bytes.resize(n);
  return xdr_opaque(&s.x, reinterpret_cast<char*>(bytes.data()), n);
}
bool code(stream& s, std::string& v) { return code_bytes(s, v); }
bool code(stream& s, std::vector<char>& v) { return code_bytes(s, v); }
bool code(stream& s, std::vector<std::uint8_t>& v) { return code_bytes(s, v); }

template <class T>
bool code(stream& s, std::vector<T>& v) {
  u_int n = 0;
  if (!code_count(s, v.size(), n, BYTES_PER_XDR_UNIT)) return false;
  if (s.decoding()) v.resize(n);
  for (T& element : v) {
    if (!code(s, element)) return false;
  }
  return true;
}

bool code(stream& s, std::map<std::int32_t, std::int32_t>& m) {
  u_int n = 0;
  if (!code_count(s, m.size(), n, 2 * BYTES_PER_XDR_UNIT)) return false;
  if (!s.decoding()) {
    for (auto& [key, value] : m) {
      std::int32_t k = key;
      if (!code(s, k) || !code(s, value)) return false;
    }
    return true;
  }
  m.clear();
  for (u_int i = 0; i < n; ++i) {
    std::int32_t key = 0, value = 0;
    if (!code(s, key) || !code(s, value)) return false;
    m.emplace_hint(m.end(), key, value);
  }
  return true;
}

bool code(stream& s, IntegerClass& v) {
  std::int32_t* const fields[] = {&v.a, &v.b, &v.c, &v.d, &v.e, &v.f, &v.g, &v.h, &v.i, &v.j};
  constexpr u_int count = sizeof fields / sizeof fields[0];
  if (std::int32_t* buf = XDR_INLINE(&s.x, count * BYTES_PER_XDR_UNIT)) {
    if (s.decoding()) {
      for (std::int32_t* field : fields) *field = IXDR_GET_INT32(buf);
    } else {
      for (std::int32_t* field : fields) IXDR_PUT_INT32(buf, *field);
    }
    return true;
  }
  for (std::int32_t* field : fields) {
    if (!xdr_int32_t(&s.x, field)) return false;
  }
  return true;
}

// Optional-data: TRUE + the node, or FALSE. Decoding reuses existing nodes.
constexpr int max_tree_nesting = 64;
bool code(stream& s, std::unique_ptr<UniqueNode>& node, int nesting = 0) {
  bool_t present = node != nullptr;
  if (!xdr_bool(&s.x, &present)) return false;
  if (!present) {
    node.reset();
    return true;
  }
  if (nesting > max_tree_nesting) return false;
  if (!node) node = std::make_unique<UniqueNode>();
  return code(s, node->value) && code(s, node->left, nesting + 1) && code(s, node->right, nesting + 1);
}

bool code(stream& s, KelpieEntry& e) { return code(s, e.id) && code(s, e.name); }

bool code(stream& s, KelpieMessage& m) {
  return code(s, m.op) && code(s, m.tag) && code(s, m.source) && code(s, m.destination) && code(s, m.entries);
}

bool code(stream& s, MetaTuple& t) {
  return code(s, std::get<0>(t)) && code(s, std::get<1>(t)) && code(s, std::get<2>(t)) && code(s, std::get<3>(t));
}

bool code(stream& s, SurveyMixed& v) { return code(s, v.number) && code(s, v.real) && code(s, v.text); }

template <class Enum>
bool code_enum(stream& s, Enum& v, Enum last) {
  enum_t e = static_cast<enum_t>(v);
  if (!xdr_enum(&s.x, &e)) return false;
  if (e < 0 || e > static_cast<enum_t>(last)) return false;
  v = static_cast<Enum>(e);
  return true;
}

template <std::size_t N>
bool code(stream& s, char (&chars)[N]) {
  return xdr_opaque(&s.x, chars, N);
}

bool code(stream& s, Order& o) {
  return code(s, o.id) && code(s, o.symbol) && code_enum(s, o.side, OrderSide::sell) &&
         code_enum(s, o.type, OrderType::stop) && code(s, o.price) && code(s, o.volume);
}

bool code(stream& s, Balance& b) { return code(s, b.currency) && code(s, b.amount); }

bool code(stream& s, Account& a) {
  return code(s, a.id) && code(s, a.name) && code(s, a.wallet) && code(s, a.orders);
}

template <class T>
concept xdr_supported = requires(stream& s, T& v) { code(s, v); };

struct xdr_adapter {
  static constexpr std::string_view name = "xdr";

  // xdrmem hands out XDR_INLINE pointers only over 4-byte aligned memory.
  std::vector<std::uint32_t> words = std::vector<std::uint32_t>(1024);

  // Encodes into the reused buffer; when the value does not fit, the buffer
  // doubles and encoding starts over (rare once warm).
  template <class T>
    requires xdr_supported<T>
  bench::bytes_view encode(const T& value) {
    for (;;) {
      const std::size_t capacity = words.size() * sizeof(std::uint32_t);
      stream s(reinterpret_cast<char*>(words.data()), capacity, XDR_ENCODE);
      if (code(s, const_cast<T&>(value))) {
        return {reinterpret_cast<const std::byte*>(words.data()), s.position()};
      }
      if (capacity >= UINT32_MAX / 2) throw std::length_error("XDR: value too large");
      words.resize(2 * words.size());
    }
  }

  // Straight into the caller's buffer, no copy.
  template <class T>
    requires xdr_supported<T>
  std::size_t encode_into(const T& value, std::span<std::byte> buffer) {
    stream s(reinterpret_cast<char*>(buffer.data()), buffer.size(), XDR_ENCODE);
    if (!code(s, const_cast<T&>(value))) throw std::length_error("XDR: buffer too small");
    return s.position();
  }

  template <class T>
    requires xdr_supported<T>
  void decode(bench::bytes_view in, T& value) {
    // The decoding stream only reads; xdrmem_create just wants char*.
    stream s(const_cast<char*>(reinterpret_cast<const char*>(in.data())), in.size(), XDR_DECODE);
    if (!code(s, value)) throw std::runtime_error("XDR: malformed or truncated input");
    if (s.position() != s.size) throw std::runtime_error("XDR: trailing bytes after the message");
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree") return "XDR has optional-data pointers only, no shared identity";
    if (family == "poly_tree") return "XDR has no polymorphism (no type tags on pointers)";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(xdr_adapter);
