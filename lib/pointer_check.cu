// Rejecting host memory the device cannot access, before any work is queued.

#include <cuda_common/check.cuh>
#include <cuda_common/runtime/device_info.cuh>
#include <cuda_common/policy.cuh>

#include <string>

namespace pscan::cuda_common {

void check_device_accessible(const char* algorithm, const char* argument, const void* p) {
  cudaPointerAttributes attributes = {};
  PSCAN_CUDA_CHECK(cudaPointerGetAttributes(&attributes, p));
  bool accessible = true;
  switch (attributes.type) {
    case cudaMemoryTypeDevice:
    case cudaMemoryTypeManaged:
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

}  // namespace pscan::cuda_common
