#pragma once
// segmented_reduce of pscan::cuda_multipass: the one both CUDA backends share
// (cuda_common/algorithms/segmented_reduce.cuh). Segmented scans and scans by key take the generic
// lifted-operator path over this backend's inclusive_scan / exclusive_scan.

#include <cuda_multipass/policy.cuh>

#include <cuda_common/algorithms/segmented_reduce.cuh>

namespace pscan::multipass {

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  cuda::reduce_segments(p, values, offsets_first, offsets_last, out, init, op);
}

}  // namespace pscan::multipass
