#pragma once
// The grid level: a block's 64-bit index in a grid of any size (launch.cuh's grid_for: past
// 2^31 - 1 blocks a grid has a second dimension; the surplus blocks' indices are past the end).

#include <cstdint>

namespace pscan::cuda_common {

__device__ __forceinline__ std::int64_t grid_block_index() {
  return static_cast<std::int64_t>(blockIdx.y) * gridDim.x + blockIdx.x;
}

}  // namespace pscan::cuda_common
