// msgpack-c, C++ API (msgpack-cxx, header-only).
//
// - The model types cannot carry MSGPACK_DEFINE (they are shared aggregates),
//   so each gets the non-intrusive adaptor pair pack<>/convert<> whose bodies
//   are what MSGPACK_DEFINE expands to (type::make_define_array): a struct is
//   an array of its fields, decoded leniently by position as msgpack-c does.
// - char[10] is packed as a 10-byte bin: msgpack-c's own char[N] adaptor
//   writes a str cut at the first NUL, which would not round-trip the array.
// - Packing goes to one msgpack::sbuffer per adapter, clear()ed per call, so
//   its storage is reused.
// - Unpacking uses the zone overload of msgpack::unpack with one zone per
//   adapter, clear()ed per call (its first chunk survives, so small messages
//   allocate nothing), and a reference function that lets str/bin objects
//   point into the input instead of being copied into the zone: the input
//   outlives the objects, which are converted at once. Both are documented
//   msgpack-c options for avoiding copies.
// - unpack_limit caps nesting depth so a hostile input cannot drive the
//   recursive tree conversion into a stack overflow.
// - msgpack is schema-less: it has no pointer identity and no polymorphism,
//   so the shared and polymorphic trees are not supported. unique_ptr is
//   nil or the node, with msgpack-c's own std::unique_ptr adaptor.
#define MSGPACK_NO_BOOST  // only the standard-library adaptors are needed
#include <msgpack.hpp>

#include <cstring>

#include "../harness/harness.hpp"

namespace bench_msgpack {

// A char[N] packed as bin of exactly N bytes.
template <std::size_t N>
struct fixed_chars {
  char* data;
};
template <std::size_t N>
fixed_chars<N> chars(char (&array)[N]) {
  return {array};
}
template <std::size_t N>
fixed_chars<N> chars(const char (&array)[N]) {
  return {const_cast<char*>(array)};  // packing only reads
}

}  // namespace bench_msgpack

MSGPACK_ADD_ENUM(bench::model::OrderSide)
MSGPACK_ADD_ENUM(bench::model::OrderType)

// Defines the adaptor pair of a model type; FIELDS(v) lists v's fields.
#define BENCH_MSGPACK_STRUCT(Type, FIELDS)                                                               \
  namespace msgpack {                                                                                    \
  MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {                                                \
    namespace adaptor {                                                                                  \
    template <>                                                                                          \
    struct pack<Type> {                                                                                  \
      template <class Stream>                                                                            \
      msgpack::packer<Stream>& operator()(msgpack::packer<Stream>& o, const Type& v) const {             \
        msgpack::type::make_define_array(FIELDS(v)).msgpack_pack(o);                                     \
        return o;                                                                                        \
      }                                                                                                  \
    };                                                                                                   \
    template <>                                                                                          \
    struct convert<Type> {                                                                               \
      const msgpack::object& operator()(const msgpack::object& o, Type& v) const {                       \
        msgpack::type::make_define_array(FIELDS(v)).msgpack_unpack(o);                                   \
        return o;                                                                                        \
      }                                                                                                  \
    };                                                                                                   \
    }                                                                                                    \
  }                                                                                                      \
  }

namespace msgpack {
MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {
  namespace adaptor {

  template <std::size_t N>
  struct pack<bench_msgpack::fixed_chars<N>> {
    template <class Stream>
    msgpack::packer<Stream>& operator()(msgpack::packer<Stream>& o, const bench_msgpack::fixed_chars<N>& v) const {
      o.pack_bin(static_cast<std::uint32_t>(N));
      o.pack_bin_body(v.data, static_cast<std::uint32_t>(N));
      return o;
    }
  };
  template <std::size_t N>
  struct convert<bench_msgpack::fixed_chars<N>> {
    const msgpack::object& operator()(const msgpack::object& o, bench_msgpack::fixed_chars<N>& v) const {
      if (o.type != msgpack::type::BIN || o.via.bin.size != N) throw msgpack::type_error();
      std::memcpy(v.data, o.via.bin.ptr, N);
      return o;
    }
  };

  }  // namespace adaptor
}
}  // namespace msgpack

