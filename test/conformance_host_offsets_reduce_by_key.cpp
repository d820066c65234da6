// The conformance suite's scans by offsets and reduce_by_key on the CPU policies, over host
// memory (a translation unit of their own: the segmented families compile in minutes).

#include "conformance/offsets_scan_cases.hpp"
#include "conformance/reduce_by_key_cases.hpp"
#include "host_memory.hpp"

// The fixtures of the policies the CPU backends list (test/CMakeLists.txt writes it).
#include "host_fixtures.hpp"

CONFORMANCE_OFFSETS_SCAN_CASES(HOST_FIXTURES);
CONFORMANCE_REDUCE_BY_KEY_CASES(HOST_FIXTURES);
