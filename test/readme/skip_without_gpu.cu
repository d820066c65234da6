// Linked into the CUDA build of README's API tour: without a CUDA device the program exits 77
// (CTest: skipped) before main, so that the tour itself carries no test code.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace {

[[maybe_unused]] const bool has_cuda_device = [] {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("pscan_readme_tour_cuda: skipped: no CUDA device");
    std::exit(77);
  }
  return true;
}();

}  // namespace
