// The conformance suite's reduce cases on the CUDA policies (one file per case header, so the
// heavy template instantiations compile in parallel).

#include "device_fixture.cuh"
#include "conformance/reduce_cases.hpp"

CONFORMANCE_REDUCE_CASES(CUDA_FIXTURES);
