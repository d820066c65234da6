# CTest: the harness runs every pscan policy this build has. Passes only if `pscan-compare --list`
# names each policy in POLICIES (a list of implementation names) as built in.
execute_process(COMMAND ${HARNESS} --list RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pscan-compare --list exited with '${status}'\n${out}\n${err}")
endif()
foreach(policy IN LISTS POLICIES)
  if(NOT out MATCHES "\n  (cpu|gpu) ${policy} \\(pscan\\)")
    message(FATAL_ERROR "pscan-compare does not list ${policy}, which this build has:\n${out}")
  endif()
endforeach()
message(STATUS "pscan-compare lists ${POLICIES}")
