# nlohmann/json (header-only; Debian: nlohmann-json3-dev).
find_package(nlohmann_json 3 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
  bench_missing(nlohmann "nlohmann_json (CMake package) not found")
  return()
endif()
# The imported target's include directory is a SYSTEM include.
bench_adapter(nlohmann SOURCES adapters/nlohmann.cpp LIBRARIES nlohmann_json::nlohmann_json)
bench_minimal(nlohmann SOURCES minimal/nlohmann.cpp LIBRARIES nlohmann_json::nlohmann_json)
