#pragma once
// Warp level: ordered combination of a contiguous range of a warp's lanes (the look-backs' and
// the cluster scan's): lane order is index order, the lower lane is always op's left operand,
// and lanes outside the range never feed op (they may hold unpublished garbage). The tree's
// shape depends only on (first, last), which is what makes the deterministic look-back
// deterministic.

#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

namespace pscan::cuda_common {

// Every lane returns x[first] op x[first + 1] op ... op x[last]  (0 <= first <= last < 32).
template <class T, class Op>
__device__ T warp_range_reduce(T x, int first, int last, Op op) {
  const int lane = lane_id();
  // Suffix Kogge-Stone: after the step of distance d, lane l holds x[l .. min(l + 2d - 1, last)].
  for (int d = 1; d <= last - first; d *= 2) {
    const T right = warp_shuffle(x, lane + d < 32 ? lane + d : 31);
    if (lane >= first && lane + d <= last) x = static_cast<T>(op(x, right));
  }
  return warp_shuffle(x, first);
}

}  // namespace pscan::cuda_common
