// Temporary device memory: the caller's resource, or one cudaMemPool_t per device whose release
// threshold keeps freed memory in the pool, so steady-state calls reuse it without
// cudaMalloc/cudaFree and without synchronising the device. The pool also serves the tile-state
// cache (scratch_cache.cu); release_device_pool and limit_device_pool control it.

#include <pscan/runtime/check.cuh>
#include <pscan/runtime/memory_pool.cuh>
#include <pscan/runtime/scratch_cache.cuh>

#include <cstdint>
#include <mutex>
#include <vector>

namespace pscan::runtime {

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

int current_device() {
  int device = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// The current device's pool, created on first use unless `create` is false (then nullptr until
// it exists). The pools live as long as the process: destroying them from a static destructor
// could run after the CUDA runtime has shut down.
cudaMemPool_t device_pool(bool create = true) {
  static std::mutex mutex;
  static std::vector<cudaMemPool_t> pools;
  const int device = current_device();
  std::lock_guard<std::mutex> lock(mutex);
  if (pools.size() <= static_cast<std::size_t>(device)) {
    if (!create) return nullptr;
    pools.resize(device + 1, nullptr);
  }
  if (pools[device] == nullptr && create) pools[device] = create_pool(device);
  return pools[device];
}

}  // namespace

void* allocate_from_device_pool(std::size_t bytes, cudaStream_t stream) {
  void* p = nullptr;
  PSCAN_CUDA_CHECK(cudaMallocFromPoolAsync(&p, bytes, device_pool(), stream));
  return p;
}

std::size_t device_pool_reserved_bytes() {
  const cudaMemPool_t pool = device_pool(false);
  if (pool == nullptr) return 0;
  std::uint64_t reserved = 0;
  PSCAN_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  return static_cast<std::size_t>(reserved);
}

void release_device_pool() {
  drop_cached_scratch();  // synchronises the device: every free queued so far has completed
  if (const cudaMemPool_t pool = device_pool(false); pool != nullptr) {
    PSCAN_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
  }
}

void limit_device_pool(std::size_t bytes) {
  std::uint64_t threshold = bytes;
  PSCAN_CUDA_CHECK(
      cudaMemPoolSetAttribute(device_pool(), cudaMemPoolAttrReleaseThreshold, &threshold));
}

void* allocate_temporary(std::size_t bytes, cudaStream_t stream, resource_handle resource) {
  if (bytes == 0) return nullptr;
  if (resource != nullptr) {
    void* p = resource.allocate(bytes, stream);
    if (p == nullptr) {
      throw_cuda_error(cudaErrorMemoryAllocation, "the policy's resource (.with): allocate",
                       __FILE__, __LINE__);
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
                          resource_handle resource) noexcept {
  if (p == nullptr) return;
  if (resource != nullptr) {
    try {
      resource.deallocate(p, bytes, stream);
    } catch (...) {
      // A destructor cannot report it; the resource keeps the memory.
    }
    return;
  }
  if (cudaFreeAsync(p, stream) != cudaSuccess) {
    (void)cudaGetLastError();  // not reported later by an unrelated launch check
  }
}

}  // namespace pscan::runtime
