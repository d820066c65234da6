// The runner of the distributed tests over NCCL: one GPU per rank, or skipped on every rank. The
// communicator over MPI_COMM_WORLD's GPUs is made once, before the tests, with NVLink multicast
// off (NCCL reads NCCL_NVLS_ENABLE when it starts).
#include <cstdlib>

#include "cuda_devices.hpp"
#include "mpi_doctest.hpp"
#include "nccl_fixtures.cuh"

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  distributed_test::rank_setup setup;
  setup.why_not = distributed_test::no_gpu_of_its_own;
  setup.start = [] { distributed_test::world_gpus().emplace(MPI_COMM_WORLD); };
  setup.finish = [] { distributed_test::world_gpus().reset(); };
  return distributed_test::run_on_every_rank(argc, argv, setup);
}
