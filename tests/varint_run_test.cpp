// Runs of varints (detail/varint_run.hpp): the bodies of structs of small integers, which blocks
// of them decode several fields at a time where the processor has AVX-512 VBMI2. Every input must
// read as the scalar decoder reads it (detail::simd_runs_allowed off): the same value, or the same
// error at the same offset. The tests compare the two on values of every range, on every byte of
// an encoding changed, on every truncation, and on the invalid runs the checks exist for.
#include <bifrons/core.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "types/test_support.hpp"

namespace {

using namespace bifrons_test;
using bifrons::errc;

struct Ten {
  std::int32_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0;
  friend bool operator==(const Ten&, const Ten&) = default;
};

enum class Tone : std::int16_t { low = -3, mid = 0, high = 300 };

struct Mixed {
  std::int8_t a = 0;
  std::uint8_t b = 0;
  std::int16_t c = 0;
  std::uint16_t d = 0;
  Tone e = Tone::mid;
  std::int32_t f = 0;
  std::uint32_t g = 0;
  friend bool operator==(const Mixed&, const Mixed&) = default;
};

/// The most fields a run holds.
struct Sixteen {
  std::int16_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;
  std::int16_t i = 0, j = 0, k = 0, l = 0, m = 0, n = 0, o = 0, p = 0;
  friend bool operator==(const Sixteen&, const Sixteen&) = default;
};

/// Nine one-byte fields: two lanes of 8, read and written as the object's bytes.
struct Nine {
  std::int8_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0;
  friend bool operator==(const Nine&, const Nine&) = default;
};

/// A struct with a field a run cannot take (64 bits) reads field by field.
struct Wide {
  std::int32_t a = 0;
  std::int64_t b = 0;
};

static_assert(bifrons::detail::struct_codec<Ten>::varint_run_body);
static_assert(bifrons::detail::struct_codec<Mixed>::varint_run_body);
static_assert(bifrons::detail::struct_codec<Sixteen>::varint_run_body);
static_assert(bifrons::detail::struct_codec<Nine>::varint_run_body);
static_assert(bifrons::detail::struct_codec<Ten>::uniform_run && bifrons::detail::struct_codec<Nine>::uniform_run);
static_assert(!bifrons::detail::struct_codec<Mixed>::uniform_run);
static_assert(!bifrons::detail::struct_codec<Wide>::varint_run_body);

/// Sets simd_runs_allowed for a scope.
class runs_allowed {
 public:
  explicit runs_allowed(bool on) { bifrons::detail::simd_runs_allowed = on; }
  runs_allowed(const runs_allowed&) = delete;
  runs_allowed& operator=(const runs_allowed&) = delete;
  ~runs_allowed() { bifrons::detail::simd_runs_allowed = true; }
};

/// Reads `in` as T with the run decoder and with the scalar one; true if they agree.
template <class T>
::testing::AssertionResult decoders_agree(const bytes& in) {
  bifrons::result<T> scalar = [&] {
    const runs_allowed off(false);
    return bifrons::try_from_bytes<T>(in);
  }();
  const bifrons::result<T> runs = bifrons::try_from_bytes<T>(in);
  if (runs.has_value() != scalar.has_value())
    return ::testing::AssertionFailure() << "runs " << (runs ? "succeed" : "fail") << ", scalar "
                                         << (scalar ? "succeeds" : "fails") << " on " << hex(in);
  if (runs && !(*runs == *scalar)) return ::testing::AssertionFailure() << "other values on " << hex(in);
  if (!runs && (runs.code() != scalar.code() || runs.offset() != scalar.offset()))
    return ::testing::AssertionFailure() << "runs fail with " << static_cast<int>(runs.code()) << " at "
                                         << runs.offset() << ", scalar with " << static_cast<int>(scalar.code())
                                         << " at " << scalar.offset() << " on " << hex(in);
  return ::testing::AssertionSuccess();
}

template <class T>
std::vector<T> random_values(std::size_t n, std::mt19937& rng, bool small) {
  std::vector<T> out(n);
  std::normal_distribution<double> normal(0.0, 127.0);
  const auto draw = [&]<class F>(F& field) {
    using I = typename bifrons::detail::run_integer<F>::type;
    using limits = std::numeric_limits<I>;
    const auto bits = static_cast<std::uint64_t>(rng()) << 32 | rng();
    I v = small ? static_cast<I>(static_cast<long long>(normal(rng))) : static_cast<I>(bits);
    if (bits % 16 == 0) v = bits % 32 == 0 ? limits::min() : limits::max();
    field = static_cast<F>(v);
  };
  for (T& v : out) {
    if constexpr (std::is_same_v<T, Ten>) {
      for (std::int32_t* f : {&v.a, &v.b, &v.c, &v.d, &v.e, &v.f, &v.g, &v.h, &v.i, &v.j}) draw(*f);
    } else if constexpr (std::is_same_v<T, Nine>) {
      draw(v.a), draw(v.b), draw(v.c), draw(v.d), draw(v.e), draw(v.f), draw(v.g), draw(v.h), draw(v.i);
    } else if constexpr (std::is_same_v<T, Mixed>) {
      draw(v.a), draw(v.b), draw(v.c), draw(v.d), draw(v.e), draw(v.f), draw(v.g);
    } else {
      for (std::int16_t* f :
           {&v.a, &v.b, &v.c, &v.d, &v.e, &v.f, &v.g, &v.h, &v.i, &v.j, &v.k, &v.l, &v.m, &v.n, &v.o, &v.p})
        draw(*f);
    }
  }
  return out;
}

/// Writes `value` with the run encoder and with the scalar one; true if the bytes are the same.
template <class T>
::testing::AssertionResult encoders_agree(const T& value) {
  const bytes runs = bifrons::to_bytes(value);
  const bytes scalar = [&] {
    const runs_allowed off(false);
    return bifrons::to_bytes(value);
  }();
  if (runs != scalar) return ::testing::AssertionFailure() << "runs write " << hex(runs) << ", scalar " << hex(scalar);
  return ::testing::AssertionSuccess();
}

template <class T>
void round_trips_both_ways() {
  std::mt19937 rng(42);
  for (const bool small : {true, false}) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{100}, std::size_t{1000}}) {
      const std::vector<T> values = random_values<T>(n, rng, small);
      const bytes in = bifrons::to_bytes(values);
      EXPECT_TRUE(encoders_agree(values));
      EXPECT_TRUE(reads_as(in, values));
      EXPECT_TRUE(decoders_agree<std::vector<T>>(in));
      // Into a vector that holds other values: every field is written.
      std::vector<T> reused = random_values<T>(n + 3, rng, !small);
      bifrons::from_bytes(in, reused);
      EXPECT_EQ(reused, values);
    }
  }
}

