# Compile-fail checker, run by ctest as:
#   cmake -DCXX=<compiler> -DSOURCE=<file.cpp> -DINCLUDE_DIR=<repo>/include
#         -P check.cmake
#
# Passes only if compiling SOURCE FAILS and the compiler's combined
# stdout+stderr matches the regex given on the first line of SOURCE:
#   // expect: <regex>
# The regex is a CMake regex (string(REGEX MATCH)), not ECMAScript/PCRE: no
# \d, \w or non-greedy quantifiers; use [0-9], [A-Za-z_] etc. It is matched
# anywhere in the output, so it does not need leading/trailing `.*`.
# Requiring a match makes sure the file fails for the intended reason, not
# because of a typo or a missing include.
#
# A refusal must also be a bifrons message first and alone (CONTRIBUTING.md):
# the first error line must contain "bifrons:", and it must be the only error,
# unless the second line of SOURCE says otherwise:
#   // errors: any      (the harness's self-test, which is not a refusal)
#   // errors: N        (at most N errors: a cascade that could not be stopped)
# A line `// flags: <flags>` near the top adds compiler flags (e.g. -fno-rtti).

foreach(_var CXX SOURCE INCLUDE_DIR)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "check.cmake: -D${_var}=... is required")
  endif()
endforeach()

# file(READ), not file(STRINGS): the latter would escape `;` in the regex.
file(READ "${SOURCE}" _head LIMIT 4096)
string(REGEX MATCH "^[^\n]*" _first_line "${_head}")
if(NOT _first_line MATCHES "^//[ \t]*expect:[ \t]*(.*[^ \t\r])[ \t\r]*$")
  message(FATAL_ERROR
    "${SOURCE}: first line must be `// expect: <regex>`, got: ${_first_line}")
endif()
set(_expect "${CMAKE_MATCH_1}")

# Extra compiler flags, from a line `// flags: <flags>` among the first lines (e.g. -fno-rtti).
set(_flags)
if(_head MATCHES "\n//[ \t]*flags:[ \t]*([^\n]*[^ \t\r\n])")
  separate_arguments(_flags UNIX_COMMAND "${CMAKE_MATCH_1}")
endif()

# Colour codes would get in the way of the regex.
set(_cmd "${CXX}" -std=c++20 -fsyntax-only -fdiagnostics-color=never ${_flags}
         "-I${INCLUDE_DIR}" "${SOURCE}")
execute_process(
  COMMAND ${_cmd}
  RESULT_VARIABLE _result
  OUTPUT_VARIABLE _output
  ERROR_VARIABLE _output)   # same variable: stdout and stderr are merged

list(JOIN _cmd " " _cmd_str)
if(_result EQUAL 0)
  message(FATAL_ERROR "compiled successfully but must not:\n  ${_cmd_str}")
endif()
if(NOT _output MATCHES "${_expect}")
  # Plain message(): printed verbatim, unlike the re-wrapped FATAL_ERROR text.
  message("--- compiler output ---\n${_output}-----------------------")
  message(FATAL_ERROR
    "compilation failed as required, but the output above does not match\n"
    "  expect: ${_expect}\n  command: ${_cmd_str}")
endif()

string(REGEX MATCH "^[^\n]*\n([^\n]*)" _unused "${_head}")
set(_second_line "${CMAKE_MATCH_1}")
set(_allowed 1)
if(_second_line MATCHES "^//[ \t]*errors:[ \t]*([0-9]+|any)")
  set(_allowed "${CMAKE_MATCH_1}")
endif()
# Error lines: GCC and clang both write "error:" after the location. (Semicolons would split
# the list of matches.)
string(REPLACE ";" "," _lines "${_output}")
string(REGEX MATCHALL "[^\n]*error:[^\n]*" _errors "${_lines}")
list(LENGTH _errors _count)
if(NOT _allowed STREQUAL "any")
  list(GET _errors 0 _first_error)
  if(NOT _first_error MATCHES "bifrons:")
    message("--- compiler output ---\n${_output}-----------------------")
    message(FATAL_ERROR "the first error is not a bifrons message:\n  ${_first_error}")
  endif()
  if(_count GREATER _allowed)
    message("--- compiler output ---\n${_output}-----------------------")
    message(FATAL_ERROR "${_count} errors, where at most ${_allowed} may follow a refusal")
  endif()
endif()
message(STATUS "compile failed as expected (matched: ${_expect}; ${_count} error(s))")
