#pragma once
// reduce and reduce_into of pscan::cuda_chained, in one launch. Block b reduces the b-th
// contiguous share of the input (whole warp segments; a fixed partition of n, so the result is
// deterministic) and writes its partial; the last block to finish (counted with an atomic between
// fences, the counter returned to 0 for the next call) combines the partials in block order, init
// first, and publishes the value into the call's sink (cuda_common/device_result.cuh): host
// memory for reduce (cuda_common::host_result: no copy, no stream sync), *result on the device for
// reduce_into (no host wait at all, so it can be captured into a graph). The grid is eight waves
// of blocks (cuda_common::share_blocks); an input of a few block steps goes to one block of
// cuda_common's single-block kernel instead.

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/kernels/reduce_kernel.cuh>
#include <pscan/policies/cuda_chained/policy.cuh>
#include <pscan/policies/cuda_chained/tuning.cuh>

#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/kernels/single_block_reduce_kernel.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/runtime/check.cuh>

#include <pscan/future_value.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// The sink is made right before the launch: a host_result slot is taken only once nothing else
// can throw.
template <>
template <class Build, class P, class InIt, class Init, class Op, class MakeSink>
auto kernels<cuda_chained_backend::chained>::reduce(const P& p, InIt first, std::int64_t n,
                                                    const Init& init, Op op, MakeSink make_sink) {
  using namespace cuda_chained_backend;
  using A = pscan::detail::init_value_t<Init>;
  using sink_type = decltype(make_sink());
  using cfg = tuning<A, Build::target>;
  using range = cuda_common::block_range_reduce<A, cfg::reduce_threads, cfg::reduce_items>;
  const auto kernel = &impl::reduce_kernel<typename Build::archs, A, InIt, Op, sink_type, Init>;
  const std::int64_t blocks =
      cuda_common::share_blocks<range>(reinterpret_cast<const void*>(kernel), n);
  if (blocks == 1) {  // a small call: no scratch, no lease
    const sink_type sink = make_sink();
    cuda_common::single_block_reduce<Build, range>(p.stream, first, n, init, op, sink);
    return sink;
  }
  // The counters, then the partials.
  const cuda_common::call_scratch scratch(p, tile_counters_bytes + sizeof(A) * blocks,
                                          cuda_common::untagged_layout);
  const sink_type sink = make_sink();
  kernel<<<static_cast<unsigned int>(blocks), cfg::reduce_threads, 0, p.stream>>>(
      first, n, init, op, static_cast<tile_counters*>(scratch.data()), scratch.entries<A>(),
      sink);
  PSCAN_CUDA_CHECK_LAUNCH();
  return sink;
}

}  // namespace pscan::cuda_common
