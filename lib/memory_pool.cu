// Temporary device memory: the caller's device_resource, or one cudaMemPool_t per device whose
// release threshold keeps freed memory in the pool, so steady-state calls reuse it without
// cudaMalloc/cudaFree and without synchronising the device.

#include <cuda_common/check.cuh>
#include <cuda_common/runtime/temporary.cuh>

#include <cstdint>
#include <mutex>
#include <vector>

namespace pscan::cuda_common {
namespace {

cudaMemPool_t create_pool(int device) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  PSCAN_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  std::uint64_t keep_everything = UINT64_MAX;
  PSCAN_CUDA_CHECK(
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
  return pool;
}

// The pools live as long as the process: destroying them from a static destructor could run
// after the CUDA runtime has shut down.
cudaMemPool_t device_pool() {
  static std::mutex mutex;
  static std::vector<cudaMemPool_t> pools;
  int device = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(mutex);
  if (pools.size() <= static_cast<std::size_t>(device)) pools.resize(device + 1, nullptr);
  if (pools[device] == nullptr) pools[device] = create_pool(device);
  return pools[device];
}

}  // namespace

void* allocate_temporary(std::size_t bytes, cudaStream_t stream, device_resource* resource) {
  if (bytes == 0) return nullptr;
  if (resource != nullptr) {
    void* p = resource->allocate(bytes, stream);
    if (p == nullptr) {
      throw_cuda_error(cudaErrorMemoryAllocation, "device_resource::allocate", __FILE__, __LINE__);
    }
    return p;
  }
  void* p = nullptr;
  // While a stream is captured into a graph, only the device's default pool can serve (as a graph
  // memory node), and creating a pool is not permitted.
  if (is_capturing(stream)) {
    PSCAN_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
  } else {
    PSCAN_CUDA_CHECK(cudaMallocFromPoolAsync(&p, bytes, device_pool(), stream));
  }
  return p;
}

void deallocate_temporary(void* p, std::size_t bytes, cudaStream_t stream,
                          device_resource* resource) noexcept {
  if (p == nullptr) return;
  if (resource != nullptr) {
    try {
      resource->deallocate(p, bytes, stream);
    } catch (...) {
      // A destructor cannot report it; the resource keeps the memory.
    }
    return;
  }
  if (cudaFreeAsync(p, stream) != cudaSuccess) {
    (void)cudaGetLastError();  // not reported later by an unrelated launch check
  }
}

}  // namespace pscan::cuda_common
