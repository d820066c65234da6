// pscan::distributed over NCCL: segmented scans and segmented_reduce.

#include "nccl_fixtures.cuh"
#include "segmented_cases.hpp"

DISTRIBUTED_SEGMENTED_CASES(distributed_test::nccl_fixture);
