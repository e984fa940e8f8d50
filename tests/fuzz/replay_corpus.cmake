# Runs a libFuzzer target once over every file of its kept corpus (KEPT):
# the minimized corpus and every input that once made it fail. Fails when
# the directory is empty or any input crashes, leaks or trips a sanitizer.
file(GLOB inputs ${KEPT}/*)
list(LENGTH inputs count)
if(count EQUAL 0)
  message(FATAL_ERROR "${KEPT} holds no inputs")
endif()
execute_process(COMMAND ${FUZZER} -runs=1 ${inputs}
                RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${status}) on its kept corpus "
          "${KEPT}:\n${err}")
endif()
message(STATUS "${count} inputs of ${KEPT} ran clean")
