# One bounded libFuzzer run: the ctest test fuzz.<NAME> (tests/fuzz/CMakeLists.txt).
#
#   cmake -DHARNESS=<exe> -DNAME=<name> -DCORPUS=<committed corpus> -DWORK_DIR=<build tree>
#         -DSECONDS=<n> [-DEXTRA_FLAGS="<libFuzzer flags>"] [-DSYMBOLIZER=<llvm-symbolizer>]
#         -P run_fuzzer.cmake
#
# Fuzzes for SECONDS starting from the committed corpus, which it only reads: inputs that add
# coverage go to WORK_DIR/fuzz-corpus/NAME (emptied first, so that every run starts from the
# committed corpus alone), a crashing input to WORK_DIR/fuzz-artifacts/NAME-crash-<sha1>. The
# whole libFuzzer log goes to WORK_DIR/fuzz-logs/NAME.log; the test prints one line of final
# statistics (executions, coverage) and, on failure, the end of the log with the crash report.
foreach(_var HARNESS NAME CORPUS WORK_DIR SECONDS)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "run_fuzzer.cmake: -D${_var}=... is missing")
  endif()
endforeach()

file(GLOB _seeds "${CORPUS}/*")
list(LENGTH _seeds _seed_count)
if(_seed_count EQUAL 0)
  message(FATAL_ERROR "fuzz ${NAME}: no committed corpus in ${CORPUS} (scripts/fuzz --reseed ${NAME} builds it)")
endif()

set(_new_corpus "${WORK_DIR}/fuzz-corpus/${NAME}")
set(_artifacts "${WORK_DIR}/fuzz-artifacts")
set(_log "${WORK_DIR}/fuzz-logs/${NAME}.log")
file(REMOVE_RECURSE "${_new_corpus}")
file(MAKE_DIRECTORY "${_new_corpus}" "${_artifacts}" "${WORK_DIR}/fuzz-logs")

# Without use-after-return detection: with it, every exception thrown (the harnesses check
# from_bytes, which throws on every bad input) collects ASan's fake stacks, which made the
# harnesses 5 to 8 times slower. The asan stage keeps it on for the unit tests.
if(NOT DEFINED ENV{ASAN_OPTIONS})
  set(ENV{ASAN_OPTIONS} "detect_stack_use_after_return=0")
endif()
if(SYMBOLIZER AND NOT DEFINED ENV{ASAN_SYMBOLIZER_PATH})
  set(ENV{ASAN_SYMBOLIZER_PATH} "${SYMBOLIZER}")
endif()
separate_arguments(_extra UNIX_COMMAND "${EXTRA_FLAGS}")
execute_process(
  COMMAND "${HARNESS}"
    -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
    "-artifact_prefix=${_artifacts}/${NAME}-" ${_extra}
    "${_new_corpus}" "${CORPUS}"
  RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _out
  ERROR_VARIABLE _out)
file(WRITE "${_log}" "${_out}")

# libFuzzer's final statistics, and the coverage of its last status line ("#N DONE cov: ... ft: ...").
set(_summary "")
foreach(_stat number_of_executed_units average_exec_per_sec new_units_added peak_rss_mb)
  if(_out MATCHES "stat::${_stat}: *([0-9]+)")
    set(_${_stat} "${CMAKE_MATCH_1}")
  else()
    set(_${_stat} "?")
  endif()
endforeach()
set(_cov "?")
set(_ft "?")
string(REGEX MATCHALL "cov: [0-9]+ ft: [0-9]+" _status "${_out}")
if(_status)
  list(GET _status -1 _last)
  string(REGEX REPLACE "cov: ([0-9]+) ft: ([0-9]+)" "\\1;\\2" _last "${_last}")
  list(GET _last 0 _cov)
  list(GET _last 1 _ft)
endif()
message("fuzz ${NAME}: ${_number_of_executed_units} executions in ${SECONDS} s "
  "(${_average_exec_per_sec}/s) over ${_seed_count} committed inputs; cov: ${_cov} ft: ${_ft}; "
  "${_new_units_added} new inputs; peak RSS ${_peak_rss_mb} MB")

if(NOT _rc EQUAL 0)
  # The crash report is at the end of the log.
  string(LENGTH "${_out}" _length)
  set(_start 0)
  if(_length GREATER 12000)
    math(EXPR _start "${_length} - 12000")
  endif()
  string(SUBSTRING "${_out}" ${_start} -1 _tail)
  message("---- end of ${_log}:\n${_tail}")
  message(FATAL_ERROR "fuzz ${NAME}: libFuzzer exited with ${_rc} (the input is in ${_artifacts}/${NAME}-*)")
endif()
