// PSCAN_CUDA_CHECK's slow path: a pscan::cuda_error with the code, its name, the call and where.

#include <pscan/runtime/check.cuh>

namespace pscan::runtime {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  // Reset the thread's last error, or the next PSCAN_CUDA_CHECK_LAUNCH would report it again.
  (void)cudaGetLastError();
  throw cuda_error(static_cast<int>(code), cudaGetErrorName(code), call, file, line,
                   cudaGetErrorString(code));
}

}  // namespace pscan::runtime
