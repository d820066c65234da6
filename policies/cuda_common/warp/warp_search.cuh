#pragma once
// A search by a whole warp: 32 probes a round, so a few dependent reads find what a binary search
// would chain ~log2(n) reads for (six rounds for 2^28 candidates).

#include <pscan/policies/cuda_common/utility.cuh>

namespace pscan::cuda_common {
namespace detail {

// This lane's probe in a round over [lo, hi) (lo < hi): the last of its step of 32 equal steps.
template <class I>
__device__ __forceinline__ I warp_probe(I lo, I hi) {
  const I step = (hi - lo + warp_threads - 1) / warp_threads;
  return lo + (static_cast<I>(lane_id()) + 1) * step - 1;
}

// [lo, hi) narrowed to the step after the last probe where pred is false (`before`: the ballot of
// the lanes whose probe is below hi and false).
template <class I>
__device__ __forceinline__ void warp_narrow(I& lo, I& hi, unsigned before) {
  const I step = (hi - lo + warp_threads - 1) / warp_threads;
  const I passed = __popc(before);
  hi = min(hi, lo + (passed + 1) * step - 1);
  lo += passed * step;
}

}  // namespace detail

// The first i in [lo, hi) at which pred holds, or hi (pred is false, then true, over [lo, hi)).
// Every lane of the warp calls it and gets the answer.
template <class I, class Pred>
__device__ I warp_lower_bound(I lo, I hi, const Pred& pred) {
  while (lo < hi) {
    const I probe = detail::warp_probe(lo, hi);
    detail::warp_narrow(lo, hi, __ballot_sync(full_warp_mask, probe < hi && !pred(probe)));
  }
  return lo;
}

// Two warp_lower_bound searches at once, [lo0, hi0) by pred0 and [lo1, hi1) by pred1: each round
// reads both probes before either is needed, so two take the dependent reads of one. Returns
// the answers in lo0 and lo1.
template <class I, class Pred0, class Pred1>
__device__ void warp_lower_bounds(I& lo0, I hi0, const Pred0& pred0, I& lo1, I hi1,
                                  const Pred1& pred1) {
  while (lo0 < hi0 || lo1 < hi1) {
    const I probe0 = lo0 < hi0 ? detail::warp_probe(lo0, hi0) : hi0;
    const I probe1 = lo1 < hi1 ? detail::warp_probe(lo1, hi1) : hi1;
    const bool before0 = probe0 < hi0 && !pred0(probe0);
    const bool before1 = probe1 < hi1 && !pred1(probe1);
    const unsigned ballot0 = __ballot_sync(full_warp_mask, before0);
    const unsigned ballot1 = __ballot_sync(full_warp_mask, before1);
    if (lo0 < hi0) detail::warp_narrow(lo0, hi0, ballot0);
    if (lo1 < hi1) detail::warp_narrow(lo1, hi1, ballot1);
  }
}

}  // namespace pscan::cuda_common
