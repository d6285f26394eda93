# RapidJSON (header-only; Debian: rapidjson-dev). Its CMake package only sets
# RAPIDJSON_INCLUDE_DIRS, so look for the header itself.
find_package(RapidJSON CONFIG QUIET)
find_path(BENCH_RAPIDJSON_INCLUDE_DIR rapidjson/document.h HINTS ${RAPIDJSON_INCLUDE_DIRS})
if(NOT BENCH_RAPIDJSON_INCLUDE_DIR)
  bench_missing(rapidjson "rapidjson/document.h not found")
  return()
endif()
bench_adapter(rapidjson SOURCES adapters/rapidjson.cpp INCLUDES "${BENCH_RAPIDJSON_INCLUDE_DIR}")
bench_minimal(rapidjson SOURCES minimal/rapidjson.cpp INCLUDES "${BENCH_RAPIDJSON_INCLUDE_DIR}")
