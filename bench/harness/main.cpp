// The benchmark executables' entry point (one executable per library).
//
//   bench_<library> --check [--check-out=FILE]   round-trip every case, print
//                                                 the results, write them as
//                                                 JSON; exit 1 on a failure
//   bench_<library> --instructions=CASE[,CASE...] [--instruction-iterations=N]
//                                                 run each case's operations in the
//                                                 windows callgrind counts (harness.hpp,
//                                                 "Instruction counts"; N defaults to
//                                                 1000); exit 1 if a case is unknown or
//                                                 fails its round trip
//   bench_<library> [Google Benchmark flags]      run the benchmarks
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "harness.hpp"

namespace bench {

std::vector<adapter_registrar>& adapter_registrars() {
  static std::vector<adapter_registrar> registrars;
  return registrars;
}

instruction_request& instruction_mode() {
  static instruction_request request;
  return request;
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

// Parses --instructions' values into instruction_mode(); false (with a message) if they are not
// a list of cases and a positive count.
bool parse_instruction_request(std::string_view cases, std::string_view iterations) {
  instruction_request& request = instruction_mode();
  while (!cases.empty()) {
    const std::size_t comma = std::min(cases.find(','), cases.size());
    const std::string_view name = cases.substr(0, comma);
    if (!name.empty() && std::find(request.cases.begin(), request.cases.end(), name) == request.cases.end()) {
      request.cases.emplace_back(name);
    }
    cases.remove_prefix(std::min(comma + 1, cases.size()));
  }
  char* end = nullptr;
  const std::string count(iterations);
  const unsigned long long n = std::strtoull(count.c_str(), &end, 10);
  if (request.cases.empty() || end == count.c_str() || *end != '\0' || n == 0 || n > 100'000'000) {
    std::fprintf(stderr, "--instructions wants a list of cases, --instruction-iterations a count from 1 to 1e8\n");
    return false;
  }
  request.iterations = static_cast<std::size_t>(n);
  request.seen.assign(request.cases.size(), false);
  return true;
}

// The requested cases' windows, after one of an empty operation: what the window itself costs per
// operation (the call through a function pointer and the loop), which the report subtracts.
int run_instructions() {
  measure_instructions("calibration", "-", "empty", [] {});
  for (const adapter_registrar registrar : adapter_registrars()) registrar();
  const instruction_request& request = instruction_mode();
  bool unknown = false;
  for (std::size_t k = 0; k < request.cases.size(); ++k) {
    if (!request.seen[k]) {
      std::fprintf(stderr, "--instructions: no case named %s\n", request.cases[k].c_str());
      unknown = true;
    }
  }
  return unknown || request.failed ? 1 : 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bool check = false;
  std::string check_out;
  std::string_view instruction_cases, instruction_iterations = "1000";
  for (int k = 1; k < argc; ++k) {
    const std::string_view arg = argv[k];
    if (arg == "--check") check = true;
    if (arg.starts_with("--check-out=")) check_out = std::string(arg.substr(12));
    if (arg.starts_with("--instructions=")) instruction_cases = arg.substr(15);
    if (arg.starts_with("--instruction-iterations=")) instruction_iterations = arg.substr(25);
  }
  if (!instruction_cases.empty()) {
    return bench::parse_instruction_request(instruction_cases, instruction_iterations) ? bench::run_instructions() : 2;
  }
  for (const bench::adapter_registrar registrar : bench::adapter_registrars()) registrar();
  if (check) return bench::run_checks(check_out);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
