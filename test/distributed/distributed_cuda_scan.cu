// pscan::distributed over the CUDA policies: the scans, reduce and the errors. Device memory on
// every rank, rank totals through host memory; run by mpirun on 1 to 4 ranks sharing the device.
// The same cases over the NCCL policy's device-side exchange, its all-gather through MPI.

#include "cuda_fixtures.cuh"
#include "error_cases.hpp"
#include "scan_cases.hpp"

DISTRIBUTED_SCAN_CASES(DISTRIBUTED_CUDA_FIXTURES, distributed_test::gpu_exchange_fixture);
DISTRIBUTED_ERROR_CASES(DISTRIBUTED_CUDA_FIXTURES, distributed_test::gpu_exchange_fixture);
