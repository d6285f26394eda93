// Boost.Serialization, binary archive (host-endian, not portable).
//
// Used the way its documentation suggests when speed matters:
// - Archives are built over a std::streambuf, not a std::ostream; ours keeps
//   its storage across calls and reads the input in place (no std::string
//   copy on either side). The archive itself is per call, as Boost requires:
//   it carries the object-tracking and class tables of one message.
// - Flags: no_header (no signature/version preamble: a message, not a file)
//   and no_codecvt (otherwise every archive builds a std::locale with a
//   codecvt facet and imbues the streambuf, which binary data never uses).
// - Value types are BOOST_CLASS_IMPLEMENTATION(object_serializable) +
//   BOOST_CLASS_TRACKING(track_never) ("serialization traits"), so no class
//   version or tracking information is written for them. The tree nodes keep
//   the defaults: pointers need tracking and class information.
// - char[10] is a binary_object (raw 10 bytes); as a plain C array Boost
//   would prefix each one with a 64-bit element count.
// - Enums are written as int, which is what Boost does for every enum.
// - Boost 1.74 has no std::tuple support; MetaTuple gets a serialize below.
// - The polymorphic tree uses register_type<> on each archive (no GUID
//   strings, unlike BOOST_CLASS_EXPORT), and the PolyLevel -> PolyNode casts
//   are registered explicitly in the adapter's constructor: the harness
//   round-trips at static-initialization time, before Boost's own static
//   registration by base_object<> is guaranteed to have run.
// Malformed input: truncation throws archive_exception, but some byte-flipped
// inputs crash inside libboost_serialization's pointer loading (Boost does not
// claim safety against untrusted archives), and nodes loaded through pointers
// leak when a load throws halfway (delete_created_pointers() would double-delete the children
// the unique_ptrs already own, so it is not called).
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/base_object.hpp>
#include <boost/serialization/binary_object.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/shared_ptr.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/unique_ptr.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/serialization/weak_ptr.hpp>

#include <algorithm>
#include <climits>
#include <cstring>
#include <streambuf>
#include <tuple>
#include <utility>
#include <vector>

#include "../harness/harness.hpp"
#include "../harness/stream_buffers.hpp"

namespace bench::model {

template <class Archive>
void serialize(Archive& ar, IntegerClass& v, const unsigned int) {
  ar & v.a & v.b & v.c & v.d & v.e & v.f & v.g & v.h & v.i & v.j;
}

template <class Archive>
void serialize(Archive& ar, UniqueNode& n, const unsigned int) {
  ar & n.value & n.left & n.right;
}

template <class Archive>
void serialize(Archive& ar, SharedNode& n, const unsigned int) {
  ar & n.value & n.left & n.right & n.parent;
}

template <class Archive>
void serialize(Archive& ar, PolyNode& n, const unsigned int) {
  ar & n.value & n.left & n.right;
}

template <class Archive, int Level>
void serialize(Archive& ar, PolyLevel<Level>& n, const unsigned int) {
  ar & boost::serialization::base_object<PolyNode>(n);
}

template <class Archive>
void serialize(Archive& ar, KelpieEntry& e, const unsigned int) {
  ar & e.id & e.name;
}

template <class Archive>
void serialize(Archive& ar, KelpieMessage& m, const unsigned int) {
  ar & m.op & m.tag & m.source & m.destination & m.entries;
}

template <class Archive>
void serialize(Archive& ar, SurveyMixed& s, const unsigned int) {
  ar & s.number & s.real & s.text;
}

template <class Archive>
void serialize(Archive& ar, Order& o, const unsigned int) {
  auto symbol = boost::serialization::make_binary_object(o.symbol, sizeof o.symbol);
  ar & o.id & symbol & o.side & o.type & o.price & o.volume;
}

template <class Archive>
void serialize(Archive& ar, Balance& b, const unsigned int) {
  auto currency = boost::serialization::make_binary_object(b.currency, sizeof b.currency);
  ar & currency & b.amount;
}

template <class Archive>
void serialize(Archive& ar, Account& a, const unsigned int) {
  ar & a.id & a.name & a.wallet & a.orders;
}

}  // namespace bench::model

namespace boost::serialization {

template <class Archive, class... Ts>
void serialize(Archive& ar, std::tuple<Ts...>& t, const unsigned int) {
  std::apply([&ar](auto&... element) { (ar & ... & element); }, t);
}

}  // namespace boost::serialization

#define BENCH_BOOST_VALUE_TYPE(T)                                              \
  BOOST_CLASS_IMPLEMENTATION(T, boost::serialization::object_serializable) \
  BOOST_CLASS_TRACKING(T, boost::serialization::track_never)
BENCH_BOOST_VALUE_TYPE(bench::model::IntegerClass)
BENCH_BOOST_VALUE_TYPE(bench::model::KelpieEntry)
BENCH_BOOST_VALUE_TYPE(bench::model::KelpieMessage)
BENCH_BOOST_VALUE_TYPE(bench::model::MetaTuple)
BENCH_BOOST_VALUE_TYPE(bench::model::SurveyMixed)
BENCH_BOOST_VALUE_TYPE(bench::model::Order)
BENCH_BOOST_VALUE_TYPE(bench::model::Balance)
BENCH_BOOST_VALUE_TYPE(bench::model::Account)
#undef BENCH_BOOST_VALUE_TYPE

namespace {

using bench::bytes_input_buffer;
using bench::reused_output_buffer;

using poly_levels = std::make_integer_sequence<int, bench::model::max_tree_depth + 1>;

template <int... Levels>
void register_poly_casts(std::integer_sequence<int, Levels...>) {
  (boost::serialization::void_cast_register<bench::model::PolyLevel<Levels>, bench::model::PolyNode>(), ...);
}

// Save and load must register the same types in the same order.
template <class Archive, int... Levels>
void register_poly_types(Archive& archive, std::integer_sequence<int, Levels...>) {
  (archive.template register_type<bench::model::PolyLevel<Levels>>(), ...);
}

constexpr unsigned archive_flags = boost::archive::no_header | boost::archive::no_codecvt;

struct boost_binary_adapter {
  static constexpr std::string_view name = "boost_binary";

  reused_output_buffer out;
  bytes_input_buffer in;

  boost_binary_adapter() { register_poly_casts(poly_levels{}); }

  template <class T>
  bench::bytes_view encode(const T& value) {
    out.reset();
    boost::archive::binary_oarchive archive(out, archive_flags);
    if constexpr (std::is_same_v<T, std::unique_ptr<bench::model::PolyNode>>) {
      register_poly_types(archive, poly_levels{});
    }
    archive << value;
    return out.bytes();
  }

  // Boost's loads overwrite: vectors are resized, maps and strings replaced,
  // pointers reset to newly loaded objects.
  template <class T>
  void decode(bench::bytes_view bytes, T& value) {
    in.reset(bytes);
    boost::archive::binary_iarchive archive(in, archive_flags);
    if constexpr (std::is_same_v<T, std::unique_ptr<bench::model::PolyNode>>) {
      register_poly_types(archive, poly_levels{});
    }
    archive >> value;  // throws archive_exception(input_stream_error) when the input runs out
  }
};

}  // namespace

BENCH_ADAPTER(boost_binary_adapter);
