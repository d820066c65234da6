#pragma once
// segmented_reduce of both CUDA backends: one block per segment, reducing it with the ordered
// block reduction of reduce, so its time follows the number and the longest of the segments
// rather than the bytes. The offsets are validated on the device first (one stream sync) so that
// bad offsets throw before any output is written.

#include <cuda_common/check.cuh>
#include <cuda_common/runtime/device_info.cuh>
#include <cuda_common/launch.cuh>
#include <cuda_common/policy.cuh>
#include <cuda_common/runtime/temporary.cuh>
#include <cuda_common/tile/tile_io.cuh>
#include <cuda_common/tile/tile_reduce.cuh>

#include <pscan/error.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace pscan::cuda {

// The block shape of the segment reductions: 256 threads of about 64 bytes each.
template <class A>
struct segmented_reduce_tuning {
  static constexpr int block_threads = 256;
  static constexpr int items = items_per_64_bytes_v<A>;
};

inline constexpr int check_offsets_block_threads = 256;
inline constexpr unsigned long long no_bad_offset = ~0ull;

// first_bad = the lowest i with offsets[0] < 0 (i = 0) or offsets[i] < offsets[i-1].
template <class OffIt>
__global__ void __launch_bounds__(check_offsets_block_threads)
    check_offsets_kernel(OffIt offsets, std::int64_t count, unsigned long long* first_bad) {
  const std::int64_t stride = std::int64_t{gridDim.x} * check_offsets_block_threads;
  for (std::int64_t i = std::int64_t{blockIdx.x} * check_offsets_block_threads + threadIdx.x;
       i < count; i += stride) {
    const auto here = static_cast<std::int64_t>(offsets[i]);
    const bool bad = i == 0 ? here < 0 : here < static_cast<std::int64_t>(offsets[i - 1]);
    if (bad) atomicMin(first_bad, static_cast<unsigned long long>(i));
  }
}

template <class Derived, class OffIt>
void check_offsets(const policy_base<Derived>& p, OffIt offsets, std::int64_t count) {
  temporary_buffer<unsigned long long> first_bad(1, p);
  PSCAN_CUDA_CHECK(cudaMemsetAsync(first_bad.data(), 0xff, sizeof(unsigned long long), p.stream));
  const std::int64_t blocks =
      std::min<std::int64_t>(ceil_div<std::int64_t>(count, check_offsets_block_threads),
                             std::int64_t{current_device_info().sm_count} * 8);
  check_offsets_kernel<<<static_cast<unsigned>(blocks), check_offsets_block_threads, 0, p.stream>>>(
      offsets, count, first_bad.data());
  PSCAN_CUDA_CHECK_LAUNCH();
  unsigned long long bad = no_bad_offset;
  PSCAN_CUDA_CHECK(
      cudaMemcpyAsync(&bad, first_bad.data(), sizeof bad, cudaMemcpyDeviceToHost, p.stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  if (bad == 0) {
    throw invalid_argument(
        "pscan::segmented_reduce: `offsets` must be non-negative (offsets[0] < 0)");
  }
  if (bad != no_bad_offset) {
    throw invalid_argument("pscan::segmented_reduce: `offsets` must be non-decreasing (offsets[" +
                           std::to_string(bad) + "] < offsets[" + std::to_string(bad - 1) + "])");
  }
}

// out[s] = init op values[offsets[s]] op ... op values[offsets[s+1]-1], or init when empty.
template <class A, class InIt, class OffIt, class OutIt, class Op>
__global__ void __launch_bounds__(segmented_reduce_tuning<A>::block_threads)
    segmented_reduce_kernel(InIt values, OffIt offsets, std::int64_t segments, OutIt out, A init,
                            Op op) {
  using cfg = segmented_reduce_tuning<A>;
  using range = block_range_reduce<A, cfg::block_threads, cfg::items>;
  __shared__ typename range::storage storage;
  const std::int64_t segment = grid_block_index();
  if (segment >= segments) return;
  const auto begin = static_cast<std::int64_t>(offsets[segment]);
  const auto end = static_cast<std::int64_t>(offsets[segment + 1]);
  bool has_total;
  const A total = range::reduce(values + begin, end - begin, op, storage, has_total);
  if (threadIdx.x == 0) out[segment] = has_total ? static_cast<A>(op(init, total)) : init;
}

// The segmented_reduce of both backends, on the policy's stream with its resource (named apart
// from it: ADL on a backend policy also finds pscan::cuda, the namespace of its base).
template <class Derived, class InIt, class OffIt, class OutIt, class T, class Op>
void reduce_segments(const policy_base<Derived>& p, InIt values, OffIt offsets_first,
                     OffIt offsets_last, OutIt out, T init, Op op) {
  const std::int64_t count = offsets_last - offsets_first;
  check_offsets(p, offsets_first, count);
  const std::int64_t segments = count - 1;
  segmented_reduce_kernel<T>
      <<<grid_for(segments), segmented_reduce_tuning<T>::block_threads, 0, p.stream>>>(
          values, offsets_first, segments, out, init, op);
  PSCAN_CUDA_CHECK_LAUNCH();
}

}  // namespace pscan::cuda