// Both ways: the run encoder writes the scalar encoder's bytes, and both decoders read them back.
TEST(VarintRun, ValuesOfEveryRangeRoundTrip) {
  round_trips_both_ways<Ten>();
  round_trips_both_ways<Mixed>();
  round_trips_both_ways<Sixteen>();
  round_trips_both_ways<Nine>();
}

// The run decoder is used where the processor has it, for every element but those near the end
// of the input (it loads 64 bytes past each header), and nowhere else.
TEST(VarintRun, ReadsEveryElementButTheLastWhereAvailable) {
  std::mt19937 rng(7);
  const std::vector<Ten> values = random_values<Ten>(200, rng, true);
  bytes elements;
  std::vector<std::size_t> ends;
  for (const Ten& v : values) {
    const bytes one = bifrons::to_bytes(v);
    elements.insert(elements.end(), one.begin(), one.end());
    ends.push_back(elements.size());
  }
  std::size_t loadable = 0;  // elements whose header has more than 64 bytes after it
  for (std::size_t k = 0, start = 0; k < ends.size(); start = ends[k++])
    if (elements.size() - start > 64) loadable = k + 1;
  bifrons::detail::source in(elements.data(), elements.size(), bifrons::read_options{});
  std::vector<Ten> out(values.size());
  const std::size_t read = bifrons::detail::struct_codec<Ten>::read_runs(in, out.data(), out.size());
  if (bifrons::detail::simd_runs_available()) {
    EXPECT_EQ(read, loadable);
    EXPECT_EQ(in.offset(), ends[read - 1]);
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(read), values.begin()));
  } else {
    EXPECT_EQ(read, 0u);
  }
  const runs_allowed off(false);
  bifrons::detail::source again(elements.data(), elements.size(), bifrons::read_options{});
  EXPECT_EQ(bifrons::detail::struct_codec<Ten>::read_runs(again, out.data(), out.size()), 0u);
}

