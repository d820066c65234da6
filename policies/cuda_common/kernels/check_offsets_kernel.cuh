#pragma once
// The offsets' check on the device: find_first_bad_offset (a grid-strided pass), the block-wide
// report_first_bad_offset of the kernels that find bad offsets as they walk, and
// check_offsets_kernel, the checked mode's separate pass (algorithms/checked_offsets.cuh).

#include <pscan/policies/cuda_common/kernels/bad_offsets_report.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

#include <pscan/runtime/device_info.cuh>

#include <cstdint>

namespace pscan::cuda_common {

// *first_bad = min(*first_bad, the lowest i of [from, to) with offsets[0] < 0 (i = 0) or
// offsets[i] < offsets[i-1]); the whole grid strides over the range.
template <class OffIt>
__device__ void find_first_bad_offset(OffIt offsets, std::int64_t from, std::int64_t to,
                                      std::int64_t thread, std::int64_t threads,
                                      unsigned long long* first_bad) {
  for (std::int64_t i = from + thread; i < to; i += threads) {
    const auto here = static_cast<std::int64_t>(offsets[i]);
    if (i == 0 ? here < 0 : here < static_cast<std::int64_t>(offsets[i - 1])) {
      atomicMin(first_bad, static_cast<unsigned long long>(i));
      return;  // the thread's later indices are higher
    }
  }
}

// Run by a whole block (on the error path only): finds the first bad offset of offsets[from ..
// to), in chunks from the front, and reports it (atomicMin into *report).
template <int BLOCK_THREADS, class OffIt>
__device__ void report_first_bad_offset(OffIt offsets, std::int64_t from, std::int64_t to,
                                        unsigned long long* report) {
  __shared__ unsigned long long first_bad;
  if (threadIdx.x == 0) first_bad = no_bad_offset;
  __syncthreads();
  constexpr std::int64_t chunk = BLOCK_THREADS * 64;
  for (std::int64_t at = from; at < to; at += chunk) {
    find_first_bad_offset(offsets, at, min(at + chunk, to), threadIdx.x, BLOCK_THREADS,
                          &first_bad);
    if (__syncthreads_or(first_bad != no_bad_offset)) break;
  }
  if (threadIdx.x == 0 && first_bad != no_bad_offset) atomicMin(report, first_bad);
}

// What the check found: the first bad offset (no_bad_offset if none) and the range
// [offsets[0], offsets[count-1]).
struct offsets_check {
  unsigned long long first_bad;
  std::int64_t first;
  std::int64_t last;
};

template <class OffIt>
__global__ void __launch_bounds__(check_offsets_block_threads)
    check_offsets_kernel(OffIt offsets, std::int64_t count, offsets_check* result) {
  const std::int64_t thread = std::int64_t{blockIdx.x} * check_offsets_block_threads + threadIdx.x;
  if (thread == 0) {
    result->first = static_cast<std::int64_t>(offsets[0]);
    result->last = static_cast<std::int64_t>(offsets[count - 1]);
  }
  find_first_bad_offset(offsets, 0, count, thread,
                        std::int64_t{gridDim.x} * check_offsets_block_threads, &result->first_bad);
}

}  // namespace pscan::cuda_common
