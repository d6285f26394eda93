# simdjson (Debian: libsimdjson-dev). Parse only: its adapter sets
# encode_timed = false and writes the test input by hand.
find_package(simdjson CONFIG QUIET)
if(TARGET simdjson::simdjson)
  set(_bench_simdjson simdjson::simdjson)
else()
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(BENCH_SIMDJSON QUIET IMPORTED_TARGET simdjson)
  endif()
  if(NOT BENCH_SIMDJSON_FOUND)
    bench_missing(simdjson "simdjson not found (neither its CMake package nor pkg-config)")
    return()
  endif()
  set(_bench_simdjson PkgConfig::BENCH_SIMDJSON)
endif()
# Imported targets' include directories are SYSTEM includes.
bench_adapter(simdjson SOURCES adapters/simdjson.cpp LIBRARIES ${_bench_simdjson})
bench_minimal(simdjson SOURCES minimal/simdjson.cpp LIBRARIES ${_bench_simdjson})
