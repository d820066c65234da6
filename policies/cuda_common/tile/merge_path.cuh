#pragma once
// Merge path on the GPU: the binary search of pscan/detail/merge_path.hpp, and the same search
// by a whole warp.

#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_search.cuh>

#include <pscan/detail/merge_path.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// merge_path_split (pscan/detail/merge_path.hpp) serves host and device alike.
using pscan::detail::merge_path_split;

// The ends among the first `diagonal` merged items (merge_path_split), found by one warp.
// Every lane returns it.
template <class I, class Ends>
__device__ I warp_merge_path_split(const Ends& ends, I ends_count, I elements, I diagonal) {
  return warp_lower_bound(max(diagonal - elements, I{0}), min(diagonal, ends_count),
                          [&](I i) { return ends(i) + i >= diagonal; });
}

}  // namespace pscan::cuda_common
