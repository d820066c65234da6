// pscan::distributed over NCCL: segmented scans, segmented_reduce and reduce_by_key.

#include "nccl_fixtures.cuh"
#include "reduce_by_key_cases.hpp"
#include "segmented_cases.hpp"

DISTRIBUTED_SEGMENTED_CASES(distributed_test::nccl_fixture);
DISTRIBUTED_REDUCE_BY_KEY_CASES(distributed_test::nccl_fixture);
