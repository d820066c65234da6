// The GPU part of pscan-scaling: device buffers, the policy on a stream of its own, each run
// synchronised before its clock stops. Ranks on one host take the host's devices in turn.

#include <pscan/runtime/check.cuh>

#if PSCAN_SCALING_NCCL
#include <pscan/policies/distributed/nccl/nccl.hpp>
#endif

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_runs.hpp"

namespace scaling {
namespace {

// This rank's place among the ranks of its host.
int host_rank() {
  MPI_Comm host;
  int r = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  MPI_Comm_rank(host, &r);
  MPI_Comm_free(&host);
  return r;
}

template <class V, class Local>
result run_on_device(const Local& local, const options& o, bool distributed, int rank,
                     cudaStream_t stream) {
  const std::vector<V> host_in =
      make_input<V>(o.n, rank, distributed ? MPI_COMM_WORLD : MPI_COMM_NULL);
  const std::size_t bytes = host_in.size() * sizeof(V);
  V *in = nullptr, *out = nullptr;
  PSCAN_CUDA_CHECK(cudaMalloc(&in, bytes));
  PSCAN_CUDA_CHECK(cudaMalloc(&out, bytes));
  PSCAN_CUDA_CHECK(cudaMemcpy(in, host_in.data(), bytes, cudaMemcpyHostToDevice));
  const auto finish = [&] { PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream)); };
  const auto download = [&] {
    std::vector<V> values(host_in.size());
    PSCAN_CUDA_CHECK(cudaMemcpy(values.data(), out, bytes, cudaMemcpyDeviceToHost));
    return values;
  };
  result r;
  if (!distributed) {
    r = measure_single(local, in, out, o.n, host_in, o.runs, finish, download);
  } else if (o.exchange == "mpi") {
    r = measure_distributed(pscan::distributed(MPI_COMM_WORLD, local), in, out, o.n, host_in,
                            o.runs, 0, finish, download);
  } else {
#if PSCAN_SCALING_NCCL
    const pscan::nccl_communicator gpus(MPI_COMM_WORLD);
    r = measure_distributed(pscan::distributed(gpus, local), in, out, o.n, host_in, o.runs, 1,
                            finish, download);
#else
    throw std::runtime_error("this build of pscan-scaling has no NCCL exchange");
#endif
  }
  PSCAN_CUDA_CHECK(cudaFree(in));
  PSCAN_CUDA_CHECK(cudaFree(out));
  return r;
}

template <class V>
result run_typed(const options& o, bool distributed, int rank, cudaStream_t stream) {
  if (o.policy == "cuda_chained") {
    return run_on_device<V>(pscan::cuda_chained.on(stream), o, distributed, rank, stream);
  }
  return run_on_device<V>(pscan::cuda_multipass.on(stream), o, distributed, rank, stream);
}

}  // namespace

result run_cuda(const options& o, bool distributed, int rank) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    throw std::runtime_error("no CUDA device");
  }
  if (distributed) {
    const int place = host_rank();
    if (o.exchange == "nccl" && place >= devices) {
      throw std::runtime_error("more ranks on this host than its " + std::to_string(devices) +
                               " GPU(s): NCCL needs a GPU for each rank");
    }
    PSCAN_CUDA_CHECK(cudaSetDevice(place % devices));
  }
  cudaStream_t stream = nullptr;
  PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const result r = o.type == "float" ? run_typed<float>(o, distributed, rank, stream)
                                     : run_typed<std::int32_t>(o, distributed, rank, stream);
  PSCAN_CUDA_CHECK(cudaStreamDestroy(stream));
  return r;
}

}  // namespace scaling
