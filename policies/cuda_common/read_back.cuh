#pragma once
// Returning a device value to the host (reduce). The copy goes through a pinned slot per host
// thread: into pageable memory, cudaMemcpyAsync stages the bytes and costs several microseconds,
// which is most of a small reduce.

#include <cuda_common/check.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace pscan::cuda {

// At least `bytes` of pinned host memory owned by the calling thread (lib/pinned_slot.cu).
void* pinned_slot(std::size_t bytes);

// Waits for the stream's work and returns *device_value.
template <class T>
T read_back(const T* device_value, cudaStream_t stream) {
  static_assert(std::is_trivially_copyable_v<T>, "pscan: GPU value types must be trivially copyable");
  void* slot = pinned_slot(sizeof(T));
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(slot, device_value, sizeof(T), cudaMemcpyDeviceToHost, stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(stream));
  T value;
  std::memcpy(&value, slot, sizeof(T));
  return value;
}

}  // namespace pscan::cuda
