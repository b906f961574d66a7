# Run after each build of the unit-test binary (cmake -P): writes CTEST_FILE,
# one ctest entry per Catch2 test case, named PREFIX<test case name>, each
# running just that test case. Catch2's own catch_discover_tests (v2) splits
# a name holding ';' in two; here a name is one entry whatever it holds.
#
# -D TEST_EXECUTABLE, LIST_ARGS (the binary's arguments that print one test
# case name a line), PREFIX, PROPERTIES (set_tests_properties arguments, with
# <SEMICOLON> for ';'), CTEST_FILE.
separate_arguments(list_args UNIX_COMMAND "${LIST_ARGS}")
execute_process(COMMAND "${TEST_EXECUTABLE}" ${list_args}
  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE result)
# Catch2 2 exits with the number of test cases it listed, so the status says
# little; a binary that does not start (a missing sanitizer runtime) lists
# none, and that must fail the build, not leave ctest without unit tests.
if(NOT result MATCHES "^[0-9]+$" OR NOT output MATCHES "[^\n]")
  message(FATAL_ERROR "${TEST_EXECUTABLE} ${LIST_ARGS} listed no test cases "
    "(exit ${result}): ${errors}")
endif()
# No ';' may reach a CMake list: park them, split into lines, put them back.
string(REPLACE ";" "<SEMICOLON>" output "${output}")
string(REPLACE "\n" ";" names "${output}")
string(REPLACE "<SEMICOLON>" ";" properties "${PROPERTIES}")
set(script "")
foreach(name IN LISTS names)
  if(name STREQUAL "")
    continue()
  endif()
  string(REPLACE "<SEMICOLON>" ";" name "${name}")
  # Catch's test-spec syntax gives \ , [ ] a meaning: escape them.
  set(spec "${name}")
  foreach(char \\ , [ ])
    string(REPLACE "${char}" "\\${char}" spec "${spec}")
  endforeach()
  string(APPEND script
    "add_test([==[${PREFIX}${name}]==] [==[${TEST_EXECUTABLE}]==] [==[${spec}]==])\n"
    "set_tests_properties([==[${PREFIX}${name}]==] PROPERTIES ${properties})\n")
endforeach()
file(WRITE "${CTEST_FILE}" "${script}")
