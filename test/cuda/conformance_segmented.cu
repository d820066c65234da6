// The conformance suite's segmented cases on the CUDA policies (one file per case header, so the
// heavy template instantiations compile in parallel).

#include "conformance/segmented_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_SEGMENTED_CASES(CUDA_FIXTURES);
