# msgpack-c C++ (header-only; Debian: libmsgpack-cxx-dev). Its CMake package
# drags in Boost::boost, which the adapter does not use (MSGPACK_NO_BOOST), so
# only the header is looked up; INCLUDES makes it SYSTEM.
find_path(BENCH_MSGPACK_INCLUDE_DIR msgpack.hpp)
if(NOT BENCH_MSGPACK_INCLUDE_DIR OR NOT EXISTS "${BENCH_MSGPACK_INCLUDE_DIR}/msgpack/v3/unpack_decl.hpp")
  bench_missing(msgpack "msgpack-c C++ >= 2 not found (libmsgpack-cxx-dev)")
  return()
endif()
bench_adapter(msgpack SOURCES adapters/msgpack.cpp INCLUDES "${BENCH_MSGPACK_INCLUDE_DIR}")
bench_minimal(msgpack SOURCES minimal/msgpack.cpp INCLUDES "${BENCH_MSGPACK_INCLUDE_DIR}")
