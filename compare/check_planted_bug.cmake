# CTest: the harness with a planted off-by-one implementation. Passes only if every planted_bug
# row is reported FAILED with no timing. Other cells failing (exit status 1) is reported but is
# not this test's concern; a crash or a usage error (status 2) fails it.
execute_process(
  COMMAND ${HARNESS} --cpu-only --plant-bug --sizes 2^12 --runs 2 --no-progress --csv ${CSV}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status MATCHES "^[01]$")
  message(FATAL_ERROR "pscan-compare exited with '${status}'\n${out}\n${err}")
endif()
if(status EQUAL 1)
  message(WARNING "pscan-compare: cells other than the planted bug failed:\n${out}\n${err}")
endif()
file(STRINGS ${CSV} rows REGEX "^cpu,[^,]*,[^,]*,4096,[^,]*,[^,]*,planted_bug,")
list(LENGTH rows count)
if(count EQUAL 0)
  message(FATAL_ERROR "no planted_bug rows in ${CSV}\n${out}\n${err}")
endif()
foreach(row IN LISTS rows)
  # implementation,library,status,runs,median_ms,min_ms,max_ms,spread: FAILED with no timing
  if(NOT row MATCHES ",planted_bug,test,FAILED,,,,,")
    message(FATAL_ERROR "planted bug not reported as FAILED and untimed:\n${row}")
  endif()
endforeach()
message(STATUS "planted bug reported FAILED and untimed in ${count} cells")
