# Smoke check of ompext-gbench (the bench.gbench.smoke test):
#   cmake -DGBENCH=<ompext-gbench> -DOUT=<report.json> -DFILTER=<regex>
#         -DEXPECT=<name1,name2,...> -P smoke.cmake
# Runs the filtered benchmarks on a team of 2 for ~10 ms each, then checks
# that the exit status is 0 and that the JSON report parses and holds
# exactly one run per expected name (names without Google Benchmark's
# /process_time/manual_time suffixes), each with no error and a positive
# real_time. Timing values are not judged.
cmake_minimum_required(VERSION 3.19) # string(JSON)

foreach(var GBENCH OUT FILTER EXPECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "smoke.cmake: -D${var}=... is required")
  endif()
endforeach()

file(REMOVE "${OUT}")
execute_process(
  COMMAND "${GBENCH}" --threads=2 "--benchmark_filter=${FILTER}"
          --benchmark_min_time=0.01 "--benchmark_out=${OUT}"
          --benchmark_out_format=json
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ompext-gbench exited with '${rc}'")
endif()
if(NOT EXISTS "${OUT}")
  message(FATAL_ERROR "ompext-gbench wrote no report at ${OUT}")
endif()

file(READ "${OUT}" json)
string(JSON count ERROR_VARIABLE err LENGTH "${json}" benchmarks)
if(err)
  message(FATAL_ERROR "the report does not parse as expected JSON: ${err}")
endif()
string(JSON context_type ERROR_VARIABLE err TYPE "${json}" context)
if(err OR NOT context_type STREQUAL "OBJECT")
  message(FATAL_ERROR "the report has no context object")
endif()

string(REPLACE "," ";" expected "${EXPECT}")
list(LENGTH expected n_expected)
if(NOT count EQUAL n_expected)
  message(FATAL_ERROR "the report holds ${count} runs, expected ${n_expected}")
endif()

set(seen "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" benchmarks ${i} name)
  string(JSON error ERROR_VARIABLE no_error GET "${json}" benchmarks ${i}
         error_occurred)
  if(NOT no_error AND error)
    string(JSON msg ERROR_VARIABLE ignored GET "${json}" benchmarks ${i}
           error_message)
    message(FATAL_ERROR "${name}: error: ${msg}")
  endif()
  string(JSON real_time GET "${json}" benchmarks ${i} real_time)
  string(JSON iterations GET "${json}" benchmarks ${i} iterations)
  if(NOT real_time GREATER 0 OR NOT iterations GREATER 0)
    message(FATAL_ERROR "${name}: real_time '${real_time}', iterations "
                        "'${iterations}'")
  endif()
  set(matched "")
  foreach(want IN LISTS expected)
    string(FIND "${name}/" "${want}/" at)
    if(at EQUAL 0)
      set(matched "${want}")
    endif()
  endforeach()
  if(NOT matched)
    message(FATAL_ERROR "unexpected benchmark '${name}' in the report")
  endif()
  if(matched IN_LIST seen)
    message(FATAL_ERROR "'${matched}' appears twice in the report")
  endif()
  list(APPEND seen "${matched}")
  message(STATUS "ok: ${name}: ${real_time} ns per operation, "
                 "${iterations} operations")
endforeach()
