#pragma once
// reduce of pscan::cuda_multipass: the end point of seed 001's progression, kept in order for a
// non-commutative op. Pass 1: a grid sized to fill the GPU once (SMs x resident blocks); block b
// reduces the b-th contiguous share of the input, its warps each a contiguous part of that,
// reading 16-byte units warp-striped and reducing them as they arrive (several loads in flight
// per thread); the warps' totals are combined in order. Pass 2: one block combines the block
// totals in block order, init first. The result comes back through cuda::read_back.

#include <cuda_multipass/policy.cuh>
#include <cuda_multipass/tuning.cuh>

#include <cuda_common/check.cuh>
#include <cuda_common/read_back.cuh>
#include <cuda_common/temporary.cuh>
#include <cuda_common/tile_reduce.cuh>

#include <cstdint>

namespace pscan::multipass {
namespace impl {

// out[blockIdx.x] = the reduction of the block's share of first[0..n) (ApplyInit, for a
// single-block launch: init op that).
template <bool ApplyInit, class A, class InIt, class Op>
__global__ void __launch_bounds__(tuning<A>::block_threads)
    reduce_kernel(InIt first, std::int64_t n, A* out, A init, Op op) {
  using cfg = tuning<A>;
  using range = cuda::block_range_reduce<A, cfg::block_threads, cfg::items>;
  __shared__ typename range::storage storage;
  bool has_total;  // true: the host launches at most one block per warp segment
  const A total = range::reduce_block_share(first, n, op, storage, has_total);
  if (threadIdx.x == 0) out[blockIdx.x] = ApplyInit ? static_cast<A>(op(init, total)) : total;
}

}  // namespace impl

template <class InIt, class T, class Op>
T reduce(const policy& p, InIt first, InIt last, T init, Op op) {
  using cfg = tuning<T>;
  using range = cuda::block_range_reduce<T, cfg::block_threads, cfg::items>;
  const std::int64_t n = last - first;
  const std::int64_t blocks = range::share_blocks(
      reinterpret_cast<const void*>(&impl::reduce_kernel<false, T, InIt, Op>), n);
  constexpr std::int64_t partials_at = 16;  // keeps the partials 16-byte aligned
  cuda::temporary_buffer<T> buffer(static_cast<std::size_t>(blocks > 1 ? partials_at + blocks : 1), p);
  T* result = buffer.data();
  if (blocks > 1) {
    T* partials = buffer.data() + partials_at;
    impl::reduce_kernel<false, T><<<static_cast<unsigned>(blocks), cfg::block_threads, 0, p.stream>>>(
        first, n, partials, init, op);
    PSCAN_CUDA_CHECK_LAUNCH();
    impl::reduce_kernel<true, T><<<1, cfg::block_threads, 0, p.stream>>>(partials, blocks, result, init, op);
  } else {
    impl::reduce_kernel<true, T><<<1, cfg::block_threads, 0, p.stream>>>(first, n, result, init, op);
  }
  PSCAN_CUDA_CHECK_LAUNCH();
  return cuda::read_back(result, p.stream);
}

}  // namespace pscan::multipass
