#pragma once
// pscan::cuda_multipass: the recursive multi-pass GPU backend (Blelloch 1990; Harris, Sengupta &
// Owens, GPU Gems 3 ch. 39): scans as reduce-then-scan over a recursively scanned array of tile
// totals, reduce in two ordered passes, segmented scans through the fused segmented tile agent,
// segmented_reduce shared with cuda_chained (cuda_common/algorithms/). Asynchronous
// on the policy's stream (.on(stream)); temporaries from the policy's resource (.with(resource))
// or libpscan's pool.

#include <cuda_multipass/policy.cuh>
#include <cuda_multipass/reduce.cuh>
#include <cuda_multipass/scan.cuh>
#include <cuda_multipass/segmented.cuh>

namespace pscan {

inline constexpr multipass::policy cuda_multipass{};

}  // namespace pscan
