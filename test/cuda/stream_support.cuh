#pragma once
// Streams for the CUDA tests: a non-blocking stream owned by the test, a kernel-side wait that
// keeps a stream busy, the work a function enqueues captured into an instantiated graph, copies in
// that stream's order; a chained policy on a stream, deterministic or not as a run-time choice.

#include <pscan/runtime/check.cuh>

#include <pscan/pscan.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace conformance {

class owned_stream {
 public:
  owned_stream() { PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;
  ~owned_stream() {
    if (const cudaError_t status = cudaStreamDestroy(stream_); status != cudaSuccess) {
      std::fprintf(stderr, "cudaStreamDestroy failed: %s\n", cudaGetErrorString(status));
    }
  }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Returns once the GPU's global clock has run `ns` nanoseconds past the call, mostly asleep.
__device__ inline void sleep_for_ns(std::uint64_t ns) {
  const auto clock_ns = [] {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
  };
  const std::uint64_t start = clock_ns();
  while (clock_ns() - start < ns) __nanosleep(1000);
}

// The work record() enqueues on `stream`, captured as a graph (no other thread may make unsafe
// calls meanwhile: cudaStreamCaptureModeGlobal) and instantiated.
class captured_graph {
 public:
  template <class Record>
  captured_graph(cudaStream_t stream, Record&& record) {
    PSCAN_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    try {
      record();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      if (cudaStreamEndCapture(stream, &partial) == cudaSuccess && partial != nullptr) {
        static_cast<void>(cudaGraphDestroy(partial));
      }
      throw;
    }
    PSCAN_CUDA_CHECK(cudaStreamEndCapture(stream, &graph_));
    PSCAN_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  captured_graph(const captured_graph&) = delete;
  captured_graph& operator=(const captured_graph&) = delete;
  ~captured_graph() {
    static_cast<void>(cudaGraphExecDestroy(exec_));
    static_cast<void>(cudaGraphDestroy(graph_));
  }

  void launch(cudaStream_t stream) const { PSCAN_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

  int kernel_nodes() const {
    std::size_t count = 0;
    PSCAN_CUDA_CHECK(cudaGraphGetNodes(graph_, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    PSCAN_CUDA_CHECK(cudaGraphGetNodes(graph_, nodes.data(), &count));
    int kernels = 0;
    for (cudaGraphNode_t node : nodes) {
      cudaGraphNodeType type{};
      PSCAN_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
      kernels += type == cudaGraphNodeTypeKernel;
    }
    return kernels;
  }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

template <class T>
void copy_to_device(T* device, const std::vector<T>& host, cudaStream_t stream) {
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(device, host.data(), host.size() * sizeof(T),
                                   cudaMemcpyHostToDevice, stream));
}

template <class T>
std::vector<T> copy_to_host(const T* device, std::size_t count, cudaStream_t stream) {
  std::vector<T> host(count);
  PSCAN_CUDA_CHECK(
      cudaMemcpyAsync(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

// f(pscan::cuda_chained.on(stream)), or with .deterministic() (a policy type of its own).
template <class F>
decltype(auto) with_chained_policy(cudaStream_t stream, bool deterministic, F&& f) {
  if (deterministic) return f(pscan::cuda_chained.on(stream).deterministic());
  return f(pscan::cuda_chained.on(stream));
}

}  // namespace conformance
