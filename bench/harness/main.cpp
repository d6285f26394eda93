// The benchmark executables' entry point (one executable per library).
//
//   bench_<library> --check [--check-out=FILE]   round-trip every case, print
//                                                 the results, write them as
//                                                 JSON; exit 1 on a failure
//   bench_<library> [Google Benchmark flags]      run the benchmarks
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>

#include "harness.hpp"

namespace bench {

std::vector<adapter_registrar>& adapter_registrars() {
  static std::vector<adapter_registrar> registrars;
  return registrars;
}

std::vector<check_result>& check_results() {
  static std::vector<check_result> results;
  return results;
}

namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

int run_checks(const std::string& out_path) {
  int failures = 0;
  std::string json = "[\n";
  bool first = true;
  for (const check_result& r : check_results()) {
    const char* status = !r.supported ? "unsupported" : r.ok ? "ok" : "FAIL";
    if (r.supported && !r.ok) ++failures;
    if (r.supported) {
      std::printf("%-12s %-28s %-48s %8zu B %s\n", status, r.library.c_str(), r.case_name.c_str(), r.bytes,
                  r.message.c_str());
    }
    json += std::string(first ? "" : ",\n") + "  {\"library\": " + json_string(r.library) +
            ", \"case\": " + json_string(r.case_name) + ", \"status\": " + json_string(status) +
            ", \"bytes\": " + std::to_string(r.bytes) + ", \"message\": " + json_string(r.message) + "}";
    first = false;
  }
  json += "\n]\n";
  if (!out_path.empty()) {
    std::ofstream(out_path) << json;
  }
  std::printf("round trips: %d failed\n", failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  for (const bench::adapter_registrar registrar : bench::adapter_registrars()) registrar();
  bool check = false;
  std::string check_out;
  for (int k = 1; k < argc; ++k) {
    const std::string_view arg = argv[k];
    if (arg == "--check") check = true;
    if (arg.starts_with("--check-out=")) check_out = std::string(arg.substr(12));
  }
  if (check) return bench::run_checks(check_out);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
