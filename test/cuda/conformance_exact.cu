// The conformance suite's exact_plus cases on the CUDA policies (exact_reduce.cuh,
// exact_scan.cuh): every algorithm.

#include "conformance/exact_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_EXACT_CASES(CUDA_FIXTURES);
