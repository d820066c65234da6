// The conformance suite's transform_ cases on the CUDA policies (one file per case header, so
// the heavy template instantiations compile in parallel).

#include "conformance/transform_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_TRANSFORM_CASES(CUDA_FIXTURES);
