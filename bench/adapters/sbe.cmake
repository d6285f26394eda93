# SBE (Simple Binary Encoding): bench_sbe and minimal_sbe. The C++ code
# generator is real-logic's Java tool uk.co.real-logic:sbe-all, fetched from
# Maven Central with `mvn dependency:copy` at configure time into the build
# tree (never committed), then run at build time on bench/schemas/*-sbe.xml.
# The generated C++ is header-only. Without java, maven or the network the
# adapter is skipped.
set(BENCH_SBE_VERSION "1.38.1" CACHE STRING "Version of uk.co.real-logic:sbe-all used to generate the SBE adapter's code")

find_package(Java 17 QUIET COMPONENTS Runtime)
if(NOT Java_JAVA_EXECUTABLE)
  bench_missing(sbe "a Java runtime >= 17 is needed to run the SBE code generator")
  return()
endif()

set(_sbe_dir "${CMAKE_CURRENT_BINARY_DIR}/sbe")
set(_sbe_jar "${_sbe_dir}/sbe-all-${BENCH_SBE_VERSION}.jar")
if(NOT EXISTS "${_sbe_jar}")
  find_program(BENCH_MVN mvn)
  if(NOT BENCH_MVN)
    bench_missing(sbe "maven (mvn) is needed to fetch the SBE code generator sbe-all ${BENCH_SBE_VERSION}")
    return()
  endif()
  message(STATUS "bench: fetching uk.co.real-logic:sbe-all:${BENCH_SBE_VERSION} with maven")
  execute_process(
    COMMAND "${BENCH_MVN}" -q -B dependency:copy "-Dartifact=uk.co.real-logic:sbe-all:${BENCH_SBE_VERSION}"
            "-DoutputDirectory=${_sbe_dir}"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    RESULT_VARIABLE _sbe_fetch
    OUTPUT_VARIABLE _sbe_fetch_output
    ERROR_VARIABLE _sbe_fetch_output
    TIMEOUT 300)
  if(NOT _sbe_fetch EQUAL 0 OR NOT EXISTS "${_sbe_jar}")
    string(REGEX REPLACE "\n.*" "" _sbe_fetch_first_line "${_sbe_fetch_output}")
    bench_missing(sbe "could not fetch sbe-all ${BENCH_SBE_VERSION} with maven (${_sbe_fetch}: ${_sbe_fetch_first_line})")
    return()
  endif()
endif()

set(_sbe_out "${CMAKE_CURRENT_BINARY_DIR}/generated/sbe")
# _bench_sbe_generate(<schema file> <package>): the headers of one schema,
# generated into ${_sbe_out}/<package>/ and stamped.
function(_bench_sbe_generate schema package)
  set(_schema "${CMAKE_CURRENT_SOURCE_DIR}/schemas/${schema}")
  set(_stamp "${_sbe_out}/${package}.stamp")
  add_custom_command(
    OUTPUT "${_stamp}"
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${_sbe_out}/${package}"
    COMMAND "${Java_JAVA_EXECUTABLE}" "-Dsbe.output.dir=${_sbe_out}" -Dsbe.target.language=Cpp -jar "${_sbe_jar}" "${_schema}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${_stamp}"
    DEPENDS "${_schema}" "${_sbe_jar}"
    COMMENT "sbe-all ${schema}"
    VERBATIM)
  add_custom_target(${package}_codegen DEPENDS "${_stamp}")
endfunction()
file(MAKE_DIRECTORY "${_sbe_out}")
_bench_sbe_generate(bench-sbe.xml benchsbe)
_bench_sbe_generate(minimal-sbe.xml minimalsbe)

bench_adapter(sbe SOURCES adapters/sbe.cpp INCLUDES "${_sbe_out}")
add_dependencies(bench_sbe benchsbe_codegen)
bench_minimal(sbe SOURCES minimal/sbe.cpp INCLUDES "${_sbe_out}")
add_dependencies(minimal_sbe minimalsbe_codegen)
