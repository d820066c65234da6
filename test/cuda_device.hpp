#pragma once
// Why this machine cannot run the CUDA tests, worded alike by every test runner (scripts/test
// groups the skipped tests by it): empty where a CUDA device is there to run them.

#include <cuda_runtime.h>

#include <string>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace pscan_test {

inline std::string no_cuda_device() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status == cudaSuccess) return devices > 0 ? std::string() : std::string("no CUDA device");
  if (status == cudaErrorNoDevice) return "no CUDA device";
  if (status == cudaErrorInsufficientDriver) {
#if defined(__linux__)
    // The runtime says so where no NVIDIA driver is loaded at all: a machine without a GPU.
    if (access("/proc/driver/nvidia/version", F_OK) != 0) return "no CUDA device";
#endif
    return "no CUDA device (the NVIDIA driver is older than CUDA runtime " +
           std::to_string(CUDART_VERSION / 1000) + "." +
           std::to_string(CUDART_VERSION % 1000 / 10) + ")";
  }
  return std::string("no CUDA device (cudaGetDeviceCount: ") + cudaGetErrorName(status) + ")";
}

}  // namespace pscan_test
