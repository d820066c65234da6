// The conformance suite on the CPU policies, over host memory.

#include "conformance/error_cases.hpp"
#include "conformance/large_cases.hpp"
#include "conformance/offsets_scan_cases.hpp"
#include "conformance/reduce_by_key_cases.hpp"
#include "conformance/reduce_cases.hpp"
#include "conformance/scan_cases.hpp"
#include "conformance/segmented_cases.hpp"
#include "conformance/transform_cases.hpp"
#include "host_memory.hpp"

// The fixtures of the policies the CPU backends list (test/CMakeLists.txt writes it).
#include "host_fixtures.hpp"

CONFORMANCE_SCAN_CASES(HOST_FIXTURES);
CONFORMANCE_REDUCE_CASES(HOST_FIXTURES);
CONFORMANCE_SEGMENTED_CASES(HOST_FIXTURES);
CONFORMANCE_OFFSETS_SCAN_CASES(HOST_FIXTURES);
CONFORMANCE_REDUCE_BY_KEY_CASES(HOST_FIXTURES);
CONFORMANCE_TRANSFORM_CASES(HOST_FIXTURES);
CONFORMANCE_ERROR_CASES(HOST_FIXTURES);
CONFORMANCE_LARGE_CASES(HOST_FIXTURES);
