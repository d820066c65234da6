#pragma once
// segmented_reduce_kernel, the one launch of segmented_reduce (algorithms/segmented_reduce.cuh):
// block k reduces the k-th stretch of the segment ends and elements, merged
// (tile/segmented_reduce_stretch.cuh), unless the checked mode's check found a bad offset.

#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/segmented_reduce_stretch.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>

#include <cstdint>

namespace pscan::cuda_common {

template <class Archs, class A, class InIt, class OffIt, class OutIt, class Op, class Init>
__global__ void __launch_bounds__(
    segmented_reduce_tuning<A, compiled_target>::block_threads,
    min_blocks_hint(
        segmented_reduce_tuning<A, compiled_target>::min_blocks,
        segmented_reduce_tuning<A, compiled_target>::block_threads))
    segmented_reduce_kernel(InIt values, OffIt offsets, std::int64_t segments,
                            stretch_record<A>* records, segmented_reduce_state* state,
                            unsigned long long* report, const unsigned long long* gate, OutIt out,
                            Init init, Op op) {
  // The checked mode's gate: the check before found a bad offset, so nothing is written.
  if (gate != nullptr && *gate != no_bad_offset) return;
  reduce_stretch<A>(values, offsets, segments, records, state, report, out, init, op);
}

}  // namespace pscan::cuda_common
