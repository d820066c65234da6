// The conformance suite's exact_plus cases on the CUDA policies: the reductions, which they take
// (exact_reduce.cuh).

#include "conformance/exact_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_EXACT_REDUCTION_CASES(CUDA_FIXTURES);
