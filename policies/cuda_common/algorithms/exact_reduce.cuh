#pragma once
// reduce, reduce_into and transform_reduce with pscan::exact_plus on both CUDA policies: one
// launch of one wave of blocks (kernels/exact_reduce_kernel.cuh). The sum is exact, so the grid,
// the block order and the GPU change no bit of it.

#include <pscan/policies/cuda_common/kernels/exact_reduce_kernel.cuh>
#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/runtime/check.cuh>

#include <algorithm>
#include <cstdint>

namespace pscan::cuda_common {

// The accumulator's scratch layout (runtime/call_scratch.cuh): counters all through.
inline constexpr int exact_sum_layout = -1;

// The exact sum of first[0 .. n) (n >= 0) and init into the sink that make_sink() returns. init:
// an exact sum, or a future_value of T read on the device.
template <class P, class InIt, class Init, class MakeSink>
auto exact_reduce_to_sink(const policy_base<P>& p, InIt first, std::int64_t n, const Init& init,
                          MakeSink make_sink) {
  using namespace exact_reduce_impl;
  using T = typename exact_init_traits<Init>::value_type;
  using sink_type = decltype(make_sink());
  const auto kernel = &exact_reduce_kernel<compiled_archs, T, InIt, Init, sink_type>;
  const std::int64_t resident =
      std::int64_t{runtime::current_device_info().sm_count} *
      std::max(1,
               runtime::max_active_blocks_per_sm(reinterpret_cast<const void*>(kernel), threads));
  // One block at least: for n == 0 it publishes init.
  const std::int64_t blocks =
      std::max({std::min(resident, ceil_div(n, std::int64_t{threads} * items)),
                ceil_div(n, max_block_values), std::int64_t{1}});
  const call_scratch scratch(p, std::max(scratch_head_bytes, sizeof(accumulator<T>)),
                             exact_sum_layout);
  const sink_type sink = make_sink();
  kernel<<<static_cast<unsigned int>(blocks), threads, 0, p.stream>>>(
      first, n, init, static_cast<accumulator<T>*>(scratch.data()), sink);
  PSCAN_CUDA_CHECK_LAUNCH();
  return sink;
}

}  // namespace pscan::cuda_common
