# Runs one libFuzzer target for a bounded time on a copy of its seed corpus
# (the source tree is never written): the inputs it finds go to
# SCRATCH/corpus, a failing input to SCRATCH/artifacts.
#
#   cmake -DFUZZER=<target> -DCORPUS=<seed dir> -DSCRATCH=<dir> [-DDICT=<file>]
#         -DRUNS=<inputs> -DSECONDS=<time> -P run_fuzzer.cmake
#   cmake -DMISSING=ON -P run_fuzzer.cmake    (fails: no fuzzer was built)
if(MISSING)
  message(FATAL_ERROR
    "no libFuzzer target was built: the compiler cannot link "
    "-fsanitize=fuzzer,address,undefined.  Build with clang and install "
    "libclang-rt-14-dev (bash cmake/install-deps.sh), then reconfigure.")
endif()

file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}/corpus" "${SCRATCH}/artifacts")
file(GLOB seeds "${CORPUS}/*")
if(NOT seeds)
  message(FATAL_ERROR "no seed inputs in ${CORPUS}")
endif()
file(COPY ${seeds} DESTINATION "${SCRATCH}/corpus")

set(args -runs=${RUNS} -max_total_time=${SECONDS} -timeout=10
         -rss_limit_mb=2048 -print_final_stats=1
         "-artifact_prefix=${SCRATCH}/artifacts/")
if(DICT)
  list(APPEND args "-dict=${DICT}")
endif()
execute_process(COMMAND "${FUZZER}" ${args} "${SCRATCH}/corpus"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found "${SCRATCH}/artifacts/*")
  message(FATAL_ERROR "${FUZZER} failed (${rc}); input: ${found}")
endif()
