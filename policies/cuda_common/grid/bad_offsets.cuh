#pragma once
// Bad offsets, across the blocks of a launch: the device's report (a word a device, the lowest
// bad index any kernel found, by atomicMin; no_bad_offset when none, taken by
// policy_base::synchronize()), the grid-strided search for the first bad offset, and the
// block-wide report of the kernels that find bad offsets as they walk.

#include <pscan/policies/cuda_common/utility.cuh>

#include <cstdint>

namespace pscan::cuda_common {

inline constexpr unsigned long long no_bad_offset = ~0ull;

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

}  // namespace pscan::cuda_common
