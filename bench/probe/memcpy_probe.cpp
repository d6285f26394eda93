// memcpy_probe: times the C library's memcpy at a few mid-size block sizes,
// for the "rep movsb trap" (scripts/bench runs it twice: as is, and with
// GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=<huge>, which keeps glibc's
// x86 memcpy from using `rep movsb`). On some virtual machines `rep movsb` is
// many times slower than the vector loop glibc uses otherwise when the
// destination is not 32-byte aligned relative to the source, which is what a
// decode into a freshly malloc'ed (16-byte aligned) vector meets.
//
//   memcpy_probe [--out FILE] [--budget-ms N]
//
// For each size and each destination offset (the source is page aligned; the
// destination page aligned plus 0 or 16 bytes) it copies the same block
// repeatedly in batches of about 2 ms and keeps the fastest batch's time per
// copy. It writes one JSON object (to FILE, or stdout):
//   {"glibc_tunables": "...", "results": [{"bytes": 4096, "dst_offset": 16, "ns": 51.2}, ...]}
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <string_view>

namespace {

// Through a volatile pointer, so that the compiler calls the C library's
// memcpy and cannot inline, merge or drop the copies.
void* (*volatile copy_fn)(void*, const void*, std::size_t) = std::memcpy;

double time_per_copy_ns(std::byte* dst, const std::byte* src, std::size_t bytes, double budget_ns) {
  using clock = std::chrono::steady_clock;
  // Calibrate: how many copies fill about 2 ms.
  std::size_t batch = 1;
  for (;;) {
    const auto t0 = clock::now();
    for (std::size_t k = 0; k < batch; ++k) copy_fn(dst, src, bytes);
    const double ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count();
    if (ns >= 2e6 || batch >= (std::size_t{1} << 24)) break;
    batch = ns <= 0 ? batch * 16 : std::max(batch + 1, static_cast<std::size_t>(batch * 2e6 / ns));
  }
  double best = 1e300, spent = 0;
  for (int round = 0; round < 25 && (round < 5 || spent < budget_ns); ++round) {
    const auto t0 = clock::now();
    for (std::size_t k = 0; k < batch; ++k) copy_fn(dst, src, bytes);
    const double ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count();
    spent += ns;
    best = std::min(best, ns / static_cast<double>(batch));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  double budget_ms = 10;  // per size and offset, after calibration
  for (int k = 1; k < argc; ++k) {
    const std::string_view arg = argv[k];
    if (arg == "--out" && k + 1 < argc) {
      out_path = argv[++k];
    } else if (arg == "--budget-ms" && k + 1 < argc) {
      budget_ms = std::atof(argv[++k]);
    } else {
      std::fprintf(stderr, "usage: memcpy_probe [--out FILE] [--budget-ms N]\n");
      return 2;
    }
  }

  constexpr std::size_t sizes[] = {4096, 16384, 65536, 262144};
  constexpr std::size_t offsets[] = {0, 16};
  constexpr std::size_t page = 4096;
  constexpr std::size_t capacity = 262144 + page;
  auto* src = static_cast<std::byte*>(::operator new(capacity, std::align_val_t{page}));
  auto* dst = static_cast<std::byte*>(::operator new(capacity, std::align_val_t{page}));
  for (std::size_t k = 0; k < capacity; ++k) {
    src[k] = static_cast<std::byte>(k * 131);
    dst[k] = std::byte{0};
  }

  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string json = "{\"glibc_tunables\": \"";
  for (const char* c = tunables ? tunables : ""; *c; ++c) {
    if (*c == '"' || *c == '\\') json += '\\';
    if (static_cast<unsigned char>(*c) >= 0x20) json += *c;
  }
  json += "\", \"results\": [";
  bool first = true;
  for (const std::size_t bytes : sizes) {
    for (const std::size_t offset : offsets) {
      const double ns = time_per_copy_ns(dst + offset, src, bytes, budget_ms * 1e6);
      if (std::memcmp(dst + offset, src, bytes) != 0) {
        std::fprintf(stderr, "memcpy_probe: the copy differs from its source\n");
        return 1;
      }
      char line[160];
      std::snprintf(line, sizeof line, "%s\n  {\"bytes\": %zu, \"dst_offset\": %zu, \"ns\": %.1f}", first ? "" : ",",
                    bytes, offset, ns);
      json += line;
      first = false;
    }
  }
  json += "\n]}\n";
  ::operator delete(src, std::align_val_t{page});
  ::operator delete(dst, std::align_val_t{page});

  if (out_path.empty()) {
    std::fputs(json.c_str(), stdout);
  } else if (!(std::ofstream(out_path) << json)) {
    std::fprintf(stderr, "memcpy_probe: cannot write %s\n", out_path.c_str());
    return 1;
  }
  return 0;
}
