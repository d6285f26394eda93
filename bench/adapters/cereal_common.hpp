// cereal: the serialize functions for the model types, the stream buffers and
// the adapter, shared by the binary (cereal_binary.cpp) and portable binary
// (cereal_portable.cpp) archives.
//
// Include the archive header *before* this one: CEREAL_REGISTER_TYPE below
// instantiates the polymorphic bindings of the archives already included.
//
// cereal archives write to a std::ostream and read from a std::istream, but
// its binary archives only ever call rdbuf()->sputn / sgetn. So the adapter
// keeps one ostream over a streambuf whose storage survives across calls (a
// std::ostringstream would reallocate its string every time), and one istream
// over a streambuf that reads the input in place, without copying it into a
// std::string first. Both streams are built once per adapter: constructing a
// stream costs a locale copy, which cereal users avoid by keeping the stream.
#pragma once

#include <cereal/cereal.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/memory.hpp>
#include <cereal/types/polymorphic.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/tuple.hpp>
#include <cereal/types/vector.hpp>

#include <algorithm>
#include <climits>
#include <cstring>
#include <istream>
#include <ostream>
#include <streambuf>
#include <utility>
#include <vector>

#include "../harness/harness.hpp"
#include "../harness/stream_buffers.hpp"

namespace bench::model {

template <class Archive>
void serialize(Archive& ar, IntegerClass& v) {
  ar(v.a, v.b, v.c, v.d, v.e, v.f, v.g, v.h, v.i, v.j);
}

template <class Archive>
void serialize(Archive& ar, UniqueNode& n) {
  ar(n.value, n.left, n.right);
}

// cereal registers each shared_ptr before loading its pointee, so the
// children's weak_ptr back to a parent still being loaded resolves.
template <class Archive>
void serialize(Archive& ar, SharedNode& n) {
  ar(n.value, n.left, n.right, n.parent);
}

template <class Archive>
void serialize(Archive& ar, PolyNode& n) {
  ar(n.value, n.left, n.right);
}

// base_class<> also registers the PolyLevel<L> -> PolyNode relation.
template <class Archive, int Level>
void serialize(Archive& ar, PolyLevel<Level>& n) {
  ar(cereal::base_class<PolyNode>(&n));
}

template <class Archive>
void serialize(Archive& ar, KelpieEntry& e) {
  ar(e.id, e.name);
}

template <class Archive>
void serialize(Archive& ar, KelpieMessage& m) {
  ar(m.op, m.tag, m.source, m.destination, m.entries);
}

template <class Archive>
void serialize(Archive& ar, SurveyMixed& s) {
  ar(s.number, s.real, s.text);
}

// char[10] and the uint8_t enums are handled by cereal itself (C arrays of
// arithmetic types as one binary block, enums as their underlying type).
template <class Archive>
void serialize(Archive& ar, Order& o) {
  ar(o.id, o.symbol, o.side, o.type, o.price, o.volume);
}

template <class Archive>
void serialize(Archive& ar, Balance& b) {
  ar(b.currency, b.amount);
}

template <class Archive>
void serialize(Archive& ar, Account& a) {
  ar(a.id, a.name, a.wallet, a.orders);
}

}  // namespace bench::model

CEREAL_REGISTER_TYPE(bench::model::PolyLevel<0>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<1>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<2>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<3>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<4>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<5>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<6>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<7>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<8>)
CEREAL_REGISTER_TYPE(bench::model::PolyLevel<9>)
static_assert(bench::model::max_tree_depth == 9, "register every PolyLevel<> above");

namespace bench_cereal {

using bench::bytes_input_buffer;
using bench::reused_output_buffer;

// The harness round-trips every case while this executable's static objects
// are still being initialized (BENCH_ADAPTER), but CEREAL_REGISTER_TYPE and
// base_class<> register through static data members of class templates, whose
// initialization order is unspecified and in practice comes later ("Trying to
// save an unregistered polymorphic type"). So the adapter forces the very
// singletons those macros create; they are function-local statics, so doing
// it again is harmless.
template <class OutputArchive, class InputArchive, int... Levels>
void register_poly_levels(std::integer_sequence<int, Levels...>) {
  using bench::model::PolyLevel;
  using bench::model::PolyNode;
  using namespace cereal::detail;
  (StaticObject<OutputBindingCreator<OutputArchive, PolyLevel<Levels>>>::getInstance(), ...);
  (StaticObject<InputBindingCreator<InputArchive, PolyLevel<Levels>>>::getInstance(), ...);
  (RegisterPolymorphicCaster<PolyNode, PolyLevel<Levels>>::bind(), ...);
}

// One adapter for both archive kinds; cereal_binary.cpp and cereal_portable.cpp
// derive from it and add the name.
template <class OutputArchive, class InputArchive>
struct adapter {
  reused_output_buffer out_buffer;
  std::ostream out{&out_buffer};
  bytes_input_buffer in_buffer;
  std::istream in{&in_buffer};

  adapter() {
    register_poly_levels<OutputArchive, InputArchive>(
        std::make_integer_sequence<int, bench::model::max_tree_depth + 1>{});
  }

  template <class T>
  bench::bytes_view encode(const T& value) {
    out_buffer.reset();
    {
      OutputArchive archive(out);  // some archives finish their output on destruction
      archive(value);
    }
    return out_buffer.bytes();
  }

  // cereal's loads overwrite: vectors and strings are resized, maps cleared,
  // pointers replaced, so decoding into a filled object is fine.
  template <class T>
  void decode(bench::bytes_view bytes, T& value) {
    in_buffer.reset(bytes);
    in.clear();
    InputArchive archive(in);
    // Throws cereal::Exception when the input runs out. cereal does not bound
    // a corrupt size by the input left: it resizes first, then fails to read.
    archive(value);
  }
};

}  // namespace bench_cereal
