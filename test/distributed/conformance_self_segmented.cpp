// The single-process conformance suite's segmented families on pscan::distributed over
// MPI_COMM_SELF: segmented scans, scans by key and by offsets, reduce_by_key.

#include "conformance/offsets_scan_cases.hpp"
#include "conformance/reduce_by_key_cases.hpp"
#include "conformance/segmented_cases.hpp"
#include "self_fixtures.hpp"

CONFORMANCE_SEGMENTED_CASES(SELF_FIXTURES);
CONFORMANCE_OFFSETS_SCAN_CASES(SELF_FIXTURES);
CONFORMANCE_REDUCE_BY_KEY_CASES(SELF_FIXTURES);
