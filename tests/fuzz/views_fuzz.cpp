// Fuzz harness: zero-copy views (bifrons/types/views.hpp): std::basic_string_view and
// std::span<const T> of arithmetic types and of records, alone and inside tuples, vectors, maps,
// optionals and structs. Each view type is paired with the owning type that has the same bytes
// (string_view with string, span<const T> with vector<T>), and the input is read at every
// alignment from 0 to 7 bytes past a 64-byte boundary.
//
// Properties, for each pair and alignment:
//   - the view read succeeds only if the owning read does (or ran out of budget, below), and
//     then it encodes to the same bytes, and every view points inside the input;
//   - where the owning read succeeds and the view read fails, the error is misaligned_view; types
//     whose views are all of one-byte elements never fail with it;
//   - where the owning read fails, the view read fails with the same code and offset, or earlier
//     with misaligned_view; except where the owning read ran out of budget (allocation_limit_exceeded):
//     a view allocates nothing for its elements, so its read may go on;
//   - bifrons::block_view<T> is never misaligned: it succeeds exactly where its owning twin does
//     (or that ran out of budget), with the same error and offset where both fail, and each of its
//     elements, read through its iterators and through for_each, equals the owning twin's;
//   - the properties of check_reads (fuzz_support.hpp): from_bytes agrees, tight limits fail
//     cleanly or agree, reading into existing views agrees; and the encoding's checks.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "../golden_cases.hpp"
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

