// The conformance suite's reduce_by_key cases on the CUDA policies (one file per case header, so
// the heavy template instantiations compile in parallel).

#include "conformance/reduce_by_key_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_REDUCE_BY_KEY_CASES(CUDA_FIXTURES);
