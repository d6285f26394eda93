# FlatBuffers: bench_flatbuffers (GetRoot and read), bench_flatbuffers_verified
# (Verifier first) and minimal_flatbuffers. flatc generates the (header-only)
# C++ from bench/schemas/*.fbs into the build tree at build time.
find_package(FlatBuffers CONFIG QUIET)
find_program(BENCH_FLATC flatc)
if(TARGET flatbuffers::flatc)
  set(BENCH_FLATC flatbuffers::flatc)
endif()
find_path(BENCH_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h)
if(NOT BENCH_FLATBUFFERS_INCLUDE)
  bench_missing(flatbuffers "flatbuffers headers not found (libflatbuffers-dev)")
  bench_missing(flatbuffers_verified "flatbuffers headers not found (libflatbuffers-dev)")
  return()
endif()
if(NOT BENCH_FLATC)
  bench_missing(flatbuffers "flatc not found (flatbuffers-compiler)")
  bench_missing(flatbuffers_verified "flatc not found (flatbuffers-compiler)")
  return()
endif()

set(_fb_out "${CMAKE_CURRENT_BINARY_DIR}/generated/flatbuffers")
file(MAKE_DIRECTORY "${_fb_out}")
foreach(_schema bench minimal)
  add_custom_command(
    OUTPUT "${_fb_out}/${_schema}_generated.h"
    COMMAND ${BENCH_FLATC} --cpp -o "${_fb_out}" "${CMAKE_CURRENT_SOURCE_DIR}/schemas/${_schema}.fbs"
    DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/schemas/${_schema}.fbs"
    COMMENT "flatc ${_schema}.fbs"
    VERBATIM)
endforeach()
add_custom_target(bench_flatbuffers_schema DEPENDS "${_fb_out}/bench_generated.h" "${_fb_out}/minimal_generated.h")

foreach(_library flatbuffers flatbuffers_verified)
  bench_adapter(${_library} SOURCES adapters/${_library}.cpp INCLUDES "${_fb_out}" "${BENCH_FLATBUFFERS_INCLUDE}")
  add_dependencies(bench_${_library} bench_flatbuffers_schema)
endforeach()
bench_minimal(flatbuffers SOURCES minimal/flatbuffers.cpp INCLUDES "${_fb_out}" "${BENCH_FLATBUFFERS_INCLUDE}")
add_dependencies(minimal_flatbuffers bench_flatbuffers_schema)
