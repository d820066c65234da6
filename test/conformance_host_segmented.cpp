// The conformance suite's segmented scans (by flags and by key) on the CPU policies, over host
// memory; scans by offsets and reduce_by_key are in conformance_host_offsets_reduce_by_key.cpp.

#include "conformance/segmented_cases.hpp"
#include "host_memory.hpp"

// The fixtures of the policies the CPU backends list (test/CMakeLists.txt writes it).
#include "host_fixtures.hpp"

CONFORMANCE_SEGMENTED_CASES(HOST_FIXTURES);