namespace {

using fuzz::bytes;
using fuzz::context;
using fuzz::input;

// ---- the view types and their owning twins ------------------------------------------------------

struct Msg {
  std::string_view name;
  std::span<const std::uint16_t> data;
  std::span<const golden::RecPoint> points;
  std::span<const fuzz::Pixel> pixels;
  std::int32_t tail = 0;
};

struct MsgOwned {
  std::string name;
  std::vector<std::uint16_t> data;
  std::vector<golden::RecPoint> points;
  std::vector<fuzz::Pixel> pixels;
  std::int32_t tail = 0;
};

/// Whether every view in v points inside [lo, hi).
template <class C>
bool inside(std::basic_string_view<C> v, const std::byte* lo, const std::byte* hi) {
  if (v.empty()) return true;
  const auto* p = reinterpret_cast<const std::byte*>(v.data());
  return p >= lo && p + v.size() * sizeof(C) <= hi;
}
template <class T>
bool inside(std::span<const T> v, const std::byte* lo, const std::byte* hi) {
  if (v.empty()) return true;
  const auto* p = reinterpret_cast<const std::byte*>(v.data());
  return p >= lo && p + v.size_bytes() <= hi;
}
template <class T>
bool inside(const bifrons::block_view<T>& v, const std::byte* lo, const std::byte* hi) {
  const std::span<const std::byte> b = v.bytes();
  return b.empty() || (b.data() >= lo && b.data() + b.size() <= hi);
}
template <class T>
bool inside(const std::optional<T>& v, const std::byte* lo, const std::byte* hi) {
  return !v || inside(*v, lo, hi);
}
template <class T>
bool inside(const std::vector<T>& v, const std::byte* lo, const std::byte* hi) {
  for (const auto& e : v)
    if (!inside(e, lo, hi)) return false;
  return true;
}
template <class K, class V>
bool inside(const std::map<K, V>& m, const std::byte* lo, const std::byte* hi) {
  for (const auto& [k, v] : m)
    if (!inside(v, lo, hi)) return false;
  return true;
}
template <class... T>
bool inside(const std::tuple<T...>& t, const std::byte* lo, const std::byte* hi) {
  return std::apply([&](const auto&... e) { return (inside(e, lo, hi) && ...); }, t);
}
bool inside(const Msg& m, const std::byte* lo, const std::byte* hi) {
  return inside(m.name, lo, hi) && inside(m.data, lo, hi) && inside(m.points, lo, hi) && inside(m.pixels, lo, hi);
}

/// A view type V, its owning twin O, and whether all its views are of one-byte elements.
template <class V, class O, bool OneByte>
struct view_pair {
  using type = V;
  using owned = O;
  static constexpr bool one_byte = OneByte;
};

struct string_view : view_pair<std::string_view, std::string, true> {
  static constexpr const char* name = "string_view";
  static std::vector<type> samples() { return {"sample", ""}; }
};

/// Sample data the views of the samples point to (reads into existing views overwrite them).
alignas(16) const std::int32_t sample_ints[] = {1, -2, 3};
alignas(16) const double sample_doubles[] = {0.5, -1e300};
alignas(16) const std::uint16_t sample_shorts[] = {7, 65535};
alignas(16) const std::uint8_t sample_bytes[] = {1, 2, 3, 4};
alignas(16) const golden::RecPoint sample_points[] = {{1, -1}, {2, -2}};
alignas(16) const fuzz::Pixel sample_pixels[] = {{1, 2, 3, 4}};
alignas(16) const golden::RecTen sample_tens[] = {{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}};
alignas(16) const float sample_floats[] = {0.25f};
alignas(16) const std::int64_t sample_longs[] = {-1, 1LL << 40};
alignas(16) const char16_t sample_u16[] = {u'a', u'b'};

struct strings : view_pair<std::tuple<std::string_view, std::u16string_view, std::u32string_view, std::u8string_view>,
                           std::tuple<std::string, std::u16string, std::u32string, std::u8string>, false> {
  static constexpr const char* name = "string_views";
  static std::vector<type> samples() { return {{"a", u"\u00E9", U"\U0001F600", u8"x"}, {}}; }
};

struct spans
    : view_pair<std::tuple<std::span<const std::int32_t>, std::span<const double>, std::span<const std::uint16_t>,
                           std::span<const std::uint8_t>, std::span<const float>,
                           std::optional<std::span<const std::int64_t>>, std::span<const std::byte>,
                           std::span<const char16_t>>,
                std::tuple<std::vector<std::int32_t>, std::vector<double>, std::vector<std::uint16_t>,
                           std::vector<std::uint8_t>, std::vector<float>, std::optional<std::vector<std::int64_t>>,
                           std::vector<std::byte>, std::vector<char16_t>>,
                false> {
  static constexpr const char* name = "spans";
  static std::vector<type> samples() {
    return {{sample_ints, sample_doubles, sample_shorts, sample_bytes, sample_floats,
             std::span<const std::int64_t>(sample_longs), std::span<const std::byte>(), sample_u16},
            {}};
  }
};

struct record_spans
    : view_pair<
          std::tuple<std::span<const golden::RecPoint>, std::span<const fuzz::Pixel>, std::span<const golden::RecTen>>,
          std::tuple<std::vector<golden::RecPoint>, std::vector<fuzz::Pixel>, std::vector<golden::RecTen>>, false> {
  static constexpr const char* name = "record_spans";
  static std::vector<type> samples() { return {{sample_points, sample_pixels, sample_tens}, {}}; }
};

struct containers : view_pair<std::tuple<std::vector<std::string_view>, std::map<std::int32_t, std::string_view>,
                                         std::optional<std::string_view>, std::vector<std::span<const std::uint8_t>>>,
                              std::tuple<std::vector<std::string>, std::map<std::int32_t, std::string>,
                                         std::optional<std::string>, std::vector<std::vector<std::uint8_t>>>,
                              true> {
  static constexpr const char* name = "view_containers";
  static std::vector<type> samples() {
    return {{{"a", "", "bc"}, {{1, "one"}, {-1, "minus"}}, "opt", {sample_bytes, {}}}, {}};
  }
};

/// The encoding the samples of block_views are read from (static: the views point into it).
const bytes& block_view_sample_bytes() {
  static const bytes b = bifrons::to_bytes(
      std::tuple<std::vector<std::int32_t>, std::vector<double>, std::vector<std::uint8_t>,
                 std::optional<std::vector<std::int64_t>>, std::vector<golden::RecPoint>, std::vector<golden::RecTen>>{
          {1, -2, 3},
          {0.5, -1e300},
          {1, 2},
          std::vector<std::int64_t>{-1, 1LL << 40},
          {{1, -1}, {2, -2}},
          {golden::RecTen{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}}});
  return b;
}
struct block_views
    : view_pair<std::tuple<bifrons::block_view<std::int32_t>, bifrons::block_view<double>,
                           bifrons::block_view<std::uint8_t>, std::optional<bifrons::block_view<std::int64_t>>,
                           bifrons::block_view<golden::RecPoint>, bifrons::block_view<golden::RecTen>>,
                std::tuple<std::vector<std::int32_t>, std::vector<double>, std::vector<std::uint8_t>,
                           std::optional<std::vector<std::int64_t>>, std::vector<golden::RecPoint>,
                           std::vector<golden::RecTen>>,
                false> {
  static constexpr const char* name = "block_views";
  static constexpr bool never_misaligned = true;
  static std::vector<type> samples() { return {bifrons::from_bytes<type>(block_view_sample_bytes()), {}}; }
};

/// Whether each element of every block_view equals the owning twin's (block_views only), read
/// through its iterators and through for_each.
template <class T>
bool same_elements(const bifrons::block_view<T>& v, const std::vector<T>& o) {
  // Bit for bit: a NaN is not equal to itself. (The elements here have no padding.)
  const auto same = [](const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; };
  std::vector<T> each;
  v.for_each([&](const T& e) { each.push_back(e); });
  return std::ranges::equal(v, o, same) && std::ranges::equal(each, o, same);
}
template <class T>
bool same_elements(const std::optional<bifrons::block_view<T>>& v, const std::optional<std::vector<T>>& o) {
  return v.has_value() == o.has_value() && (!v || same_elements(*v, *o));
}
template <class... V, class... O>
bool same_elements(const std::tuple<V...>& v, const std::tuple<O...>& o) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (same_elements(std::get<I>(v), std::get<I>(o)) && ...);
  }(std::index_sequence_for<V...>{});
}

