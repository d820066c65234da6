// pscan::distributed over the CUDA policies: segmented scans, segmented_reduce and reduce_by_key.

#include "cuda_fixtures.cuh"
#include "reduce_by_key_cases.hpp"
#include "segmented_cases.hpp"

DISTRIBUTED_SEGMENTED_CASES(DISTRIBUTED_CUDA_FIXTURES);
DISTRIBUTED_REDUCE_BY_KEY_CASES(DISTRIBUTED_CUDA_FIXTURES);
