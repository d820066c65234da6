// The doctest runner of every CUDA test executable. Without a usable CUDA device it reports the
// tests as skipped (exit code 77, the tests' SKIP_RETURN_CODE) instead of failing them.

#define DOCTEST_CONFIG_IMPLEMENT
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdio>

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device (%s)\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "none found");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