struct message : view_pair<Msg, MsgOwned, false> {
  static constexpr const char* name = "Msg";
  static std::vector<type> samples() { return {{"msg", sample_shorts, sample_points, sample_pixels, -5}, {}}; }
};

// ---- the properties -------------------------------------------------------------------------------

/// An input copy at `shift` bytes past a 64-byte boundary.
class shifted {
 public:
  shifted(input in, std::size_t shift) : storage_(in.size() + 128) {
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
    const std::size_t pad = (64 - address % 64) % 64 + shift;
    if (!in.empty()) std::memcpy(storage_.data() + pad, in.data(), in.size());
    view_ = input(storage_.data() + pad, in.size());
  }
  input bytes() const { return view_; }

 private:
  std::vector<std::byte> storage_;
  input view_;
};

template <class Pair>
void check_pair(input original, std::size_t shift) {
  using V = typename Pair::type;
  using O = typename Pair::owned;
  const shifted copy(original, shift);
  const input in = copy.bytes();
  const context ctx{Pair::name, original};
  const std::byte* lo = in.data();
  const std::byte* hi = in.data() + in.size();

  const bifrons::result<V> rv = fuzz::bounded_read<V>(ctx, in, fuzz::reference_limits);
  const bifrons::result<O> ro = fuzz::bounded_read<O>(ctx, in, fuzz::reference_limits);
  fuzz::check_reads<Pair>(ctx, in, rv);

  // A view allocates nothing where its owning twin allocates its elements: the owning read may
  // run out of budget where the view read goes on.
  const bool owned_over_budget = !ro && ro.code() == bifrons::errc::allocation_limit_exceeded;
  if (rv) {
    ctx.check(ro.has_value() || owned_over_budget, "the view read succeeded but the owning read failed");
    ctx.check(inside(*rv, lo, hi), "a view points outside the input");
    const bytes e = fuzz::encode(ctx, *rv);
    if (ro) ctx.check(e == bifrons::to_bytes(*ro), "the view and the owning value encode differently");
    // The encoding reads back as the owning type, to the same bytes.
    const bifrons::result<O> again = bifrons::try_from_bytes<O>(e, fuzz::reference_limits);
    ctx.check((again.has_value() && bifrons::to_bytes(*again) == e) || owned_over_budget,
              "the view's encoding does not read back");
  } else if (ro) {
    ctx.check(rv.code() == bifrons::errc::misaligned_view,
              "the owning read succeeded, the view read failed with another error than misaligned_view");
  } else if (!owned_over_budget) {
    const bool same_error = rv.code() == ro.code() && rv.offset() == ro.offset();
    const bool earlier_misaligned = rv.code() == bifrons::errc::misaligned_view && rv.offset() <= ro.offset();
    ctx.check(same_error || earlier_misaligned,
              "both reads failed, the view's error is neither the owning read's nor an earlier misaligned_view");
  }
  if constexpr (Pair::one_byte)
    ctx.check(rv.code() != bifrons::errc::misaligned_view, "misaligned_view for views of one-byte elements");
  if constexpr (requires { Pair::never_misaligned; }) {
    if (!owned_over_budget) {
      ctx.check(rv.has_value() == ro.has_value(), "block_view: read where its owning twin failed, or the reverse");
      if (!rv && !ro)
        ctx.check(rv.code() == ro.code() && rv.offset() == ro.offset(),
                  "block_view: another error or offset than its owning twin's");
    }
    if (rv && ro) ctx.check(same_elements(*rv, *ro), "block_view: an element differs from its owning twin's");
  }
}

template <class... Pairs>
void check_pairs(input in) {
  for (std::size_t shift = 0; shift < 8; ++shift) (check_pair<Pairs>(in, shift), ...);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::initialize<string_view, strings, spans, record_spans, block_views, containers, message>();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check_pairs<string_view, strings, spans, record_spans, block_views, containers, message>(
      input(reinterpret_cast<const std::byte*>(data), size));
  return 0;
}
