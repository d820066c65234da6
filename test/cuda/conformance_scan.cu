// The conformance suite's scan cases on the CUDA policies (one file per case header, so the
// heavy template instantiations compile in parallel).

#include "device_fixture.cuh"
#include "conformance/scan_cases.hpp"

CONFORMANCE_SCAN_CASES(CUDA_FIXTURES);
