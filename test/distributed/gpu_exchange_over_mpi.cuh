#pragma once
// The GPU ranks' exchange of pscan::distributed over NCCL (policies/distributed/nccl/: the scans'
// and reduce_into's records and folds in device memory, on the local policy's stream) driven by a
// communicator that moves its bytes through the hosts with MPI, so that several ranks can share
// one GPU: NCCL refuses that ("Duplicate GPU detected", since NCCL 2.5). A single-GPU machine
// runs the NCCL policy's own code for the scans this way on 1 to 4 ranks; only the all-gather
// differs. A host wait per exchange: a test device, not a transport.

#include <pscan/policies/distributed/distributed.hpp>
#include <pscan/policies/distributed/nccl/policy.hpp>
#include <pscan/policies/distributed/nccl/scan.hpp>

#include <pscan/runtime/check.cuh>

#include <cuda_runtime.h>
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace distributed_test {

class gpu_exchange_over_mpi {
 public:
  explicit gpu_exchange_over_mpi(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
    PSCAN_CUDA_CHECK(cudaGetDevice(&device_));
  }
  MPI_Comm mpi() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int device() const { return device_; }
  // What ncclAllGather does, through the hosts: stream-ordered for the GPU work around it.
  void all_gather(const void* send, void* receive, std::size_t bytes, cudaStream_t stream) const {
    std::vector<unsigned char> mine(bytes), all(bytes * static_cast<std::size_t>(size_));
    PSCAN_CUDA_CHECK(cudaMemcpyAsync(mine.data(), send, bytes, cudaMemcpyDeviceToHost, stream));
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
    MPI_Allgather(mine.data(), static_cast<int>(bytes), MPI_BYTE, all.data(),
                  static_cast<int>(bytes), MPI_BYTE, comm_);
    PSCAN_CUDA_CHECK(
        cudaMemcpyAsync(receive, all.data(), all.size(), cudaMemcpyHostToDevice, stream));
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));  // `all` goes with this call
  }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
  int device_ = 0;
};

}  // namespace distributed_test
