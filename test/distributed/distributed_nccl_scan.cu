// pscan::distributed over NCCL: the scans, reduce_into (rank totals exchanged on the GPUs), reduce
// and the errors; run by mpirun on 1, 2, 4 and 8 ranks, one GPU each.

#include "error_cases.hpp"
#include "nccl_fixtures.cuh"
#include "scan_cases.hpp"

DISTRIBUTED_SCAN_CASES(distributed_test::nccl_fixture);
DISTRIBUTED_ERROR_CASES(distributed_test::nccl_fixture);
