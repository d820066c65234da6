#pragma once
// Pass 1 of cuda_multipass's reduce (reduce.cuh): each block's share reduced to its partial; pass
// 2 is cuda_common's single-block kernel.

#include <pscan/policies/cuda_multipass/tuning.cuh>

#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/target.cuh>

#include <cstdint>

namespace pscan::cuda_multipass_backend {
namespace impl {

// Pass 1: the reduction of the block's share of first[0..n), to partials[blockIdx.x].
template <class Archs, class A, class InIt, class Op>
__global__ void __launch_bounds__(tuning<A, cuda_common::compiled_target>::block_threads)
    reduce_kernel(InIt first, std::int64_t n, A* partials, Op op) {
  using cfg = tuning<A, cuda_common::compiled_target>;
  using range = cuda_common::block_range_reduce<A, cfg::block_threads, cfg::items>;
  __shared__ typename range::storage storage;
  bool has_total;  // true: the host launches at most one block per block step
  const A total = range::reduce_block_share(first, n, op, storage, has_total);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

}  // namespace impl

}  // namespace pscan::cuda_multipass_backend
