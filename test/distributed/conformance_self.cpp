// The single-process conformance suite on pscan::distributed over MPI_COMM_SELF: every process
// is a communicator of one rank, so every case applies unchanged, through the distributed
// backend's exchange and carry-in on every call. The scans, reductions, transforms, bad input and
// large inputs (the segmented families: conformance_self_segmented.cpp and
// conformance_self_offsets_reduce_by_key.cpp).

#include "conformance/error_cases.hpp"
#include "conformance/large_cases.hpp"
#include "conformance/reduce_cases.hpp"
#include "conformance/scan_cases.hpp"
#include "conformance/transform_cases.hpp"
#include "self_fixtures.hpp"

CONFORMANCE_SCAN_CASES(SELF_FIXTURES);
CONFORMANCE_REDUCE_CASES(SELF_FIXTURES);
CONFORMANCE_TRANSFORM_CASES(SELF_FIXTURES);
CONFORMANCE_ERROR_CASES(SELF_FIXTURES);
CONFORMANCE_LARGE_CASES(SELF_FIXTURES);
