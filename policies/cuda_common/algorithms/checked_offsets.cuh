#pragma once
// Offsets checked on the device before anything is written: a grid-strided pass finds the first
// offset that breaks the contract (offsets[0] < 0, or one below its predecessor), and the host
// waits for it. The same pass reads the first and last offset, the range the segments cover.
// segmented_reduce's checked mode runs it; the scans by offsets always do (their kernels are
// sized by that range).

#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>

#include <pscan/detail/host_offsets.hpp>
#include <pscan/error.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace pscan::cuda_common {

inline constexpr int check_offsets_block_threads = 256;

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

// Checks offsets[0 .. count) (count >= 1) and waits: throws pscan::invalid_argument for a bad
// one, naming `algorithm`, before any write; else returns the range the segments cover. Under
// graph capture it throws instead, ending its message with `remedy` (may be empty).
template <class Derived, class OffIt>
offsets_check check_offsets(const policy_base<Derived>& p, const char* algorithm, OffIt offsets,
                            std::int64_t count, const char* remedy = "") {
  if (runtime::is_capturing(p.stream)) {
    throw invalid_argument(std::string(algorithm) +
                           ": the check of the offsets waits for the device, which a stream "
                           "capturing a CUDA graph cannot" + remedy);
  }
  temporary_buffer<offsets_check> found(1, p);
  PSCAN_CUDA_CHECK(cudaMemsetAsync(&found.data()->first_bad, 0xff, sizeof(unsigned long long),
                                   p.stream));
  const std::int64_t blocks =
      std::min<std::int64_t>(ceil_div<std::int64_t>(count, check_offsets_block_threads),
                             std::int64_t{runtime::current_device_info().sm_count} * 8);
  check_offsets_kernel<<<static_cast<unsigned>(blocks), check_offsets_block_threads, 0, p.stream>>>(
      offsets, count, found.data());
  PSCAN_CUDA_CHECK_LAUNCH();
  offsets_check result{};
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(&result, found.data(), sizeof result, cudaMemcpyDeviceToHost,
                                   p.stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  if (result.first_bad != no_bad_offset) {
    throw pscan::detail::offsets_error(algorithm, static_cast<std::int64_t>(result.first_bad));
  }
  return result;
}

}  // namespace pscan::cuda_common