/// A value holding blocks of structs (a vector of them, each followed by enough bytes for the run
/// decoder): every byte changed to each of a few values and with each bit flipped, and every
/// truncation, reads alike.
template <class V>
void every_change_agrees(const V& value) {
  const bytes in = bifrons::to_bytes(value);
  for (std::size_t at = 0; at < in.size(); ++at) {
    for (const unsigned value : {0x00u, 0x01u, 0x0fu, 0x10u, 0x7fu, 0x80u, 0x81u, 0xffu}) {
      bytes changed = in;
      changed[at] = static_cast<std::byte>(value);
      ASSERT_TRUE(decoders_agree<V>(changed)) << "byte " << at << " = " << value;
    }
    for (unsigned bit = 0; bit < 8; ++bit) {
      bytes flipped = in;
      flipped[at] ^= static_cast<std::byte>(1u << bit);
      ASSERT_TRUE(decoders_agree<V>(flipped)) << "byte " << at << " bit " << bit;
    }
  }
  for (std::size_t size = 0; size < in.size(); ++size)
    ASSERT_TRUE(decoders_agree<V>(bytes(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(size))));
}

TEST(VarintRun, EveryChangedByteAndTruncationReadsAsTheScalarDecoderReadsIt) {
  std::mt19937 rng(3);
  every_change_agrees(random_values<Ten>(12, rng, true));
  every_change_agrees(random_values<Ten>(6, rng, false));
  every_change_agrees(random_values<Mixed>(12, rng, true));
  every_change_agrees(random_values<Mixed>(8, rng, false));
  every_change_agrees(random_values<Sixteen>(6, rng, true));
  every_change_agrees(random_values<Nine>(10, rng, false));
}

/// A block of `count` structs: the first with `first_body`, then structs of `fields` zero fields.
/// The run decoder reaches the first one (64 bytes follow it).
bytes block_with_first_body(std::size_t count, const bytes& first_body, std::size_t fields) {
  bytes out = cat({varint_bytes(count), varint_bytes(first_body.size() << 1), first_body});
  const bytes zeros = cat({varint_bytes(fields << 1), bytes(fields, std::byte{0})});
  for (std::size_t k = 1; k < count; ++k) out = cat({out, zeros});
  return out;
}
bytes tens_with_first_body(const bytes& body) { return block_with_first_body(10, body, 10); }

