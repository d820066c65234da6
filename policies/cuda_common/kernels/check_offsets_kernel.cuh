#pragma once
// check_offsets_kernel, the checked mode's separate pass over the offsets
// (algorithms/checked_offsets.cuh), a grid-strided find_first_bad_offset (grid/bad_offsets.cuh).

#include <pscan/policies/cuda_common/grid/bad_offsets.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>

#include <cstdint>

namespace pscan::cuda_common {

// What the check found: the first bad offset (no_bad_offset if none) and the range
// [offsets[0], offsets[count-1]).
struct offsets_check {
  unsigned long long first_bad;
  std::int64_t first;
  std::int64_t last;
};

// offsets[count - 1] past `values` (the policy's values_count) marks the last offset bad.
template <class OffIt>
__global__ void __launch_bounds__(check_offsets_block_threads)
    check_offsets_kernel(OffIt offsets, std::int64_t count, std::int64_t values,
                         offsets_check* result) {
  const std::int64_t thread = std::int64_t{blockIdx.x} * check_offsets_block_threads + threadIdx.x;
  if (thread == 0) {
    result->first = static_cast<std::int64_t>(offsets[0]);
    result->last = static_cast<std::int64_t>(offsets[count - 1]);
    if (result->last > values) {
      atomicMin(&result->first_bad, static_cast<unsigned long long>(count - 1));
    }
  }
  find_first_bad_offset(offsets, 0, count, thread,
                        std::int64_t{gridDim.x} * check_offsets_block_threads, &result->first_bad);
}

}  // namespace pscan::cuda_common
