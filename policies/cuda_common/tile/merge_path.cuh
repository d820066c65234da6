#pragma once
// Merge path on the GPU: the binary search of pscan/detail/merge_path.hpp, and the same search
// by a whole warp, 31 probes a round.

#include <cuda_common/utility.cuh>

#include <pscan/detail/merge_path.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// merge_path_split (pscan/detail/merge_path.hpp) serves host and device alike.
using pscan::detail::merge_path_split;

// The ends among the first `diagonal` merged items (merge_path_split), found by one warp in
// rounds of 31 probes: a few dependent reads instead of a binary search's ~log2(ends_count).
// Every lane returns it.
template <class I, class Ends>
__device__ I warp_merge_path_split(const Ends& ends, I ends_count, I elements, I diagonal) {
  I lo = max(diagonal - elements, I{0});
  I hi = min(diagonal, ends_count);
  const int lane = lane_id();
  while (lo < hi) {
    const I probe = lo + (hi - 1 - lo) * lane / (warp_threads - 1);
    const unsigned past = __ballot_sync(full_warp_mask, ends(probe) + probe >= diagonal);
    if (past == 0) return hi;
    const int first = __ffs(past) - 1;
    const I first_probe = lo + (hi - 1 - lo) * first / (warp_threads - 1);
    lo = first == 0 ? lo : lo + (hi - 1 - lo) * (first - 1) / (warp_threads - 1) + 1;
    hi = first_probe;
  }
  return lo;
}

}  // namespace pscan::cuda_common