// The fixed_chars wrappers are locals in the field lists below, because
// make_define_array takes lvalues.
#define BENCH_FIELDS_INTEGER_CLASS(v) v.a, v.b, v.c, v.d, v.e, v.f, v.g, v.h, v.i, v.j
#define BENCH_FIELDS_UNIQUE_NODE(v) v.value, v.left, v.right
#define BENCH_FIELDS_KELPIE_ENTRY(v) v.id, v.name
#define BENCH_FIELDS_KELPIE_MESSAGE(v) v.op, v.tag, v.source, v.destination, v.entries
#define BENCH_FIELDS_SURVEY_MIXED(v) v.number, v.real, v.text
#define BENCH_FIELDS_ACCOUNT(v) v.id, v.name, v.wallet, v.orders
BENCH_MSGPACK_STRUCT(bench::model::IntegerClass, BENCH_FIELDS_INTEGER_CLASS)
BENCH_MSGPACK_STRUCT(bench::model::UniqueNode, BENCH_FIELDS_UNIQUE_NODE)
BENCH_MSGPACK_STRUCT(bench::model::KelpieEntry, BENCH_FIELDS_KELPIE_ENTRY)
BENCH_MSGPACK_STRUCT(bench::model::KelpieMessage, BENCH_FIELDS_KELPIE_MESSAGE)
BENCH_MSGPACK_STRUCT(bench::model::SurveyMixed, BENCH_FIELDS_SURVEY_MIXED)
BENCH_MSGPACK_STRUCT(bench::model::Account, BENCH_FIELDS_ACCOUNT)

namespace msgpack {
MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {
  namespace adaptor {

  template <>
  struct pack<bench::model::Order> {
    template <class Stream>
    msgpack::packer<Stream>& operator()(msgpack::packer<Stream>& o, const bench::model::Order& v) const {
      const auto symbol = bench_msgpack::chars(v.symbol);
      msgpack::type::make_define_array(v.id, symbol, v.side, v.type, v.price, v.volume).msgpack_pack(o);
      return o;
    }
  };
  template <>
  struct convert<bench::model::Order> {
    const msgpack::object& operator()(const msgpack::object& o, bench::model::Order& v) const {
      auto symbol = bench_msgpack::chars(v.symbol);
      msgpack::type::make_define_array(v.id, symbol, v.side, v.type, v.price, v.volume).msgpack_unpack(o);
      return o;
    }
  };

  template <>
  struct pack<bench::model::Balance> {
    template <class Stream>
    msgpack::packer<Stream>& operator()(msgpack::packer<Stream>& o, const bench::model::Balance& v) const {
      const auto currency = bench_msgpack::chars(v.currency);
      msgpack::type::make_define_array(currency, v.amount).msgpack_pack(o);
      return o;
    }
  };
  template <>
  struct convert<bench::model::Balance> {
    const msgpack::object& operator()(const msgpack::object& o, bench::model::Balance& v) const {
      auto currency = bench_msgpack::chars(v.currency);
      msgpack::type::make_define_array(currency, v.amount).msgpack_unpack(o);
      return o;
    }
  };

  }  // namespace adaptor
}
}  // namespace msgpack

namespace {

template <class T>
concept msgpack_supported = !std::is_same_v<T, std::shared_ptr<bench::model::SharedNode>> &&
                            !std::is_same_v<T, std::unique_ptr<bench::model::PolyNode>>;

// str and bin objects may point into the input (no copy into the zone).
bool reference_input(msgpack::type::object_type, std::size_t, void*) { return true; }

// Deep enough for every model (a tree node is one level of nesting).
const msgpack::unpack_limit limits(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 256);

struct msgpack_adapter {
  static constexpr std::string_view name = "msgpack";

  msgpack::sbuffer buffer;
  msgpack::zone zone;

  template <class T>
    requires msgpack_supported<T>
  bench::bytes_view encode(const T& value) {
    buffer.clear();
    msgpack::packer<msgpack::sbuffer> packer(buffer);
    packer.pack(value);
    return {reinterpret_cast<const std::byte*>(buffer.data()), buffer.size()};
  }

  // convert<> overwrites: containers are resized or rebuilt, strings assigned,
  // and unique_ptr is reset to a new node, so decoding into a filled object
  // is fine.
  template <class T>
    requires msgpack_supported<T>
  void decode(bench::bytes_view in, T& value) {
    zone.clear();
    std::size_t offset = 0;
    const msgpack::object object = msgpack::unpack(zone, reinterpret_cast<const char*>(in.data()), in.size(),
                                                   offset, reference_input, nullptr, limits);
    if (offset != in.size()) throw msgpack::unpack_error("trailing bytes after the message");
    object.convert(value);  // throws msgpack::type_error on a mismatch
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree" || family == "poly_tree") return "msgpack has no pointer identity/polymorphism";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(msgpack_adapter);
