#pragma once
// A search by a whole warp: 32 probes a round, so a few dependent reads find what a binary search
// would chain ~log2(n) reads for (six rounds for 2^28 candidates).

#include <pscan/policies/cuda_common/utility.cuh>

namespace pscan::cuda_common {

// The first i in [lo, hi) at which pred holds, or hi (pred is false, then true, over [lo, hi)).
// Every lane of the warp calls it and gets the answer.
template <class I, class Pred>
__device__ I warp_lower_bound(I lo, I hi, const Pred& pred) {
  const I lane = lane_id();
  while (lo < hi) {
    // Probes end the 32 equal steps; the answer follows the last probe where pred is false.
    const I step = (hi - lo + warp_threads - 1) / warp_threads;
    const I probe = lo + (lane + 1) * step - 1;
    const bool before = probe < hi && !pred(probe);
    const I passed = __popc(__ballot_sync(full_warp_mask, before));
    hi = min(hi, lo + (passed + 1) * step - 1);
    lo += passed * step;
  }
  return lo;
}

}  // namespace pscan::cuda_common
