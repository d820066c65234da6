// The single-process conformance suite's exact_plus cases on pscan::distributed over
// MPI_COMM_SELF; reduce_by_key does not take exact_plus there yet.

#include "conformance/exact_cases.hpp"
#include "self_fixtures.hpp"

CONFORMANCE_EXACT_SCAN_CASES(SELF_FIXTURES);
