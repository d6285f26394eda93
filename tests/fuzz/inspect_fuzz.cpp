// Fuzz harness: bifrons-inspect's schema loader and decoder (tools/lib), on hostile schemas as
// well as hostile data, and bifrons-compat's checker on the schemas that load.
//
// An input is a schema document (JSON text), a NUL byte, then the data; an input without a NUL
// is a schema alone. The seeds (corpus/inspect) are the golden schemas with their golden files,
// and hostile schemas of the security review (widths that wrapped, defaults that doubled at
// every level, records of stride 0).
//
// Properties, besides no crash, no leak and no sanitizer report (each failure aborts: a crash
// for libFuzzer):
//   - load_schema_text throws only schema_error or json_error; the decoder only schema_error
//     (a field default that does not decode);
//   - a failed decode has an error code and an offset within the data; a successful one read
//     the whole data (no allow_trailing);
//   - under a budget of `budget` bytes (decode_options::max_alloc_bytes), the memory the decode
//     holds at its peak (the value, annotations, key sets, object tables, nested decoders of
//     defaults), and the printed value and annotations, stay within a constant times the
//     budget: the budget bounds memory and output whatever the schema, not only the data;
//   - the checker finds nothing breaking or silent between a schema and itself, and its work
//     (comparisons) stays within a polynomial of the schema's size.

#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "lib/checker.hpp"
#include "lib/decoder.hpp"
#include "lib/schema_model.hpp"

namespace {

using namespace bifrons::tools;

/// Small, so that the fuzzer reaches it often (a count of empty elements asks for it all).
constexpr std::uint64_t budget = 64 << 10;

[[noreturn]] void fail(const char* property, const std::string& detail = {}) {
  std::fprintf(stderr, "inspect_fuzz: property failed: %s%s%s\n", property, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

// ---- memory held while decoding (the sanitizer's malloc and free hooks) ----------------------------

struct allocations {
  bool on = false;
  std::int64_t live = 0;
  std::int64_t peak = 0;
};

allocations tracked;

void on_malloc(const volatile void*, std::size_t size) {
  if (!tracked.on) return;
  tracked.live += static_cast<std::int64_t>(size);
  tracked.peak = std::max(tracked.peak, tracked.live);
}

void on_free(const volatile void* p) {
  // Blocks allocated before the decode lower `live` too: the peak is never overestimated.
  if (!tracked.on || p == nullptr || !__sanitizer_get_ownership(p)) return;
  tracked.live -= static_cast<std::int64_t>(__sanitizer_get_allocated_size(p));
}

/// Decodes, checks the outcome, and returns the bytes of output it gives (the printed value, or
/// the annotations' text).
std::uint64_t decode_checked(const schema& s, std::span<const std::byte> data, bool annotate) {
  decode_options options;
  options.max_alloc_bytes = budget;
  options.annotate = annotate;
  options.unknown_types_null = annotate;  // both policies for objects of unknown classes
  tracked = allocations{};
  tracked.on = true;
  decode_result r;
  std::uint64_t output = 0;
  try {
    r = decode(s, data, options);
    if (r.ok && !annotate) output = to_text(r.value, 2).size();
  } catch (const schema_error&) {
    tracked.on = false;
    return 0;  // a field default that does not decode: the schema's fault, reported as such
  }
  tracked.on = false;
  for (const annotation& a : r.annotations) output += a.path.size() + a.text.size() + 40 + 5 * a.length;
  if (r.ok && r.end != data.size()) fail("a successful decode did not read the whole data");
  if (!r.ok && (r.code == bifrons::errc::ok || r.offset > data.size()))
    fail("a failure without a code, or at an offset beyond the data", std::string(errc_name(r.code)));
  // The charges are estimates of what the decoder holds (JSON nodes, strings, printed text): a
  // constant factor of slack, and a little for what no charge covers (the path being read, a
  // decoder's fixed parts).
  const auto peak = static_cast<std::uint64_t>(std::max<std::int64_t>(tracked.peak, 0));
  if (peak > 2 * budget + (32 << 10)) fail("a decode held more than twice its budget", std::to_string(peak) + " bytes");
  if (output > 2 * budget) fail("a decode printed more than twice its budget", std::to_string(output) + " bytes");
  return output;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) == 0) {
    std::fprintf(stderr, "inspect_fuzz: cannot install the malloc hooks\n");
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* input, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(input), size);
  const std::size_t split = std::min(in.find('\0'), in.size());
  const std::string_view text = in.substr(0, split);
  const std::span<const std::byte> data(reinterpret_cast<const std::byte*>(input) + std::min(split + 1, size),
                                        size - std::min(split + 1, size));
  schema s;
  try {
    s = load_schema_text(text);
  } catch (const schema_error&) {
    return 0;
  } catch (const json_error&) {
    return 0;
  }
  decode_checked(s, data, false);
  decode_checked(s, data, true);

  // The checker on the schema against itself.
  std::uint64_t comparisons = 0;
  check_options options;
  options.comparisons = &comparisons;
  try {
    const std::vector<finding> findings = check(s, s, options);
    if (worst(findings) != verdict::compatible)
      fail("a schema is not compatible with itself", findings.front().path + ": " + findings.front().rule);
  } catch (const schema_error&) {
    // Named types nested beyond the checker's limit.
  }
  const std::uint64_t n = text.size() + 1;
  if (comparisons > 16 * n * n) fail("the checker's work grew faster than the square of the schema's size");
  return 0;
}
