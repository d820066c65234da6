// The conformance suite's scans by offsets on the CUDA policies.

#include "conformance/offsets_scan_cases.hpp"
#include "device_fixture.cuh"

CONFORMANCE_OFFSETS_SCAN_CASES(CUDA_FIXTURES);
