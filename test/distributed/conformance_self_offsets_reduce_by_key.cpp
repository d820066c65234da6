// The single-process conformance suite's scans by offsets and reduce_by_key on
// pscan::distributed over MPI_COMM_SELF (a translation unit of their own: the segmented families
// compile in minutes).

#include "conformance/offsets_scan_cases.hpp"
#include "conformance/reduce_by_key_cases.hpp"
#include "self_fixtures.hpp"

CONFORMANCE_OFFSETS_SCAN_CASES(SELF_FIXTURES);
CONFORMANCE_REDUCE_BY_KEY_CASES(SELF_FIXTURES);
