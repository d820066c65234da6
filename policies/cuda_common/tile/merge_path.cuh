#pragma once
// Merge path on the GPU (pscan/detail/merge_path.hpp's split), by a whole warp: the ends among
// the first d merged items of ends and elements, for two diagonals at once.

#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_search.cuh>

namespace pscan::cuda_common {

// The ends among the first d0 and among the first d1 merged items (end i, at element position
// ends(i), comes before element ends(i)), found together by one warp: both searches' reads are
// in flight at once. Every lane gets them.
template <class I, class Ends>
__device__ void warp_merge_path_splits(const Ends& ends, I ends_count, I elements, I d0, I d1,
                                       I& a0, I& a1) {
  a0 = max(d0 - elements, I{0});
  a1 = max(d1 - elements, I{0});
  warp_lower_bounds(
      a0, min(d0, ends_count), [&](I i) { return ends(i) + i >= d0; }, a1, min(d1, ends_count),
      [&](I i) { return ends(i) + i >= d1; });
}

}  // namespace pscan::cuda_common
