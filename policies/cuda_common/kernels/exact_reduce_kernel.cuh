#pragma once
// exact_reduce_kernel, the one launch of the exact_plus reductions (algorithms/exact_reduce.cuh):
// each block sums its share of the values exactly: each thread in double additions where they
// are exact (thread/thread_exact_expansion.cuh), the rest in its window, and the block's
// threads into its chunks (block/block_exact_sum.cuh). It adds those into the call's accumulator
// in global memory (atomics: integer addition, order-free); the last block to finish publishes
// the total with init into the sink (device_result.cuh) and returns the accumulator to 0 for the
// next call.

#include <pscan/policies/cuda_common/block/block_exact_sum.cuh>
#include <pscan/policies/cuda_common/grid/last_block.cuh>
#include <pscan/policies/cuda_common/thread/thread_exact_expansion.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>

#include <pscan/detail/exact_window.hpp>

#include <pscan/future_value.hpp>

#include <cstdint>

namespace pscan::cuda_common {

namespace exact_reduce_impl {

using pscan::detail::exact_sum;
using pscan::detail::exact_window;

inline constexpr int threads = exact_reduce_tuning::threads;
inline constexpr int items = exact_reduce_tuning::items;
inline constexpr std::int64_t max_block_values = exact_reduce_tuning::max_block_values;
static_assert(max_block_values / threads <= thread_exact_expansion<double>::max_terms &&
                  max_block_values / threads <= thread_exact_expansion<float>::max_terms,
              "a thread's expansion takes all of its values before its one flush");

// The call's accumulator: all 0 when the kernel starts, and again when it ends.
template <class T>
struct accumulator {
  unsigned long long chunk[exact_window<T>::chunk_count];
  unsigned long long specials[4];  // exact_specials, in order
  unsigned int done;               // blocks finished
};

// The kernel's init: an exact sum made on the host from a value, or a future_value of T, read
// by the last block.
template <class Init>
struct exact_init_traits {
  using value_type = typename Init::value_type;
};
template <class T>
__device__ exact_sum<T> exact_init_sum(const exact_sum<T>& init) {
  return init;
}
template <class T>
__device__ exact_sum<T> exact_init_sum(const future_value<T>& init) {
  return exact_sum<T>::of(static_cast<const T&>(init));
}

template <class Archs, class T, class InIt, class Init, class Sink>
__global__ void __launch_bounds__(threads)
    exact_reduce_kernel(InIt first, std::int64_t n, Init init, accumulator<T>* total,
                        Sink result) {
  using block_sum = block_exact_sum<T, threads>;
  constexpr int chunks = block_sum::chunks;
  __shared__ typename block_sum::storage storage;
  __shared__ bool is_last;
  block_sum::start(storage);
  auto spill = block_sum::spill_of(storage);
  auto window = exact_window<T>::empty();
  thread_exact_expansion<T> expansion;
  constexpr std::int64_t step = std::int64_t{threads} * items;
  constexpr int steps_per_flush = exact_window<T>::max_terms / items;
  int steps = 0;
  for (std::int64_t start = blockIdx.x * step; start < n; start += step * gridDim.x) {
    if (++steps == steps_per_flush) {
      window.flush(spill);
      steps = 0;
    }
    T v[items];
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const std::int64_t i = start + j * threads + threadIdx.x;
      v[j] = i < n ? static_cast<T>(first[i]) : T(-0.0);  // -0: the terms' identity
    }
#pragma unroll
    for (int j = 0; j < items; ++j) expansion.add(v[j], window, spill);
  }
  expansion.flush(window, spill);
  block_sum::finish(window, storage);

  if (threadIdx.x < chunks && storage.chunk[threadIdx.x] != 0) {
    atomicAdd(&total->chunk[threadIdx.x], static_cast<unsigned long long>(storage.chunk[threadIdx.x]));
  }
  if (threadIdx.x < 4 && storage.specials[threadIdx.x] != 0) {
    atomicAdd(&total->specials[threadIdx.x], storage.specials[threadIdx.x]);
  }
  __threadfence();  // release this thread's additions before the block counts itself done
  __syncthreads();
  if (threadIdx.x == 0) is_last = arrives_last(&total->done, gridDim.x);
  __syncthreads();
  if (!is_last) return;

  // The last block: takes the total, leaving 0 behind.
  if (threadIdx.x < chunks) {
    storage.chunk[threadIdx.x] =
        static_cast<std::int64_t>(atomicExch(&total->chunk[threadIdx.x], 0));
  }
  if (threadIdx.x < 4) storage.specials[threadIdx.x] = atomicExch(&total->specials[threadIdx.x], 0);
  __syncthreads();
  if (threadIdx.x == 0) {
    result.publish(exact_init_sum(init) +
                   exact_sum<T>::of_chunks(storage.chunk, block_sum::specials(storage)));
  }
}

}  // namespace exact_reduce_impl

}  // namespace pscan::cuda_common
