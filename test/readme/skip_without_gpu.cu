// Linked into the CUDA build of README's API tour: without a CUDA device the program exits 77
// (CTest: skipped) before main, so that the tour itself carries no test code.
#include "cuda_device.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

[[maybe_unused]] const bool has_cuda_device = [] {
  if (const std::string why = pscan_test::no_cuda_device(); !why.empty()) {
    std::printf("pscan_readme_tour_cuda: skipped: %s\n", why.c_str());
    std::exit(77);
  }
  return true;
}();

}  // namespace
