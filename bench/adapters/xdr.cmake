# XDR through libtirpc (Debian: libtirpc-dev), found with pkg-config. The
# imported PkgConfig target's include directory (/usr/include/tirpc) is SYSTEM.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(BENCH_TIRPC QUIET IMPORTED_TARGET libtirpc)
endif()
if(NOT TARGET PkgConfig::BENCH_TIRPC)
  bench_missing(xdr "libtirpc not found (libtirpc-dev, via pkg-config)")
  return()
endif()
bench_adapter(xdr SOURCES adapters/xdr.cpp LIBRARIES PkgConfig::BENCH_TIRPC)
# The minimal program links libtirpc.a when present (see boost_binary.cmake).
find_library(BENCH_TIRPC_STATIC NAMES libtirpc.a)
if(BENCH_TIRPC_STATIC)
  bench_minimal(xdr SOURCES minimal/xdr.cpp INCLUDES ${BENCH_TIRPC_INCLUDE_DIRS}
    LIBRARIES "${BENCH_TIRPC_STATIC}" Threads::Threads)
else()
  bench_minimal(xdr SOURCES minimal/xdr.cpp LIBRARIES PkgConfig::BENCH_TIRPC)
endif()
