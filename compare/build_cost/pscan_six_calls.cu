// The build cost of pscan in a user's translation unit: six calls a CUDA program commonly makes
// (inclusive and exclusive scan, scan by key, segmented_reduce, reduce_by_key, reduce_into) on
// float values and int keys. cccl_six_calls.cu makes the same six through Thrust and CUB;
// scripts/build-cost compiles both and prints the ratio of their compile times.
#include <pscan/pscan.hpp>

void six_calls(const float* values, const int* keys, const int* offsets, int n, int segments,
               float* out, int* keys_out, float* sums, float* total) {
  const auto policy = pscan::cuda_chained;
  pscan::inclusive_scan(policy, values, values + n, out);
  pscan::exclusive_scan(policy, values, values + n, out, 0.0f);
  pscan::inclusive_scan_by_key(policy, keys, keys + n, values, out);
  pscan::segmented_reduce(policy, values, offsets, offsets + segments + 1, sums, 0.0f);
  pscan::reduce_by_key(policy, keys, keys + n, values, keys_out, sums);
  pscan::reduce_into(policy, values, values + n, total, 0.0f);
}
