# cereal binary archive (header-only; Debian: libcereal-dev). The imported
# target's include directory is SYSTEM already.
find_package(cereal CONFIG QUIET)
if(NOT TARGET cereal::cereal)
  bench_missing(cereal_binary "cereal not found (libcereal-dev)")
  return()
endif()
bench_adapter(cereal_binary SOURCES adapters/cereal_binary.cpp LIBRARIES cereal::cereal)
bench_minimal(cereal_binary SOURCES minimal/cereal_binary.cpp LIBRARIES cereal::cereal)
