// The pinned slots behind cuda::read_back: one per host thread, grown on demand and kept for the
// thread's life (never freed at exit: that may run after the CUDA runtime has shut down).

#include <cuda_common/read_back.cuh>

namespace pscan::cuda {

void* pinned_slot(std::size_t bytes) {
  struct slot {
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  thread_local slot s;
  if (s.bytes < bytes) {
    void* grown = nullptr;
    PSCAN_CUDA_CHECK(cudaHostAlloc(&grown, bytes, cudaHostAllocPortable));
    if (s.data != nullptr) PSCAN_CUDA_CHECK(cudaFreeHost(s.data));
    s = slot{grown, bytes};
  }
  return s.data;
}

}  // namespace pscan::cuda
