// The conformance suite's exact_plus cases on the CPU policies, over host memory.

#include "conformance/exact_cases.hpp"
#include "host_memory.hpp"

// The fixtures of the policies the CPU backends list (test/CMakeLists.txt writes it).
#include "host_fixtures.hpp"

CONFORMANCE_EXACT_CASES(HOST_FIXTURES);
