// The conformance suite's exact_plus cases on the CUDA policies: the reductions and the scans,
// which they take (exact_reduce.cuh, exact_scan.cuh).

#include "conformance/exact_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_EXACT_DEVICE_CASES(CUDA_FIXTURES);
