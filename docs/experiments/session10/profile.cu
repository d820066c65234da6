// Session 10: the default and the deterministic chained scan of 2^28 floats, each run twice (the
// first call warms the caches of libpscan), for Nsight Compute's per-instruction stall sampling:
//   ncu --clock-control none --kernel-name regex:chained_scan_kernel --launch-skip 1 \
//       --launch-count 3 --section SourceCounters --section WarpStateStats -o prof ./profile
// (launches: default, default, det, det; skipping the first keeps one default and two det: the
// last is the det call after a warm one).
#include <pscan/pscan.hpp>

#include <cstdio>
#include <cuda_runtime.h>

int main() {
  const long long n = 1LL << 28;
  float *in, *out;
  if (cudaMalloc(&in, n * 4) != cudaSuccess || cudaMalloc(&out, n * 4) != cudaSuccess) return 1;
  cudaMemset(in, 0, n * 4);
  for (int run = 0; run < 2; ++run) pscan::inclusive_scan(pscan::cuda_chained, in, in + n, out);
  for (int run = 0; run < 2; ++run) {
    pscan::inclusive_scan(pscan::cuda_chained.deterministic(), in, in + n, out);
  }
  const cudaError_t status = cudaDeviceSynchronize();
  std::printf("profile: %s\n", cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
