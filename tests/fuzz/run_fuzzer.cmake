# Runs one libFuzzer target for SECONDS on CORPUS, seeded from the test data
# files listed in SEEDS and from the kept corpus KEPT (tests/fuzz/corpus/
# NAME). Fails when a seed is missing or the fuzzer finds a crash, a leak
# or a sanitizer report.
file(MAKE_DIRECTORY ${CORPUS})
if(EXISTS ${SEEDS})
  file(STRINGS ${SEEDS} seeds REGEX "^[^#]")
  foreach(seed ${seeds})
    if(NOT EXISTS ${TESTDATA}/${seed})
      message(FATAL_ERROR "seed ${TESTDATA}/${seed} is missing")
    endif()
    get_filename_component(base ${seed} NAME)
    file(COPY ${TESTDATA}/${seed} DESTINATION ${CORPUS})
  endforeach()
endif()
if(KEPT AND IS_DIRECTORY ${KEPT})
  file(GLOB kept_inputs ${KEPT}/*)
  if(kept_inputs)
    file(COPY ${kept_inputs} DESTINATION ${CORPUS})
  endif()
endif()
# A fixed seed: every run tries the same inputs in the same order, so a
# finding is reproducible and a run that passed here passes in CI (a
# slower machine gets through a prefix of the same sequence). Longer
# campaigns outside make check use other seeds.
execute_process(COMMAND ${FUZZER} -seed=1 -max_total_time=${SECONDS} -print_final_stats=1 ${EXTRA}
                        -artifact_prefix=${CORPUS}/../ ${CORPUS}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${status}); the input that broke it "
          "is in ${CORPUS}/.. (crash-*, leak-*, timeout-*)")
endif()
