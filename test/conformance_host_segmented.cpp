// The conformance suite's segmented families on the CPU policies, over host memory: segmented
// scans, scans by key and by offsets, reduce_by_key.

#include "conformance/offsets_scan_cases.hpp"
#include "conformance/reduce_by_key_cases.hpp"
#include "conformance/segmented_cases.hpp"
#include "host_memory.hpp"

// The fixtures of the policies the CPU backends list (test/CMakeLists.txt writes it).
#include "host_fixtures.hpp"

CONFORMANCE_SEGMENTED_CASES(HOST_FIXTURES);
CONFORMANCE_OFFSETS_SCAN_CASES(HOST_FIXTURES);
CONFORMANCE_REDUCE_BY_KEY_CASES(HOST_FIXTURES);
