#pragma once
// reduce_kernel, the one launch of cuda_chained's reduce and reduce_into (reduce.cuh): block b
// reduces the b-th contiguous share of the input and writes its partial; the last block to finish
// (grid/last_block.cuh) combines the partials in block order, init first, and publishes the value
// into the call's sink.

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/tuning.cuh>

#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/grid/last_block.cuh>
#include <pscan/policies/cuda_common/target.cuh>

#include <cstdint>

namespace pscan::cuda_chained_backend {
namespace impl {

template <class Archs, class A, class InIt, class Op, class Sink, class Init>
__global__ void __launch_bounds__(tuning<A, cuda_common::compiled_target>::reduce_threads)
    reduce_kernel(InIt first, std::int64_t n, Init init, Op op, tile_counters* counters,
                  A* partials, Sink result) {
  using cfg = tuning<A, cuda_common::compiled_target>;
  using range = cuda_common::block_range_reduce<A, cfg::reduce_threads, cfg::reduce_items>;
  __shared__ typename range::storage storage;
  __shared__ bool is_last;
  bool has_total;  // true: the host launches at most one block per block step
  const A share = range::reduce_block_share(first, n, op, storage, has_total);
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = share;
    is_last = cuda_common::arrives_last(&counters->done, gridDim.x);
  }
  __syncthreads();  // also ends every thread's use of `storage` by the first reduction
  if (!is_last) return;
  const A all = range::reduce(partials, static_cast<int>(gridDim.x), op, storage, has_total);
  if (threadIdx.x == 0) result.publish(static_cast<A>(op(static_cast<const A&>(init), all)));
}

}  // namespace impl

}  // namespace pscan::cuda_chained_backend
