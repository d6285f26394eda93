# Consumption checker, run by ctest (the consume preset registers one test per
# MODE, see tests/CMakeLists.txt) as:
#   cmake -DMODE=<mode> -DSOURCE_DIR=<checkout> -DBINARY_DIR=<bifrons build tree>
#         -DWORK_DIR=<scratch dir> -DGENERATOR=<generator> -DMAKE_PROGRAM=<path>
#         -DCXX=<compiler> -P check.cmake
#
# MODE:
#   install           cmake --install BINARY_DIR --prefix WORK_DIR/prefix. The
#                     tree was configured with the default prefix, so this
#                     also shows the installed package is relocatable.
#   find_package      tests/consume with find_package(bifrons) from that prefix
#   add_subdirectory  tests/consume with add_subdirectory(SOURCE_DIR)
#   fetchcontent      tests/consume with FetchContent from an archive of the
#                     working tree as git sees it (tracked and untracked files,
#                     not ignored ones, like a release tarball: a needed file
#                     being ignored fails here); SOURCE_DIR itself outside git
#   pkg-config        CXX with flags from pkg-config only, against the prefix, at
#                     -O2 with -Werror (warnings the headers cause in user code)
#   readme            the README's install recipe (the sh block under "Installed, with
#                     `find_package`"), each command run exactly as written in a
#                     directory holding a fresh copy of the repository as `bifrons`
#                     (the files git would clone, plus untracked ones), with
#                     DESTDIR set so that /opt/bifrons lands under WORK_DIR; then
#                     tests/consume against that install, and its tools run
#   schema_check      tests/consume/schema with find_package from that prefix: its
#                     bifrons_schema_check() test passes, passes after a compatible
#                     change of its type, fails after a breaking one (of shop::Order,
#                     or of a REGISTERED class a pointer reaches), and passes
#                     again once the update target has rewritten the snapshot
# Each mode starts from an empty WORK_DIR/<mode>, then builds and runs
# tests/consume/main.cpp; any failing step fails the test.

foreach(_var MODE SOURCE_DIR BINARY_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "check.cmake: -D${_var}=... is required")
  endif()
endforeach()

set(_prefix "${WORK_DIR}/prefix")
set(_dir "${WORK_DIR}/${MODE}")
file(REMOVE_RECURSE "${_dir}")
file(MAKE_DIRECTORY "${_dir}")

# run(<command>...): echo and run it; a failure fails the test.
function(run)
  list(JOIN ARGN " " _line)
  message(STATUS "run: ${_line}")
  execute_process(COMMAND ${ARGN} COMMAND_ERROR_IS_FATAL ANY)
endfunction()

# consumer(<cmake args>...): configure, build and run tests/consume.
function(consumer)
  set(_make)
  if(MAKE_PROGRAM)
    set(_make "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
  endif()
  run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/consume" -B "${_dir}/build"
      -G "${GENERATOR}" ${_make} "-DCMAKE_CXX_COMPILER=${CXX}" ${ARGN})
  run("${CMAKE_COMMAND}" --build "${_dir}/build")
  run("${_dir}/build/consume")
endfunction()

# source_copy(<archive> <result var>): archive the working tree as git sees it (tracked and
# untracked files, not ignored ones, like a release tarball or a fresh clone) into <archive>;
# <result var> is FALSE outside a git work tree.
function(source_copy archive result)
  set(${result} FALSE PARENT_SCOPE)
  find_package(Git QUIET)
  if(NOT GIT_EXECUTABLE)
    return()
  endif()
  execute_process(
    COMMAND "${GIT_EXECUTABLE}" ls-files --cached --others --exclude-standard
    WORKING_DIRECTORY "${SOURCE_DIR}"
    RESULT_VARIABLE _git_result OUTPUT_VARIABLE _files ERROR_QUIET)
  if(NOT _git_result EQUAL 0 OR _files STREQUAL "")
    return()
  endif()
  # --cached also lists tracked files deleted from the working tree.
  string(REGEX REPLACE "\n$" "" _files "${_files}")
  string(REPLACE "\n" ";" _files "${_files}")
  set(_list "")
  foreach(_f IN LISTS _files)
    if(EXISTS "${SOURCE_DIR}/${_f}")
      string(APPEND _list "${_f}\n")
    endif()
  endforeach()
  file(WRITE "${_dir}/files.txt" "${_list}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E tar czf "${archive}" "--files-from=${_dir}/files.txt"
    WORKING_DIRECTORY "${SOURCE_DIR}" COMMAND_ERROR_IS_FATAL ANY)
  set(${result} TRUE PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "install")
  file(REMOVE_RECURSE "${_prefix}")
  run("${CMAKE_COMMAND}" --install "${BINARY_DIR}" --prefix "${_prefix}")
elseif(MODE STREQUAL "find_package")
  consumer(-DCONSUME_MODE=find_package "-DCMAKE_PREFIX_PATH=${_prefix}")
elseif(MODE STREQUAL "add_subdirectory")
  consumer(-DCONSUME_MODE=add_subdirectory "-DBIFRONS_SOURCE_DIR=${SOURCE_DIR}")
elseif(MODE STREQUAL "fetchcontent")
  source_copy("${_dir}/bifrons-src.tar.gz" _copied)
  if(_copied)
    consumer(-DCONSUME_MODE=fetchcontent "-DBIFRONS_FETCH_URL=${_dir}/bifrons-src.tar.gz")
  else()
    message(STATUS "not a git work tree: FetchContent from ${SOURCE_DIR} itself")
    consumer(-DCONSUME_MODE=fetchcontent "-DBIFRONS_SOURCE_DIR=${SOURCE_DIR}")
  endif()
