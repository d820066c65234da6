// pscan::distributed over the CUDA policies: segmented scans and segmented_reduce.

#include "cuda_fixtures.cuh"
#include "segmented_cases.hpp"

DISTRIBUTED_SEGMENTED_CASES(DISTRIBUTED_CUDA_FIXTURES);
