#pragma once
// COMPARE_CUDA_CHECK(call): throws std::runtime_error naming the call, the error and file:line.

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace compare::gpu {

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* call, const char* file,
                                          int line) {
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                           cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

}  // namespace compare::gpu

#define COMPARE_CUDA_CHECK(call)                                                         \
  do {                                                                                   \
    const cudaError_t compare_cuda_status_ = (call);                                     \
    if (compare_cuda_status_ != cudaSuccess) {                                           \
      ::compare::gpu::throw_cuda_error(compare_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                                    \
  } while (0)
