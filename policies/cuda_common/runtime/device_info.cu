// Cached device properties and kernel occupancies, filled on first use per device.

#include <cuda_common/check.cuh>
#include <cuda_common/runtime/device_info.cuh>

#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

namespace pscan::cuda {
namespace {

int current_device() {
  int device = 0;
  PSCAN_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

int attribute(cudaDeviceAttr attr, int device) {
  int value = 0;
  PSCAN_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, device));
  return value;
}

device_info read_device_info(int device) {
  device_info info;
  info.sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
  info.pageable_memory_access = attribute(cudaDevAttrPageableMemoryAccess, device) != 0;
  return info;
}

std::mutex cache_mutex;

// The value cached under `k`, from `query` (run under the lock) the first time.
template <class Key, class Query>
int cached(std::map<Key, int>& cache, const Key& k, Query query) {
  std::lock_guard<std::mutex> lock(cache_mutex);
  const auto found = cache.find(k);
  if (found != cache.end()) return found->second;
  const int value = query();
  cache.emplace(k, value);
  return value;
}

}  // namespace

const device_info& current_device_info() {
  // unique_ptr elements: references stay valid when the vector grows.
  static std::vector<std::unique_ptr<device_info>> cache;
  const int device = current_device();
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (cache.size() <= static_cast<std::size_t>(device)) cache.resize(device + 1);
  if (!cache[device]) cache[device] = std::make_unique<device_info>(read_device_info(device));
  return *cache[device];
}

int max_active_blocks_per_sm(const void* kernel, int block_threads) {
  using key = std::tuple<int, const void*, int>;
  static std::map<key, int> cache;
  return cached(cache, key{current_device(), kernel, block_threads}, [&] {
    int blocks = 0;
    PSCAN_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, 0));
    return blocks;
  });
}

int max_cluster_blocks(const void* kernel, int block_threads) {
  using key = std::tuple<int, const void*, int>;
  static std::map<key, int> cache;
  const int device = current_device();
  // One lock per call: the capability is read in the query, not through current_device_info.
  return cached(cache, key{device, kernel, block_threads}, [&] {
    if (attribute(cudaDevAttrComputeCapabilityMajor, device) < 9) return 1;  // clusters: sm_90+
    PSCAN_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1);
    config.blockDim = dim3(static_cast<unsigned>(block_threads));
    int blocks = 0;
    PSCAN_CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&blocks, kernel, &config));
    return blocks;
  });
}

void prefer_shared_memory(const void* kernel) {
  using key = std::pair<int, const void*>;
  static std::map<key, int> carveout;  // the carveout asked for, per device and kernel
  cached(carveout, key{current_device(), kernel}, [&] {
    PSCAN_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
    return static_cast<int>(cudaSharedmemCarveoutMaxShared);
  });
}

}  // namespace pscan::cuda
