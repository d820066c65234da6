// The GPU part of pscan-scaling: device buffers, the policy on a stream of its own, each run
// synchronised before its clock stops. Ranks on one host take the host's devices in turn.

#include <cuda_common/check.cuh>

#include <cuda_runtime.h>

#include <stdexcept>
#include <vector>

#include "cuda_runs.hpp"

namespace scaling {
namespace {

template <class Policy>
result run_on_device(const Policy& policy, const options& o, bool distributed, int rank,
                     cudaStream_t stream) {
  const std::vector<std::int32_t> host_in = make_input(o.n, rank);
  const std::size_t bytes = host_in.size() * sizeof(std::int32_t);
  std::int32_t *in = nullptr, *out = nullptr;
  PSCAN_CUDA_CHECK(cudaMalloc(&in, bytes));
  PSCAN_CUDA_CHECK(cudaMalloc(&out, bytes));
  PSCAN_CUDA_CHECK(cudaMemcpy(in, host_in.data(), bytes, cudaMemcpyHostToDevice));
  const auto finish = [&] { PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream)); };
  const auto download = [&] {
    std::vector<std::int32_t> values(host_in.size());
    PSCAN_CUDA_CHECK(cudaMemcpy(values.data(), out, bytes, cudaMemcpyDeviceToHost));
    return values;
  };
  const result r =
      distributed ? measure_distributed(policy, in, out, o.n, host_in, o.runs, finish, download)
                  : measure_single(policy, in, out, o.n, host_in, o.runs, finish, download);
  PSCAN_CUDA_CHECK(cudaFree(in));
  PSCAN_CUDA_CHECK(cudaFree(out));
  return r;
}

}  // namespace

result run_cuda(const options& o, bool distributed, int rank) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    throw std::runtime_error("no CUDA device");
  }
  if (distributed) {
    MPI_Comm host;
    int host_rank = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &host_rank);
    MPI_Comm_free(&host);
    PSCAN_CUDA_CHECK(cudaSetDevice(host_rank % devices));
  }
  cudaStream_t stream = nullptr;
  PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const result r =
      o.policy == "cuda_chained"
          ? run_on_device(pscan::cuda_chained.on(stream), o, distributed, rank, stream)
          : run_on_device(pscan::cuda_multipass.on(stream), o, distributed, rank, stream);
  PSCAN_CUDA_CHECK(cudaStreamDestroy(stream));
  return r;
}

}  // namespace scaling
