#pragma once
// Checking CUDA runtime calls and kernel launches: a failure throws pscan::cuda_error with the
// error code, its name, the failing call's text, file and line (formatted in libpscan).

#include <pscan/error.hpp>

#include <cuda_runtime.h>

namespace pscan::runtime {

// Clears the thread's last-error state (so a later PSCAN_CUDA_CHECK_LAUNCH does not report this
// error again) and throws pscan::cuda_error.
[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

}  // namespace pscan::runtime

#define PSCAN_CUDA_CHECK(call)                                                              \
  do {                                                                                      \
    const cudaError_t pscan_cuda_status_ = (call);                                          \
    if (pscan_cuda_status_ != cudaSuccess) {                                                \
      ::pscan::runtime::throw_cuda_error(pscan_cuda_status_, #call, __FILE__, __LINE__);    \
    }                                                                                       \
  } while (0)

// Right after a <<<...>>> launch: reports a bad configuration or an earlier asynchronous error.
#define PSCAN_CUDA_CHECK_LAUNCH()                                                              \
  do {                                                                                         \
    const cudaError_t pscan_cuda_status_ = cudaGetLastError();                                 \
    if (pscan_cuda_status_ != cudaSuccess) {                                                   \
      ::pscan::runtime::throw_cuda_error(pscan_cuda_status_, "kernel launch", __FILE__,        \
                                         __LINE__);                                            \
    }                                                                                          \
  } while (0)

namespace pscan::runtime {

// Whether `stream` is capturing a graph (work enqueued now is recorded, not run).
inline bool is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  PSCAN_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
  return capture != cudaStreamCaptureStatusNone;
}

}  // namespace pscan::runtime
