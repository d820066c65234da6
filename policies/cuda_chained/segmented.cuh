#pragma once
// Segmented algorithms of pscan::cuda_chained. Segmented scans and scans by key take the generic
// lifted-operator path (include/pscan/detail/segmented_generic.hpp) over this backend's scans,
// which accept any random-access iterator. segmented_reduce is the one both CUDA backends share
// (cuda_common/algorithms/segmented_reduce.cuh), on this policy's stream and resource.

#include <cuda_chained/policy.cuh>

#include <cuda_common/algorithms/segmented_reduce.cuh>

namespace pscan::chained {

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  cuda::reduce_segments(p, values, offsets_first, offsets_last, out, init, op);
}

}  // namespace pscan::chained
