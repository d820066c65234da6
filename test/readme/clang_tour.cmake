# Compiles the README's API tour (TOUR) with clang++ and warnings as errors, as a user's clang
# build of pscan's headers would: -fsyntax-only over INCLUDE_DIRS (a |-separated list). Reported
# skipped (the test's SKIP_REGULAR_EXPRESSION) where no clang++ is installed.
find_program(clang_compiler NAMES clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15
             clang++-14)
if(NOT clang_compiler)
  message("clang++ not found: the tour's clang build is skipped")
  return()
endif()
string(REPLACE "|" ";" include_dirs "${INCLUDE_DIRS}")
list(TRANSFORM include_dirs PREPEND "-I")
execute_process(COMMAND ${clang_compiler} -std=c++17 -fopenmp -Wall -Wextra -Werror -fsyntax-only
                        ${include_dirs} ${TOUR}
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${clang_compiler} -Wall -Wextra -Werror rejects the tour")
endif()
