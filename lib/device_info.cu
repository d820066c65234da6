// Cached device properties and kernel occupancies, filled on first use per device.

#include <pscan/error.hpp>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>
#include <pscan/runtime/target.cuh>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace pscan::runtime {
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

// The report word, set to "none" on a stream of its own: allowed while another thread's or this
// thread's stream captures a graph (relaxed mode for these calls), and ordered before any kernel
// that could use it (the host waits for the memset).
unsigned long long* allocate_report() {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  PSCAN_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  unsigned long long* report = nullptr;
  cudaStream_t stream = nullptr;
  cudaError_t status = cudaMalloc(&report, sizeof *report);
  if (status == cudaSuccess) status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (status == cudaSuccess) status = cudaMemsetAsync(report, 0xff, sizeof *report, stream);
  if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
  if (stream != nullptr) static_cast<void>(cudaStreamDestroy(stream));
  PSCAN_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  PSCAN_CUDA_CHECK(status);
  return report;
}

device_info read_device_info(int device) {
  device_info info;
  info.sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
  info.pageable_memory_access = attribute(cudaDevAttrPageableMemoryAccess, device) != 0;
  info.bad_offsets_report = allocate_report();
  return info;
}

std::mutex cache_mutex;

// The value cached under `k`, from `query` (run under the lock) the first time. Each thread also
// remembers the last key it looked up in each cache: the calls of a loop take no lock.
template <class Key, class Query>
int cached(std::map<Key, int>& cache, const Key& k, Query query) {
  thread_local const std::map<Key, int>* last_cache = nullptr;
  thread_local Key last_key{};
  thread_local int last_value = 0;
  if (last_cache == &cache && last_key == k) return last_value;
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto found = cache.find(k);
  if (found == cache.end()) found = cache.emplace(k, query()).first;
  last_cache = &cache;
  last_key = k;
  last_value = found->second;
  return last_value;
}

}  // namespace

const device_info& current_device_info() {
  // unique_ptr elements: references stay valid when the vector grows.
  static std::vector<std::unique_ptr<device_info>> cache;
  thread_local int last_device = -1;
  thread_local const device_info* last_info = nullptr;
  const int device = current_device();
  if (device == last_device) return *last_info;
  std::lock_guard<std::mutex> lock(cache_mutex);
  if (cache.size() <= static_cast<std::size_t>(device)) cache.resize(device + 1);
  if (!cache[device]) cache[device] = std::make_unique<device_info>(read_device_info(device));
  last_device = device;
  last_info = cache[device].get();
  return *last_info;
}

int max_active_blocks_per_sm(const void* kernel, int block_threads, int dynamic_shared_bytes) {
  using key = std::tuple<int, const void*, int, int>;
  static std::map<key, int> cache;
  return cached(cache, key{current_device(), kernel, block_threads, dynamic_shared_bytes}, [&] {
    int blocks = 0;
    PSCAN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads,
                                                                   dynamic_shared_bytes));
    return blocks;
  });
}

int max_cluster_blocks(const void* kernel, int block_threads) {
  using key = std::tuple<int, const void*, int>;
  static std::map<key, int> cache;
  const int device = current_device();
  return cached(cache, key{device, kernel, block_threads}, [&] {
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

target loaded_target(const void* probe, std::initializer_list<int> archs) {
  using key = std::pair<int, const void*>;
  static std::map<key, int> cache;
  const int device = current_device();
  return static_cast<target>(cached(cache, key{device, probe}, [&] {
    cudaFuncAttributes attributes{};
    const cudaError_t status = cudaFuncGetAttributes(&attributes, probe);
    if (status == cudaErrorInvalidDeviceFunction || status == cudaErrorNoKernelImageForDevice) {
      (void)cudaGetLastError();
      std::string built;
      for (const int arch : archs) built += (built.empty() ? "" : ", ") + std::to_string(arch / 10);
      throw cuda_error(static_cast<int>(status), cudaGetErrorName(status),
                       "cudaFuncGetAttributes(pscan's kernels)", __FILE__, __LINE__,
                       "the calling code was compiled for CUDA architectures " + built +
                           " and none of them runs on device " + std::to_string(device) +
                           " (compute capability " +
                           std::to_string(attribute(cudaDevAttrComputeCapabilityMajor, device)) +
                           "." +
                           std::to_string(attribute(cudaDevAttrComputeCapabilityMinor, device)) +
                           "): add it to CMAKE_CUDA_ARCHITECTURES");
    }
    PSCAN_CUDA_CHECK(status);
    return static_cast<int>(target_for(attributes.ptxVersion * 10));
  }));
}

namespace {

// cudaFuncSetAttribute(kernel, attribute, value) once per device, kernel, attribute and value.
void set_attribute_once(const void* kernel, cudaFuncAttribute attribute, int value) {
  using key = std::tuple<int, const void*, int, int>;
  static std::map<key, int> set;
  cached(set, key{current_device(), kernel, static_cast<int>(attribute), value}, [&] {
    PSCAN_CUDA_CHECK(cudaFuncSetAttribute(kernel, attribute, value));
    return value;
  });
}

}  // namespace

void allow_dynamic_shared_memory(const void* kernel, int bytes) {
  set_attribute_once(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

void prefer_shared_memory(const void* kernel) {
  set_attribute_once(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                     cudaSharedmemCarveoutMaxShared);
}

}  // namespace pscan::runtime
