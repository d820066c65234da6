// The conformance suite's reduce cases on the CUDA policies (one file per case header, so the
// heavy template instantiations compile in parallel).

#include "conformance/reduce_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_REDUCE_CASES(CUDA_FIXTURES);
