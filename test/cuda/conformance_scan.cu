// The conformance suite's scan cases, and their transform_ forms, on the CUDA policies (one file
// per algorithm family, so the heavy template instantiations compile in parallel).

#include "conformance/scan_cases.hpp"
#include "conformance/transform_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_SCAN_CASES(CUDA_FIXTURES);
CONFORMANCE_TRANSFORM_CASES(CUDA_FIXTURES);
