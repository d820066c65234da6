// The runner of the distributed tests over CUDA local policies: skipped on every rank unless
// every rank sees a CUDA device (ranks on one host share device 0).
#include <cuda_runtime.h>

#include <string>

#include "mpi_doctest.hpp"

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  std::string why_not;
  if (status != cudaSuccess || devices == 0) {
    why_not = std::string("no CUDA device (") +
              (status != cudaSuccess ? cudaGetErrorString(status) : "none found") + ")";
  }
  return distributed_test::run_on_every_rank(argc, argv, why_not);
}
