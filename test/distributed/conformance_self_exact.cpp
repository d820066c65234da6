// The single-process conformance suite's exact_plus cases on pscan::distributed over
// MPI_COMM_SELF.

#include "conformance/exact_cases.hpp"
#include "self_fixtures.hpp"

CONFORMANCE_EXACT_CASES(SELF_FIXTURES);
