// The single-process conformance suite's segmented scans (by flags and by key) on
// pscan::distributed over MPI_COMM_SELF; scans by offsets and reduce_by_key are in
// conformance_self_offsets_reduce_by_key.cpp.

#include "conformance/segmented_cases.hpp"
#include "self_fixtures.hpp"

CONFORMANCE_SEGMENTED_CASES(SELF_FIXTURES);
