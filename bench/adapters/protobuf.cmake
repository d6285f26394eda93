# Protocol Buffers: bench_protobuf and minimal_protobuf. protoc generates C++
# from bench/schemas/*.proto into the build tree at build time; generated code
# is compiled as static libraries without our warning policy (not our code).
#
# The minimal program has its own one-message schema and links libprotobuf
# statically, so its size is protobuf's footprint as it would be for a
# header-only library (a shared libprotobuf would hide it).
find_package(Protobuf QUIET)
if(NOT Protobuf_FOUND OR NOT TARGET protobuf::libprotobuf)
  bench_missing(protobuf "libprotobuf-dev not found")
  return()
endif()
if(NOT Protobuf_PROTOC_EXECUTABLE)
  bench_missing(protobuf "protoc not found (protobuf-compiler)")
  return()
endif()

set(_pb_out "${CMAKE_CURRENT_BINARY_DIR}/generated/protobuf")
file(MAKE_DIRECTORY "${_pb_out}")

# _bench_protobuf_schema(<target> <schema name>): static library of the code
# protoc generates from bench/schemas/<schema name>.proto.
function(_bench_protobuf_schema target schema)
  set(_schema "${CMAKE_CURRENT_SOURCE_DIR}/schemas/${schema}.proto")
  add_custom_command(
    OUTPUT "${_pb_out}/${schema}.pb.cc" "${_pb_out}/${schema}.pb.h"
    COMMAND "${Protobuf_PROTOC_EXECUTABLE}" "--cpp_out=${_pb_out}" -I "${CMAKE_CURRENT_SOURCE_DIR}/schemas" "${_schema}"
    DEPENDS "${_schema}"
    COMMENT "protoc ${schema}.proto"
    VERBATIM)
  add_library(${target} STATIC "${_pb_out}/${schema}.pb.cc")
  target_include_directories(${target} SYSTEM PUBLIC "${_pb_out}")
  target_link_libraries(${target} PUBLIC ${ARGN})
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
endfunction()

_bench_protobuf_schema(bench_protobuf_schema bench protobuf::libprotobuf)
bench_adapter(protobuf SOURCES adapters/protobuf.cpp LIBRARIES bench_protobuf_schema INCLUDES "${_pb_out}")

find_library(_pb_static NAMES libprotobuf.a)
if(_pb_static)
  _bench_protobuf_schema(minimal_protobuf_schema minimal "${_pb_static}" Threads::Threads)
else()
  _bench_protobuf_schema(minimal_protobuf_schema minimal protobuf::libprotobuf)
endif()
bench_minimal(protobuf SOURCES minimal/protobuf.cpp LIBRARIES minimal_protobuf_schema INCLUDES "${_pb_out}")
