#pragma once
// What the CUDA test runners check on each rank before their tests: a CUDA device at all, and for
// NCCL a GPU of its own (ranks on one host take its devices in turn).

#include "cuda_device.hpp"

#include <cuda_runtime.h>
#include <mpi.h>

#include <string>

namespace distributed_test {

// Empty when this process sees a CUDA device, else why not.
inline std::string no_device() { return pscan_test::no_cuda_device(); }

// Empty when this rank's host has a GPU for each of its ranks, and then makes the one of this
// rank's place on the host current; else why not.
inline std::string no_gpu_of_its_own() {
  if (std::string why = no_device(); !why.empty()) return why;
  MPI_Comm host;
  int host_rank = 0, host_ranks = 1, devices = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  MPI_Comm_rank(host, &host_rank);
  MPI_Comm_size(host, &host_ranks);
  MPI_Comm_free(&host);
  cudaGetDeviceCount(&devices);
  if (host_ranks > devices) {
    return std::to_string(host_ranks) + " ranks on this host and " + std::to_string(devices) +
           " GPU(s): NCCL needs a GPU for each rank";
  }
  if (cudaSetDevice(host_rank) != cudaSuccess) return "cudaSetDevice failed";
  return {};
}

}  // namespace distributed_test
