// Fuzz harness: bifrons::reader (bifrons/io.hpp) reading several values one after another, from
// bytes and from a std::istream, and bifrons::writer writing them back. Two sequences of values:
// the golden stream case (scalars, a string, structs, a vector, an empty struct) and one with
// records, an optional, a map, views into the input and a versioned struct.
//
// Properties, for each sequence (T1, ..., Tn) and input bytes:
//   - r(v1, ..., vn) agrees with try_from_bytes<std::tuple<T1, ..., Tn>> (a tuple is its elements
//     back to back): the same values and done() when the tuple reads; ok() but not done() at the
//     same offset when only trailing bytes remain; otherwise the same error code and offset,
//     thrown as bifrons::error (nothing else is thrown) and kept by ok(), error(), offset();
//   - reading the values one call at a time gives the same outcome, and once a read failed every
//     later call throws again with the same error;
//   - a reader over a std::istringstream of the same bytes gives the same outcome and values as
//     the tuple read with a budget smaller by the input's size (the reader charges its buffer);
//   - reading into objects that already hold other values gives the same outcome and values;
//   - under tight read_options the reader fails cleanly or gives the values of the reference
//     limits, and holds at most about twice its budget (fuzz_support.hpp);
//   - writer into a byte vector and into a std::ostringstream writes the bytes to_bytes gives the
//     tuple; reading those bytes gives the same values and is done (a fixed point).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"

