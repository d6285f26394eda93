// Fuzz harness: structs of small integers, whose bodies are runs of varints that
// detail/varint_run.hpp decodes and encodes several fields at a time where the processor has AVX-512 VBMI2, in
// every position that decoder takes them (vectors and arrays of such structs, alone and inside
// other values) and in positions it does not (a deque, a single struct).
// Properties, for each case:
//   - those of fuzz_support.hpp, with the run decoder on where the processor has it;
//   - the run decoder and the scalar decoder (detail::simd_runs_allowed off) agree on every input:
//     the same value, or the same error code and offset; and the run encoder writes the value read
//     as the scalar encoder does.

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fuzz_support.hpp"

namespace {

using fuzz::input;

enum class Tone : std::int16_t { low = -3, mid = 0, high = 300 };

/// The suite's IntegerClass: ten int32_t, at most 50 bytes of body.
struct Ten {
  std::int32_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0;
  bool operator==(const Ten&) const = default;
};

/// Every type a run takes, each with its own range.
struct Mixed {
  std::int8_t a = 0;
  std::uint8_t b = 0;
  std::int16_t c = 0;
  std::uint16_t d = 0;
  Tone e = Tone::mid;
  std::int32_t f = 0;
  std::uint32_t g = 0;
  wchar_t h = 0;
  signed char i = 0;
  unsigned short j = 0;
  bool operator==(const Mixed&) const = default;
};

/// The most fields a run holds.
struct Sixteen {
  std::int16_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
  std::int16_t i = 0, j = 0, k = 0, l = 0, m = 0, n = 0, o = 0, p = 0;
  bool operator==(const Sixteen&) const = default;
};

struct One {
  std::uint32_t v = 0;
  bool operator==(const One&) const = default;
};

struct Holder {
  std::vector<Ten> tens;
  std::string name;
  std::array<Mixed, 2> pair;
  std::vector<One> ones;
  bool operator==(const Holder&) const = default;
};

/// Two fields: a body of two bytes that the bytes of a string can spell.
struct Two {
  std::int32_t a = 0, b = 0;
  bool operator==(const Two&) const = default;
};

/// A block of structs that may begin where its enclosing body has ended (the optional's tag the
/// body's last byte), with a string after it whose bytes the run decoder must not take for it.
struct EndsEarly {
  std::optional<std::array<Two, 1>> runs;
  bool operator==(const EndsEarly&) const = default;
};
struct EndsEarlyThenText {
  EndsEarly first;
  std::string text;
  bool operator==(const EndsEarlyThenText&) const = default;
};

template <class T>
T sample(std::uint32_t seed) {
  T v{};
  std::uint32_t x = seed * 2654435761u + 1;
  auto next = [&] {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return x;
  };
  if constexpr (std::is_same_v<T, Ten>) {
    for (std::int32_t* f : {&v.a, &v.b, &v.c, &v.d, &v.e, &v.f, &v.g, &v.h, &v.i, &v.j})
      *f = static_cast<std::int32_t>(seed % 2 ? next() : next() % 256) - (seed % 2 ? 0 : 128);
  } else if constexpr (std::is_same_v<T, Mixed>) {
    v = {static_cast<std::int8_t>(next()),
         static_cast<std::uint8_t>(next()),
         static_cast<std::int16_t>(next()),
         static_cast<std::uint16_t>(next()),
         seed % 3 == 0 ? Tone::high : Tone::low,
         static_cast<std::int32_t>(next()),
         next(),
         static_cast<wchar_t>(next() % 0x110000),
         static_cast<signed char>(next()),
         static_cast<unsigned short>(next())};
  } else if constexpr (std::is_same_v<T, Sixteen>) {
    for (std::int16_t* f :
         {&v.a, &v.b, &v.c, &v.d, &v.e, &v.f, &v.g, &v.h, &v.i, &v.j, &v.k, &v.l, &v.m, &v.n, &v.o, &v.p})
      *f = static_cast<std::int16_t>(next() % (seed % 2 ? 65536 : 200));
  } else {
    v.v = seed % 2 ? next() : next() % 300;
  }
  return v;
}

template <class T>
std::vector<T> samples_of_size(std::size_t n, std::uint32_t seed) {
  std::vector<T> v;
  for (std::size_t k = 0; k < n; ++k) v.push_back(sample<T>(seed + static_cast<std::uint32_t>(k)));
  return v;
}

struct tens {
  static constexpr const char* name = "tens";
  using type = std::vector<Ten>;
  static std::vector<type> samples() { return {{}, samples_of_size<Ten>(3, 1), samples_of_size<Ten>(12, 2)}; }
};
struct mixed {
  static constexpr const char* name = "mixed";
  using type = std::vector<Mixed>;
  static std::vector<type> samples() { return {samples_of_size<Mixed>(9, 3)}; }
};
struct sixteens {
  static constexpr const char* name = "sixteens";
  using type = std::vector<Sixteen>;
  static std::vector<type> samples() { return {samples_of_size<Sixteen>(6, 4)}; }
};
struct ones {
  static constexpr const char* name = "ones";
  using type = std::vector<One>;
  static std::vector<type> samples() { return {samples_of_size<One>(70, 5)}; }
};
struct array_of_tens {
  static constexpr const char* name = "array_of_tens";
  using type = std::array<Ten, 4>;
  static std::vector<type> samples() {
    const std::vector<Ten> v = samples_of_size<Ten>(4, 6);
    return {{v[0], v[1], v[2], v[3]}};
  }
};
struct deque_of_tens {
  static constexpr const char* name = "deque_of_tens";
  using type = std::deque<Ten>;
  static std::vector<type> samples() {
    const std::vector<Ten> v = samples_of_size<Ten>(5, 7);
    return {type(v.begin(), v.end())};
  }
};
struct holder {
  static constexpr const char* name = "holder";
  using type = Holder;
  static std::vector<type> samples() {
    return {{samples_of_size<Ten>(8, 8), "run", {sample<Mixed>(9), sample<Mixed>(10)}, samples_of_size<One>(3, 11)}};
  }
};
struct single {
  static constexpr const char* name = "single";
  using type = std::pair<Ten, Mixed>;
  static std::vector<type> samples() { return {{sample<Ten>(12), sample<Mixed>(13)}}; }
};

struct ended_body {
  static constexpr const char* name = "ended_body";
  using type = EndsEarlyThenText;
  static std::vector<type> samples() {
    return {{{std::array<Two, 1>{Two{1, -2}}}, std::string(100, 'a')}, {{}, std::string(70, 'b')}};
  }
};
/// A tuple reads every element after an error: a block read after it must read nothing, and a
/// fixed-width block after that must find no bytes.
struct after_error {
  static constexpr const char* name = "after_error";
  using type = std::tuple<std::uint8_t, std::array<Two, 1>, std::array<std::uint64_t, 9>>;
  static std::vector<type> samples() { return {{200, {Two{3, 4}}, {}}}; }
};

/// The run decoder and the scalar one read the input alike.
template <class Case>
void check_decoders_agree(input in) {
  using T = typename Case::type;
  const fuzz::context ctx{Case::name, in};
  bifrons::detail::simd_runs_allowed = false;
  const bifrons::result<T> scalar = bifrons::try_from_bytes<T>(in, fuzz::reference_limits);
  bifrons::detail::simd_runs_allowed = true;
  const bifrons::result<T> runs = bifrons::try_from_bytes<T>(in, fuzz::reference_limits);
  ctx.check(runs.has_value() == scalar.has_value(), "the run decoder and the scalar decoder disagree on success");
  if (runs) {
    ctx.check(*runs == *scalar, "the run decoder read another value than the scalar decoder");
    const fuzz::bytes written = bifrons::to_bytes(*runs);
    bifrons::detail::simd_runs_allowed = false;
    const fuzz::bytes scalar_written = bifrons::to_bytes(*runs);
    bifrons::detail::simd_runs_allowed = true;
    ctx.check(written == scalar_written, "the run encoder wrote other bytes than the scalar encoder");
  } else
    ctx.check(runs.code() == scalar.code() && runs.offset() == scalar.offset(),
              "the run decoder failed with another error or offset than the scalar decoder");
}

template <class... Cases>
void check_all(const std::uint8_t* data, std::size_t size) {
  const input in(reinterpret_cast<const std::byte*>(data), size);
  (fuzz::check_case<Cases>(in), ...);
  (check_decoders_agree<Cases>(in), ...);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::initialize<tens, mixed, sixteens, ones, array_of_tens, deque_of_tens, holder, single, ended_body,
                   after_error>();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_all<tens, mixed, sixteens, ones, array_of_tens, deque_of_tens, holder, single, ended_body, after_error>(data,
                                                                                                                size);
  return 0;
}
