#pragma once
// reduce and reduce_into of pscan::cuda_multipass: the last step of Harris' "Optimizing parallel
// reduction in CUDA" (grid-stride, cost-optimal), kept in order for a non-commutative op. Pass 1:
// a grid of eight waves (8 x SMs x resident blocks); block b reduces the b-th contiguous
// share of the input, its warps each a contiguous part of that, reading 16-byte units
// warp-striped and reducing them as they arrive (several loads in flight per thread); the warps'
// totals are combined in order. Pass 2: one block combines the block totals in block order, init
// first, and publishes the result into the call's sink (cuda_common/device_result.cuh): host
// memory for reduce (cuda_common::host_result), *result on the device for reduce_into (no host
// wait); that pass is cuda_common's single-block kernel, which also reduces an input of a few
// block steps directly.

#include <pscan/policies/cuda_multipass/kernels/reduce_kernel.cuh>
#include <pscan/policies/cuda_multipass/policy.cuh>
#include <pscan/policies/cuda_multipass/tuning.cuh>

#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/kernels/single_block_reduce_kernel.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/runtime/check.cuh>

#include <pscan/future_value.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// The sink is made right before the launch that publishes: a host_result slot is taken only
// once nothing else can throw.
template <>
template <class Build, class P, class InIt, class Init, class Op, class MakeSink>
auto kernels<cuda_multipass_backend::multipass>::reduce(const P& p, InIt first, std::int64_t n,
                                                        const Init& init, Op op,
                                                        MakeSink make_sink) {
  using namespace cuda_multipass_backend;
  using A = pscan::detail::init_value_t<Init>;
  using cfg = tuning<A, Build::target>;
  using range = cuda_common::block_range_reduce<A, cfg::block_threads, cfg::items>;
  const std::int64_t blocks = cuda_common::share_blocks<range>(
      reinterpret_cast<const void*>(&impl::reduce_kernel<typename Build::archs, A, InIt, Op>), n);
  // One block reduces `count` values from `in`, init first, into the sink.
  const auto finish = [&](auto in, std::int64_t count) {
    const auto sink = make_sink();
    cuda_common::single_block_reduce<Build, range>(p.stream, in, count, init, op, sink);
    return sink;
  };
  if (blocks == 1) return finish(first, n);
  const cuda_common::call_scratch scratch(
      p, cuda_common::scratch_head_bytes + sizeof(A) * static_cast<std::size_t>(blocks),
      cuda_common::untagged_layout);
  A* const partials = scratch.entries<A>();
  impl::reduce_kernel<typename Build::archs, A>
      <<<static_cast<unsigned>(blocks), cfg::block_threads, 0, p.stream>>>(first, n, partials, op);
  PSCAN_CUDA_CHECK_LAUNCH();
  return finish(partials, blocks);
}

}  // namespace pscan::cuda_common
