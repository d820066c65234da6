// The doctest runner of every CUDA test executable. Without a usable CUDA device it reports the
// tests as skipped (exit code 77, the tests' SKIP_RETURN_CODE) instead of failing them.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "cuda_device.hpp"

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (const std::string why = pscan_test::no_cuda_device(); !why.empty()) {
    std::printf("skipped: %s\n", why.c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
