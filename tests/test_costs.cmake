# CTest starts the tests of a -j run in the order of their COST, longest
# first, once it has timed them; a fresh build has no timings, so it
# would start them in name order and a long test drawn last would run
# alone at the end. tests/test_costs.txt gives the long tests' seconds as
# measured in the plain and in the ASan+UBSan build (the same test can
# be 100 times slower under ASan; "-": as in the plain build); a test
# that is not there costs 0.
set(HWT_COST_COLUMN 1)
if(HWT_SANITIZE)
  set(HWT_COST_COLUMN 2)
endif()
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/test_costs.txt cost_lines
     REGEX "^test_")
foreach(line ${cost_lines})
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(GET fields 0 name)
  list(GET fields ${HWT_COST_COLUMN} cost)
  if(cost STREQUAL "-")
    list(GET fields 1 cost)
  endif()
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endforeach()