elseif(MODE STREQUAL "readme")
  source_copy("${_dir}/bifrons-src.tar.gz" _copied)
  if(NOT _copied)
    message(FATAL_ERROR "readme: ${SOURCE_DIR} is not a git work tree; the recipe starts from a clone")
  endif()
  # The recipe's directory: the copy as `bifrons`, and the recipe's own `build` beside it.
  set(_recipe_dir "${_dir}/recipe")
  file(MAKE_DIRECTORY "${_recipe_dir}/bifrons")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xzf "${_dir}/bifrons-src.tar.gz"
    WORKING_DIRECTORY "${_recipe_dir}/bifrons" COMMAND_ERROR_IS_FATAL ANY)
  file(READ "${SOURCE_DIR}/README.md" _readme)
  string(FIND "${_readme}" "**Installed, with `find_package`:**" _at)
  if(_at LESS 0)
    message(FATAL_ERROR "readme: README.md has no \"Installed, with `find_package`\" recipe")
  endif()
  string(SUBSTRING "${_readme}" ${_at} -1 _readme)
  if(NOT _readme MATCHES "```sh\n([^`]*)```")
    message(FATAL_ERROR "readme: no sh block after \"Installed, with `find_package`\"")
  endif()
  string(REGEX REPLACE "\n$" "" _recipe "${CMAKE_MATCH_1}")
  string(REPLACE "\n" ";" _recipe "${_recipe}")
  set(_root "${_dir}/root")
  foreach(_command IN LISTS _recipe)
    message(STATUS "run (README, in ${_recipe_dir}): ${_command}")
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env "DESTDIR=${_root}" sh -c "${_command}"
      WORKING_DIRECTORY "${_recipe_dir}" COMMAND_ERROR_IS_FATAL ANY)
  endforeach()
  if(NOT _recipe MATCHES "--prefix /opt/bifrons")
    message(FATAL_ERROR "readme: the recipe no longer installs to /opt/bifrons; update this check")
  endif()
  foreach(_tool inspect compat)
    run("${_root}/opt/bifrons/bin/bifrons-${_tool}" --help)
  endforeach()
  consumer(-DCONSUME_MODE=find_package "-DCMAKE_PREFIX_PATH=${_root}/opt/bifrons")
elseif(MODE STREQUAL "schema_check")
  # The snapshots are copied: the update target rewrites them.
  file(COPY "${SOURCE_DIR}/tests/consume/schema/snapshots" DESTINATION "${_dir}")
  set(_make)
  if(MAKE_PROGRAM)
    set(_make "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
  endif()
  # check(<change> <expect: pass|fail> [<what the failure names>]): configure with that change of
  # shop::Order or shop::Gift, build, ctest.
  function(check change expect)
    set(_names "float-double")
    if(ARGC GREATER 2)
      set(_names "${ARGV2}")
    endif()
    run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/consume/schema" -B "${_dir}/build" -G "${GENERATOR}" ${_make}
        "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${_prefix}" "-DSHOP_SNAPSHOTS=${_dir}/snapshots"
        "-DSHOP_ORDER_CHANGE=${change}")
    run("${CMAKE_COMMAND}" --build "${_dir}/build")
    execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --output-on-failure WORKING_DIRECTORY "${_dir}/build"
      RESULT_VARIABLE _result OUTPUT_VARIABLE _output ERROR_VARIABLE _output)
    message(STATUS "ctest with change '${change}' (expected to ${expect}):\n${_output}")
    if(expect STREQUAL "pass" AND NOT _result EQUAL 0)
      message(FATAL_ERROR "the schema check failed with change '${change}'")
    elseif(expect STREQUAL "fail" AND (_result EQUAL 0 OR NOT _output MATCHES "${_names}"))
      message(FATAL_ERROR "the schema check did not catch the breaking change '${change}' (${_names})")
    endif()
  endfunction()
  find_program(CMAKE_CTEST_COMMAND ctest HINTS "${CMAKE_COMMAND}/.." REQUIRED)
  check("" pass)
  check(appended pass)
  # A registered class that only a pointer in shop::Basket reaches (REGISTERED): renaming it breaks.
  check(gift_breaking fail "rename-registered")
  check(breaking fail)
  run("${CMAKE_COMMAND}" --build "${_dir}/build" --target shop_update_schemas)
  file(READ "${_dir}/snapshots/shop.Order.json" _snapshot)
  if(NOT _snapshot MATCHES "\"f32\"")
    message(FATAL_ERROR "shop_update_schemas did not write the new schema")
  endif()
  check(breaking pass)
elseif(MODE STREQUAL "pkg-config")
  # The way a Makefile-based user builds: flags from pkg-config only.
  find_program(_pkg_config pkg-config REQUIRED)
  set(ENV{PKG_CONFIG_PATH} "${_prefix}/share/pkgconfig")
  foreach(_what modversion cflags libs)
    execute_process(COMMAND "${_pkg_config}" --${_what} bifrons
      OUTPUT_VARIABLE _${_what} OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
    message(STATUS "pkg-config --${_what} bifrons: ${_${_what}}")
    separate_arguments(_${_what} UNIX_COMMAND "${_${_what}}")
  endforeach()
  # At -O2, as a release build: GCC's flow-based warnings (-Wstringop-overflow, -Warray-bounds)
  # only look at inlined code, so a debug build would not show what the headers cause.
  run("${CXX}" ${_cflags} -O2 -Wall -Wextra -Wpedantic -Werror
      "${SOURCE_DIR}/tests/consume/main.cpp" -o "${_dir}/consume" ${_libs})
  run("${_dir}/consume")
else()
  message(FATAL_ERROR "check.cmake: unknown MODE '${MODE}'")
endif()
