// The runner of the distributed tests over CUDA local policies: skipped on every rank unless
// every rank sees a CUDA device (ranks on one host share device 0).
#include "cuda_devices.hpp"
#include "mpi_doctest.hpp"

int main(int argc, char** argv) {
  distributed_test::rank_setup setup;
  setup.why_not = distributed_test::no_device;
  return distributed_test::run_on_every_rank(argc, argv, setup);
}
