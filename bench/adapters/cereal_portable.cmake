# cereal portable archive (header-only; Debian: libcereal-dev). The imported
# target's include directory is SYSTEM already.
find_package(cereal CONFIG QUIET)
if(NOT TARGET cereal::cereal)
  bench_missing(cereal_portable "cereal not found (libcereal-dev)")
  return()
endif()
bench_adapter(cereal_portable SOURCES adapters/cereal_portable.cpp LIBRARIES cereal::cereal)
bench_minimal(cereal_portable SOURCES minimal/cereal_portable.cpp LIBRARIES cereal::cereal)