namespace {

using fuzz::bytes;
using fuzz::context;
using fuzz::input;

/// The golden stream case: written with bifrons::writer, one value after another.
struct stream {
  static constexpr const char* name = "stream";
  using type = golden::stream::type;
  static constexpr std::array golden{golden::stream::name};
  static std::vector<type> samples() { return {golden::stream::value(), type{}}; }
};

/// Records, an optional, a map, views into the input, a versioned struct with a hook.
struct mixed {
  static constexpr const char* name = "mixed";
  using type =
      std::tuple<std::vector<golden::RecPoint>, std::optional<std::string>, std::map<std::int32_t, std::string>,
                 std::string_view, golden::Versioned, std::span<const std::uint8_t>, golden::RecTick>;
  static std::vector<type> samples() {
    static const std::uint8_t raw[] = {1, 2, 3};
    return {{{{1, 2}, {-3, 4}}, "opt", {{1, "one"}, {-1, "minus one"}}, "view", {5, "v", 7}, raw, {9, 0.5}}, {}};
  }
};

/// What a reader did: its state after the reads, and what it threw.
struct reader_outcome {
  bool ok = false;
  bool done = false;
  bifrons::errc error = bifrons::errc::ok;
  std::size_t offset = 0;
  bifrons::errc thrown = bifrons::errc::ok;
  std::size_t thrown_offset = 0;
};

/// Reads `values` with `r`, all in one call or one call per value.
template <class Tuple>
reader_outcome read_all(const context& ctx, bifrons::reader& r, Tuple& values, bool one_call) {
  reader_outcome o;
  const auto note = [&](const bifrons::error& e) {
    ctx.check(e.code() != bifrons::errc::ok, "reader threw bifrons::error with code ok");
    o.thrown = e.code();
    o.thrown_offset = e.offset();
  };
  try {
    if (one_call) {
      std::apply([&](auto&... v) { r(v...); }, values);
    } else {
      std::apply(
          [&](auto&... v) {
            const auto one = [&](auto& value) {
              try {
                r(value);
              } catch (const bifrons::error& e) {
                // After the first failure every later read throws again, with the same error.
                if (o.thrown != bifrons::errc::ok)
                  ctx.check(e.code() == o.thrown && e.offset() == o.thrown_offset,
                            "reader: a read after a failure threw another error");
                else
                  note(e);
              }
            };
            (one(v), ...);
          },
          values);
    }
  } catch (const bifrons::error& e) {
    note(e);
  } catch (...) {
    ctx.check(false, "reader threw something other than bifrons::error");
  }
  o.ok = r.ok();
  o.done = r.done();
  o.error = r.code();
  o.offset = r.offset();
  ctx.check(o.ok == (o.error == bifrons::errc::ok), "reader: ok() and error() disagree");
  ctx.check(o.ok == (o.thrown == bifrons::errc::ok), "reader: ok() but it threw, or failed without throwing");
  if (!o.ok) ctx.check(o.thrown == o.error && o.thrown_offset == o.offset, "reader: threw another error than error()");
  return o;
}

/// The outcome and values of one reader agree with the tuple read `t` of the same bytes.
template <class Tuple>
void agrees_with_tuple(const context& ctx, const reader_outcome& o, const Tuple& values,
                       const bifrons::result<Tuple>& t, const char* which) {
  if (t) {
    ctx.check(o.ok && o.done, "reader: the tuple reads but the reader failed or is not done", which);
    ctx.check(bifrons::to_bytes(values) == bifrons::to_bytes(*t), "reader: other values than the tuple read", which);
  } else if (t.code() == bifrons::errc::trailing_bytes) {
    ctx.check(o.ok && !o.done, "reader: bytes left after the values, but the reader failed or is done", which);
    ctx.check(o.offset == t.offset(), "reader: stopped at another offset than the tuple read's trailing bytes", which);
  } else {
    ctx.check(!o.ok, "reader: succeeded where the tuple read failed", which);
    ctx.check(o.error == t.code(), "reader: another error code than the tuple read", which);
    ctx.check(o.offset == t.offset(), "reader: another error offset than the tuple read", which);
  }
}

template <class Case>
void check_sequence(input in) {
  using Tuple = typename Case::type;
  const context ctx{Case::name, in};
  const bifrons::result<Tuple> t = fuzz::bounded_read<Tuple>(ctx, in, fuzz::reference_limits);

  // From bytes, all values in one call and one call per value.
  Tuple values{};
  for (const bool one_call : {true, false}) {
    Tuple v{};
    bifrons::reader r(in, fuzz::reference_limits);
    const reader_outcome o = fuzz::within_budget(ctx, fuzz::reference_limits,
                                                 [&] { return read_all(ctx, r, v, one_call); });
    agrees_with_tuple(ctx, o, v, t, one_call ? "bytes" : "bytes, one call per value");
    if (one_call) values = v;
  }

  // From a stream: the reader buffers the bytes, which it charges to the budget (so it agrees
  // with a tuple read whose budget is smaller by the input's size); views point into its buffer.
  {
    bifrons::read_options limits = fuzz::reference_limits;
    limits.max_alloc_bytes -= in.size();
    const bifrons::result<Tuple> t_less = bifrons::try_from_bytes<Tuple>(in, limits);
    std::istringstream stream(std::string(reinterpret_cast<const char*>(in.data()), in.size()));
    bifrons::reader r(stream, fuzz::reference_limits);
    Tuple v{};
    const reader_outcome o = read_all(ctx, r, v, true);
    agrees_with_tuple(ctx, o, v, t_less, "istream");
  }

  // Into objects that hold other values.
  for (const Tuple& sample : fuzz::samples_of<Case>()) {
    Tuple v = sample;
    bifrons::reader r(in, fuzz::reference_limits);
    const reader_outcome o = read_all(ctx, r, v, true);
    agrees_with_tuple(ctx, o, v, t, "existing objects");
  }

  // Tight limits: a clean failure, or what the defaults give.
  for (const bifrons::read_options& limits : fuzz::tight_limits) {
    Tuple v{};
    bifrons::reader r(in, limits);
    const reader_outcome o = fuzz::within_budget(ctx, limits, [&] { return read_all(ctx, r, v, true); });
    if (o.ok && o.done) {
      ctx.check(t.has_value(),
                "reader: succeeded under tight limits, but the tuple read under the reference limits failed");
      ctx.check(bifrons::to_bytes(v) == bifrons::to_bytes(*t), "reader: tight limits gave other values");
    } else if (!o.ok) {
      ctx.check(o.offset <= in.size(), "reader: tight limits: an error offset past the input");
    }
  }

  if (!t) return;

  // Writing the values back: writer into bytes and into a stream, the same bytes as the tuple.
  bytes written;
  bifrons::writer w(written);
  std::apply([&](const auto&... v) { w(v...); }, values);
  const bytes e = fuzz::encode(ctx, *t);
  ctx.check(written == e, "writer: other bytes than to_bytes of the tuple");
  std::ostringstream out;
  bifrons::writer ws(out);
  std::apply([&](const auto&... v) { ws(v...); }, values);
  ctx.check(ws.ok() && out.str().size() == e.size() && std::memcmp(out.str().data(), e.data(), e.size()) == 0,
            "writer into a std::ostream: other bytes than into a vector");

  // ... which read back to the same values: a fixed point.
  Tuple again{};
  bifrons::reader r(written, fuzz::reference_limits);
  const reader_outcome o = read_all(ctx, r, again, true);
  ctx.check(o.ok && o.done, "reader: what the writer wrote does not read back");
  ctx.check(bifrons::to_bytes(again) == e, "reader: writer -> reader -> to_bytes is not a fixed point");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::initialize<stream, mixed>();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const input in(reinterpret_cast<const std::byte*>(data), size);
  check_sequence<stream>(in);
  check_sequence<mixed>(in);
  return 0;
}