TEST(VarintRun, InvalidRunsFailWhereTheScalarDecoderFails) {
  const bytes nine_zeros = B({0, 0, 0, 0, 0, 0, 0, 0, 0});
  struct invalid {
    const char* what;
    bytes first_field;
    errc code;
  };
  const std::vector<invalid> cases = {
      // Longer than eight bytes with zero groups: eight bytes of it alone would read as 0.
      {"a varint of ten bytes", B({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}),
       errc::value_out_of_range},
      {"a varint of six bytes", B({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), errc::value_out_of_range},
      {"2^32 after zigzag", B({0x80, 0x80, 0x80, 0x80, 0x10}), errc::value_out_of_range},
      {"a second spelling of 0", B({0x80, 0x00}), errc::malformed_varint},
      {"a second spelling of 1", B({0x81, 0x80, 0x00}), errc::malformed_varint},
  };
  for (const invalid& c : cases) {
    SCOPED_TRACE(c.what);
    const bytes in = tens_with_first_body(cat({c.first_field, nine_zeros}));
    EXPECT_TRUE(decoders_agree<std::vector<Ten>>(in));
    EXPECT_TRUE(fails_with<std::vector<Ten>>(in, c.code, 2));
  }
  // An older writer's body of nine fields: the tenth keeps its default. A newer writer's of
  // eleven: the eleventh is skipped.
  const bytes older = tens_with_first_body(B({2, 4, 6, 8, 10, 12, 14, 16, 18}));
  EXPECT_TRUE(decoders_agree<std::vector<Ten>>(older));
  EXPECT_EQ(bifrons::from_bytes<std::vector<Ten>>(older)[0], (Ten{1, 2, 3, 4, 5, 6, 7, 8, 9, 0}));
  const bytes newer = tens_with_first_body(B({2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 0xff, 0x01}));
  EXPECT_TRUE(decoders_agree<std::vector<Ten>>(newer));
  EXPECT_EQ(bifrons::from_bytes<std::vector<Ten>>(newer)[0], (Ten{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  // Out of a narrower field's range: 128 in an int8_t, 300 in an uint8_t.
  // The field at fault is the last one of `first`, at offset 2 (after the count and the header)
  // plus the bytes before it.
  for (const bytes& first : {B({0x80, 0x02}), B({0x00, 0xac, 0x02})}) {
    const bytes in = block_with_first_body(8, cat({first, B({0, 0, 0, 0, 0, 0, 0})}), 7);
    EXPECT_TRUE(decoders_agree<std::vector<Mixed>>(in));
    EXPECT_TRUE(fails_with<std::vector<Mixed>>(in, errc::value_out_of_range, first.size()));
  }
}

/// Two fields: a body of two bytes that the bytes of any string can spell.
struct Two {
  std::int32_t a = 0, b = 0;
  friend bool operator==(const Two&, const Two&) = default;
};

/// An array of structs after a one-byte optional's tag, in a body that may end after the tag.
struct EndsEarly {
  std::optional<std::array<Two, 1>> runs;
  friend bool operator==(const EndsEarly&, const EndsEarly&) = default;
};
struct EndsEarlyThenText {
  EndsEarly first;
  std::string text;
  friend bool operator==(const EndsEarlyThenText&, const EndsEarlyThenText&) = default;
};

// A block whose enclosing body has ended (its limit is the block's first byte, with more than 64
// bytes of input after it) has no elements to read: the scalar decoder fails at the body's end,
// and the run decoder must not take the bytes after the body for the block's elements.
TEST(VarintRun, ABlockWhereTheEnclosingBodyEndedIsNotReadPastIt) {
  // EndsEarly's body is the optional's tag alone; then a string of 100 bytes, whose count (100:
  // a header of 50 bytes, no version) and first bytes read as a Two.
  const bytes in =
      cat({varint_bytes(103 << 1), B({0x02, 0x01}), varint_bytes(100), bytes(100, static_cast<std::byte>('a'))});
  EXPECT_TRUE(decoders_agree<EndsEarlyThenText>(in));
  EXPECT_TRUE(fails_with<EndsEarlyThenText>(in, errc::unexpected_end, 4, 1));
}

// After an error the input's limit is pulled down to the cursor; a block read after it (a tuple
// reads every element) must read nothing and leave the cursor there: the run decoder took the
// bytes after the error for elements and moved the cursor past the limit, after which the
// remaining byte count wrapped and a later fixed-width block was copied from past the input.
TEST(VarintRun, ABlockAfterAnErrorReadsNothing) {
  const bytes in = cat({B({0xac, 0x02}),              // 300 in a uint8_t: value_out_of_range
                        B({0x04, 0x02, 0x04}),        // a Two the run decoder would take
                        bytes(70, std::byte{0x02})});  // more than 64 bytes after it
  using Fields = std::tuple<std::uint8_t, std::array<Two, 1>, std::array<std::uint64_t, 100>>;
  EXPECT_TRUE(decoders_agree<Fields>(in));
  EXPECT_TRUE(fails_with<Fields>(in, errc::value_out_of_range, 0));

  // The same at the level of read_runs: an input whose limit is its position reads no element,
  // failed or not, and does not move.
  for (const bool failed : {false, true}) {
    bifrons::detail::source source(in.data(), in.size(), bifrons::read_options{});
    (void)source.skip(2);
    if (failed)
      source.fail(errc::invalid_value);
    else
      (void)source.narrow(0);
    std::array<Two, 1> out{};
    EXPECT_EQ(bifrons::detail::struct_codec<Two>::read_runs(source, out.data(), out.size()), 0u);
    EXPECT_EQ(source.offset(), 2u);
    EXPECT_EQ(source.remaining(), 0u);
  }
}

/// A body of at most 63 bytes: the longest a run takes (twelve 5-byte fields and a 3-byte one).
struct SixtyThree {
  std::int32_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0, k = 0, l = 0;
  std::uint16_t m = 0;
  friend bool operator==(const SixtyThree&, const SixtyThree&) = default;
};
/// Thirteen 5-byte fields: a body that may take 65 bytes is no run.
struct SixtyFive {
  std::int32_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0, k = 0, l = 0, m = 0;
};

enum class Negative : std::int8_t { least = -128, most = 127 };
enum WideEnum : wchar_t { wide_zero };

/// The character types that travel as varints, and enums of unusual underlying types.
struct Characters {
  wchar_t a = 0;
  char16_t b = 0;
  char32_t c = 0;
  signed char d = 0;
  unsigned char e = 0;
  Negative f = Negative::most;
  WideEnum g = wide_zero;
  friend bool operator==(const Characters&, const Characters&) = default;
};
/// wchar_t travels unsigned however the host signs it: read and written as the object's bytes.
struct WideChars {
  wchar_t a = 0, b = 0, c = 0;
  friend bool operator==(const WideChars&, const WideChars&) = default;
};
struct Negatives {
  Negative a = Negative::most, b = Negative::most;
  friend bool operator==(const Negatives&, const Negatives&) = default;
};
struct OneField {
  std::uint32_t v = 0;
  friend bool operator==(const OneField&, const OneField&) = default;
};

struct WithBool {
  std::int32_t a = 0;
  bool b = false;
};
struct WithChar {
  std::int32_t a = 0;
  char b = 0;
};
struct Seventeen {
  std::int8_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, i = 0, j = 0, k = 0, l = 0, m = 0, n = 0, o = 0,
              p = 0, q = 0;
};
struct Versioned {
  static constexpr std::uint32_t bifrons_version = 2;
  std::int32_t a = 0;
};

static_assert(bifrons::detail::struct_codec<SixtyThree>::max_body == 63);
static_assert(bifrons::detail::struct_codec<SixtyThree>::varint_run_body);
static_assert(!bifrons::detail::struct_codec<SixtyFive>::varint_run_body);
static_assert(bifrons::detail::struct_codec<Characters>::varint_run_body);
static_assert(bifrons::detail::struct_codec<WideChars>::uniform_run &&
              bifrons::detail::struct_codec<Negatives>::uniform_run &&
              bifrons::detail::struct_codec<OneField>::uniform_run);
static_assert(!bifrons::detail::struct_codec<WithBool>::varint_run_body);
static_assert(!bifrons::detail::struct_codec<WithChar>::varint_run_body);
static_assert(!bifrons::detail::struct_codec<Seventeen>::varint_run_body);
static_assert(!bifrons::detail::struct_codec<Versioned>::varint_run_body);

/// n values of T with every field drawn from its type's whole range, its ends and small values.
template <class T>
std::vector<T> any_values(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> out(n);
  const auto draw = [&]<class F>(F& field) {
    using I = typename bifrons::detail::run_integer<F>::type;
    using limits = std::numeric_limits<I>;
    const std::uint64_t bits = rng();
    I v = static_cast<I>(bits >> 3);
    if (bits % 8 == 0) v = limits::min();
    if (bits % 8 == 1) v = limits::max();
    if (bits % 8 == 2) v = static_cast<I>(static_cast<int>(bits >> 8) % 200 - 100);
    field = static_cast<F>(v);
  };
  for (T& v : out)
    bifrons::detail::visit_members<bifrons::detail::member_count<T>>(v, [&](auto&... fields) { (draw(fields), ...); });
  return out;
}

template <class T>
void any_values_agree() {
  std::mt19937_64 rng(11);
  for (const std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{300}}) {
    const std::vector<T> values = any_values<T>(n, rng);
    EXPECT_TRUE(encoders_agree(values));
    const bytes in = bifrons::to_bytes(values);
    EXPECT_TRUE(reads_as(in, values));
    std::vector<T> reused = any_values<T>(n + 2, rng);
    bifrons::from_bytes(in, reused);
    EXPECT_EQ(reused, values);
  }
  every_change_agrees(any_values<T>(4, rng));
}

// The edges of what a run takes: a body of exactly 63 bytes, one field, the character types and
// enums of one byte or of wchar_t, with values of their whole ranges.
TEST(VarintRun, CharactersEnumsOneFieldAndSixtyThreeByteBodiesAgree) {
  any_values_agree<SixtyThree>();
  any_values_agree<Characters>();
  any_values_agree<WideChars>();
  any_values_agree<Negatives>();
  any_values_agree<OneField>();
  const SixtyThree longest{std::numeric_limits<std::int32_t>::min(),
                           -1 << 30,
                           -1 << 29,
                           1 << 30,
                           -1 << 30,
                           -1 << 30,
                           -1 << 30,
                           -1 << 30,
                           -1 << 30,
                           -1 << 30,
                           -1 << 30,
                           -1 << 30,
                           65535};
  const std::vector<SixtyThree> block(4, longest);
  const bytes in = bifrons::to_bytes(block);
  ASSERT_EQ(in.size(), 1 + 4 * 64u);
  EXPECT_EQ(in[1], std::byte{63 << 1});
  EXPECT_TRUE(encoders_agree(block));
  EXPECT_TRUE(decoders_agree<std::vector<SixtyThree>>(in));
}

struct Identified {
  std::int32_t a = 0;
};
}  // namespace
template <>
inline constexpr bool bifrons::enable_identity<Identified> = true;
namespace {
static_assert(!bifrons::detail::struct_codec<Identified>::varint_run_body);

/// Blocks of run structs in the positions a value can hold them.
struct Positions {
  std::vector<std::vector<OneField>> nested;
  std::optional<std::vector<Characters>> maybe;
  std::variant<std::int32_t, std::vector<Negatives>, std::array<Mixed, 2>> either;
  std::array<WideChars, 3> fixed;
  Ten plain[2];
  friend bool operator==(const Positions& x, const Positions& y) {
    return x.nested == y.nested && x.maybe == y.maybe && x.either == y.either && x.fixed == y.fixed &&
           x.plain[0] == y.plain[0] && x.plain[1] == y.plain[1];
  }
};

// Vectors of vectors, an optional's and a variant's vectors and arrays, std::array and a C array
// of structs: changed bytes and truncations read alike, and the run encoder writes the same bytes.
TEST(VarintRun, BlocksInsideOtherValuesAgree) {
  std::mt19937_64 rng(13);
  Positions value;
  value.nested = {any_values<OneField>(3, rng), {}, any_values<OneField>(2, rng)};
  value.maybe = any_values<Characters>(2, rng);
  for (const auto& either : {decltype(value.either){std::in_place_index<1>, any_values<Negatives>(4, rng)},
                             decltype(value.either){std::in_place_index<2>, std::array<Mixed, 2>{}}}) {
    value.either = either;
    const std::vector<WideChars> wide = any_values<WideChars>(3, rng);
    std::copy(wide.begin(), wide.end(), value.fixed.begin());
    const std::vector<Ten> tens = any_values<Ten>(2, rng);
    std::copy(tens.begin(), tens.end(), value.plain);
    EXPECT_TRUE(encoders_agree(value));
    EXPECT_TRUE(reads_as(bifrons::to_bytes(value), value));
    every_change_agrees(value);
  }
}

// The limits apply alike: a depth that allows the vector but not its structs, or neither, and
// element limits below and at the count.
TEST(VarintRun, LimitsApplyAsOnTheScalarPath) {
  std::mt19937_64 rng(17);
  const std::vector<std::vector<Ten>> value = {any_values<Ten>(40, rng), any_values<Ten>(3, rng)};
  const bytes in = bifrons::to_bytes(value);
  bool read = false, too_deep = false, too_many = false;
  for (const std::size_t depth : {0u, 1u, 2u, 3u}) {
    for (const std::size_t elements : {1u, 3u, 40u}) {
      bifrons::read_options options;
      options.max_depth = depth;
      options.max_elements = elements;
      const auto scalar = [&] {
        const runs_allowed off(false);
        return bifrons::try_from_bytes<std::vector<std::vector<Ten>>>(in, options);
      }();
      const auto runs = bifrons::try_from_bytes<std::vector<std::vector<Ten>>>(in, options);
      SCOPED_TRACE(::testing::Message() << "max_depth " << depth << ", max_elements " << elements);
      ASSERT_EQ(runs.has_value(), scalar.has_value());
      if (runs) {
        EXPECT_EQ(*runs, *scalar);
        read = true;
      } else {
        EXPECT_TRUE(runs.code() == scalar.code() && runs.offset() == scalar.offset());
        too_deep |= runs.code() == errc::depth_limit_exceeded;
        too_many |= runs.code() == errc::element_limit_exceeded;
      }
    }
  }
  // Every outcome occurs: the depth and the element limits are each too small somewhere.
  EXPECT_TRUE(read && too_deep && too_many);
}

}  // namespace
