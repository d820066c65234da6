// The conformance suite's scan cases on the CUDA policies (one file per case header, so the
// heavy template instantiations compile in parallel).

#include "conformance/scan_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_SCAN_CASES(CUDA_FIXTURES);
