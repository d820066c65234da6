// Rejecting host memory the device cannot access, before any work is queued. A call checks each
// pointer argument, and cudaPointerGetAttributes would be a fifth of a small call's host cost: so
// each thread remembers the last device allocations it has seen (their whole address ranges,
// from the driver). Device address space stays device address space for the life of the process:
// the driver reserves it, and host memory is never placed there.

#include <pscan/error.hpp>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>
#include <pscan/runtime/pointer_check.cuh>

#include <cuda.h>

#include <cstdint>
#include <string>

namespace pscan::runtime {
namespace {

using address_range_query = CUresult (*)(CUdeviceptr* base, std::size_t* size, CUdeviceptr p);

// cuMemGetAddressRange through the runtime, so that libpscan needs no link to the driver library;
// nullptr where the driver does not offer it (then nothing is remembered).
address_range_query address_range_entry() {
  static const address_range_query entry = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &function, 12000,
                                         cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      static_cast<void>(cudaGetLastError());
      return address_range_query{nullptr};
    }
    return reinterpret_cast<address_range_query>(function);
  }();
  return entry;
}

struct device_range {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;  // empty while begin == end
};

// The last device allocations this thread passed to pscan, replaced round robin.
class known_ranges {
 public:
  bool contain(std::uintptr_t p) const {
    for (const device_range& r : ranges_) {
      if (p >= r.begin && p < r.end) return true;
    }
    return false;
  }
  void remember(std::uintptr_t p) {
    const address_range_query query = address_range_entry();
    CUdeviceptr base = 0;
    std::size_t size = 0;
    if (query == nullptr || query(&base, &size, static_cast<CUdeviceptr>(p)) != CUDA_SUCCESS) return;
    ranges_[next_] = device_range{static_cast<std::uintptr_t>(base),
                                  static_cast<std::uintptr_t>(base) + size};
    next_ = (next_ + 1) % capacity;
  }

 private:
  static constexpr int capacity = 8;
  device_range ranges_[capacity];
  int next_ = 0;
};

thread_local known_ranges seen;

}  // namespace

void check_device_accessible(const char* algorithm, const char* argument, const void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  if (seen.contain(address)) return;
  cudaPointerAttributes attributes = {};
  PSCAN_CUDA_CHECK(cudaPointerGetAttributes(&attributes, p));
  bool accessible = true;
  switch (attributes.type) {
    case cudaMemoryTypeDevice:
    case cudaMemoryTypeManaged:
      seen.remember(address);
      break;
    case cudaMemoryTypeHost:  // pinned: accessible when mapped into the device's address space
      accessible = attributes.devicePointer != nullptr;
      break;
    default:  // unregistered (pageable) host memory: only with HMM/ATS
      accessible = current_device_info().pageable_memory_access;
      break;
  }
  if (!accessible) {
    throw invalid_argument(std::string(algorithm) + ": `" + argument +
                           "` points to host memory the CUDA device cannot access (use device, "
                           "managed or mapped pinned memory)");
  }
}

}  // namespace pscan::runtime
