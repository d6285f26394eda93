# Cap'n Proto: bench_capnp and minimal_capnp. `capnp compile -oc++` generates
# C++ from bench/schemas/*.capnp into the build tree at build time; generated
# code is compiled as static libraries without our warning policy (not our
# code).
#
# The minimal program has its own one-struct schema and links libcapnp and
# libkj statically, so its size is Cap'n Proto's footprint as it would be for
# a header-only library (shared libraries would hide it).
#
# Found by hand rather than with find_package(CapnProto): the Debian package's
# config checks for libatomic with check_library_exists, which needs the C
# language this C++-only project does not enable, and fails configure.
find_program(BENCH_CAPNP capnp)
find_program(BENCH_CAPNPC_CXX capnpc-c++)
find_path(BENCH_CAPNP_INCLUDE capnp/message.h)
find_library(BENCH_CAPNP_LIBRARY capnp)
find_library(BENCH_KJ_LIBRARY kj)
if(NOT BENCH_CAPNP_INCLUDE OR NOT BENCH_CAPNP_LIBRARY OR NOT BENCH_KJ_LIBRARY)
  bench_missing(capnp "Cap'n Proto headers or libraries not found (libcapnp-dev)")
  return()
endif()
if(NOT BENCH_CAPNP OR NOT BENCH_CAPNPC_CXX)
  bench_missing(capnp "the capnp compiler or its C++ plugin capnpc-c++ not found (capnproto)")
  return()
endif()

# Cap'n Proto 0.9's headers predate C++20's rewritten comparison operators:
# Clang rejects blob.h's operator== in C++20 mode (GCC accepts it; fixed in
# Cap'n Proto 0.10).
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES "${BENCH_CAPNP_INCLUDE}")
set(CMAKE_REQUIRED_FLAGS "-std=c++20")
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles("#include <capnp/message.h>\n#include <capnp/serialize.h>\nint main() { return 0; }"
                          BENCH_CAPNP_HEADERS_CXX20)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_QUIET)
if(NOT BENCH_CAPNP_HEADERS_CXX20)
  bench_missing(capnp "the installed Cap'n Proto headers do not compile as C++20 with this compiler (Cap'n Proto < 0.10 with Clang)")
  return()
endif()

set(_capnp_out "${CMAKE_CURRENT_BINARY_DIR}/generated/capnp")
file(MAKE_DIRECTORY "${_capnp_out}")

# _bench_capnp_schema(<target> <schema name> <libraries...>): static library
# of the code capnp generates from bench/schemas/<schema name>.capnp.
function(_bench_capnp_schema target schema)
  set(_schema "${CMAKE_CURRENT_SOURCE_DIR}/schemas/${schema}.capnp")
  add_custom_command(
    OUTPUT "${_capnp_out}/${schema}.capnp.c++" "${_capnp_out}/${schema}.capnp.h"
    COMMAND "${BENCH_CAPNP}" compile "-o${BENCH_CAPNPC_CXX}:${_capnp_out}"
            "--src-prefix=${CMAKE_CURRENT_SOURCE_DIR}/schemas" -I "${BENCH_CAPNP_INCLUDE}" "${_schema}"
    DEPENDS "${_schema}"
    COMMENT "capnp compile ${schema}.capnp"
    VERBATIM)
  set_source_files_properties("${_capnp_out}/${schema}.capnp.c++" PROPERTIES LANGUAGE CXX)
  add_library(${target} STATIC "${_capnp_out}/${schema}.capnp.c++")
  target_include_directories(${target} SYSTEM PUBLIC "${_capnp_out}" "${BENCH_CAPNP_INCLUDE}")
  target_link_libraries(${target} PUBLIC ${ARGN})
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF LINKER_LANGUAGE CXX)
endfunction()

_bench_capnp_schema(bench_capnp_schema bench "${BENCH_CAPNP_LIBRARY}" "${BENCH_KJ_LIBRARY}" Threads::Threads)
bench_adapter(capnp SOURCES adapters/capnp.cpp LIBRARIES bench_capnp_schema INCLUDES "${_capnp_out}")

find_library(_capnp_static NAMES libcapnp.a)
find_library(_kj_static NAMES libkj.a)
if(_capnp_static AND _kj_static)
  _bench_capnp_schema(minimal_capnp_schema minimal "${_capnp_static}" "${_kj_static}" Threads::Threads)
else()
  _bench_capnp_schema(minimal_capnp_schema minimal "${BENCH_CAPNP_LIBRARY}" "${BENCH_KJ_LIBRARY}" Threads::Threads)
endif()
bench_minimal(capnp SOURCES minimal/capnp.cpp LIBRARIES minimal_capnp_schema INCLUDES "${_capnp_out}")
