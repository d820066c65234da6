#pragma once
// reduce, reduce_into and transform_reduce with pscan::exact_plus on both CUDA policies: one
// launch of one wave of blocks. Each thread sums its values in an exact_window (128 bits in
// registers), which spills into its warp's 32-bit chunks in shared memory (atomics: integer
// addition, order-free); each block adds its chunks into the call's accumulator in global memory
// (atomics again), and the last block to finish rounds the total, publishes it into the sink
// (device_result.cuh) and returns the accumulator to 0 for the next call. The sum is exact, so
// the grid, the block order and the GPU change no bit of it.

#include <pscan/policies/cuda_common/check.cuh>
#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/target.cuh>

#include <pscan/detail/exact_window.hpp>

#include <algorithm>
#include <cstdint>

namespace pscan::cuda_common {
namespace exact_reduce_impl {

using pscan::detail::exact_specials;
using pscan::detail::exact_sum;
using pscan::detail::exact_window;

inline constexpr int threads = 256;
// Values a thread loads before it adds them: eight loads in flight.
inline constexpr int items = 8;
// A block's warps take at most this many values, so that no chunk of theirs nears 2^63
// (three pieces below 2^32 a value at most).
inline constexpr std::int64_t max_block_values = std::int64_t{1} << 24;

// The call's accumulator: all 0 when the kernel starts, and again when it ends.
template <class T>
struct accumulator {
  unsigned long long chunk[exact_window<T>::chunk_count];
  unsigned long long specials[4];  // exact_specials, in order
  unsigned int done;               // blocks finished
};

template <class Archs, class T, class InIt, class Sink>
__global__ void __launch_bounds__(threads)
    exact_reduce_kernel(InIt first, std::int64_t n, exact_sum<T> init, accumulator<T>* total,
                        Sink result) {
  constexpr int chunks = exact_window<T>::chunk_count;
  constexpr int warps = threads / 32;
  __shared__ std::int64_t warp_chunks[warps][chunks];
  __shared__ std::int64_t block_chunks[chunks];
  __shared__ unsigned long long block_specials[4];
  __shared__ bool is_last;
  for (int k = threadIdx.x; k < warps * chunks; k += threads) warp_chunks[k / chunks][k % chunks] = 0;
  if (threadIdx.x < 4) block_specials[threadIdx.x] = 0;
  __syncthreads();

  std::int64_t* const spilled = warp_chunks[threadIdx.x / 32];
  const auto spill = [spilled](int k, std::int64_t piece) {
    atomicAdd(reinterpret_cast<unsigned long long*>(spilled + k),
              static_cast<unsigned long long>(piece));
  };
  auto window = exact_window<T>::empty();
  constexpr std::int64_t step = std::int64_t{threads} * items;
  for (std::int64_t start = blockIdx.x * step; start < n; start += step * gridDim.x) {
    T v[items];
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const std::int64_t i = start + j * threads + threadIdx.x;
      v[j] = i < n ? static_cast<T>(first[i]) : T(-0.0);  // -0: the terms' identity
    }
#pragma unroll
    for (int j = 0; j < items; ++j) window.add(v[j], spill);
  }
  window.flush(spill);
  const exact_specials& s = window.specials();
  const std::int64_t counts[4] = {s.nan, s.plus_infinity, s.minus_infinity, s.not_negative_zero};
  for (int c = 0; c < 4; ++c) {
    if (counts[c] != 0) {
      atomicAdd(&block_specials[c], static_cast<unsigned long long>(counts[c]));
    }
  }
  __syncthreads();

  // The block's chunks: its warps' sums, each split at 32 bits and its high part moved to the
  // next chunk, so each is below 2^33 whatever the count of values.
  if (threadIdx.x < chunks) {
    std::int64_t sum = 0;
    for (int w = 0; w < warps; ++w) sum += warp_chunks[w][threadIdx.x];
    block_chunks[threadIdx.x] = sum;
  }
  __syncthreads();
  if (threadIdx.x < chunks) {
    const int k = threadIdx.x;
    const std::int64_t kept = k + 1 < chunks ? block_chunks[k] & 0xffffffff : block_chunks[k];
    const std::int64_t v = kept + (k > 0 ? block_chunks[k - 1] >> 32 : 0);
    if (v != 0) atomicAdd(&total->chunk[k], static_cast<unsigned long long>(v));
  }
  if (threadIdx.x < 4 && block_specials[threadIdx.x] != 0) {
    atomicAdd(&total->specials[threadIdx.x], block_specials[threadIdx.x]);
  }
  __threadfence();  // release this thread's additions before the block counts itself done
  __syncthreads();
  if (threadIdx.x == 0) is_last = atomicAdd(&total->done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!is_last) return;

  // The last block: takes the total, leaving 0 behind.
  __threadfence();
  if (threadIdx.x < chunks) {
    block_chunks[threadIdx.x] = static_cast<std::int64_t>(atomicExch(&total->chunk[threadIdx.x], 0));
  }
  if (threadIdx.x < 4) block_specials[threadIdx.x] = atomicExch(&total->specials[threadIdx.x], 0);
  if (threadIdx.x == 0) atomicExch(&total->done, 0u);
  __syncthreads();
  if (threadIdx.x == 0) {
    const auto count = [](unsigned long long c) { return static_cast<std::int64_t>(c); };
    const exact_specials specials{count(block_specials[0]), count(block_specials[1]),
                                  count(block_specials[2]), count(block_specials[3])};
    result.publish(init + exact_sum<T>::of_chunks(block_chunks, specials));
  }
}

}  // namespace exact_reduce_impl

// The exact sum of first[0 .. n) (n >= 1) and init into the sink that make_sink() returns.
template <class P, class InIt, class T, class MakeSink>
auto exact_reduce_to_sink(const policy_base<P>& p, InIt first, std::int64_t n,
                          const pscan::detail::exact_sum<T>& init, MakeSink make_sink) {
  using namespace exact_reduce_impl;
  using sink_type = decltype(make_sink());
  const auto kernel = &exact_reduce_kernel<compiled_archs, T, InIt, sink_type>;
  const std::int64_t resident =
      std::int64_t{current_device_info().sm_count} *
      std::max(1, max_active_blocks_per_sm(reinterpret_cast<const void*>(kernel), threads));
  const std::int64_t blocks = std::max(std::min(resident, ceil_div(n, std::int64_t{threads} * items)),
                                       ceil_div(n, max_block_values));
  const call_scratch scratch(p, std::max(scratch_head_bytes, sizeof(accumulator<T>)),
                             exact_sum_layout);
  const sink_type sink = make_sink();
  kernel<<<static_cast<unsigned int>(blocks), threads, 0, p.stream>>>(
      first, n, init, static_cast<accumulator<T>*>(scratch.data()), sink);
  PSCAN_CUDA_CHECK_LAUNCH();
  return sink;
}

}  // namespace pscan::cuda_common
