#pragma once
// Grids for any number of blocks: CUDA limits gridDim.x to 2^31 - 1, so larger launches use a
// second dimension and kernels read their block's 64-bit index with grid_block_index().

#include <cuda_common/utility.cuh>

#include <pscan/error.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace pscan::cuda {

inline constexpr std::int64_t max_grid_x = 2147483647;  // 2^31 - 1
inline constexpr std::int64_t max_grid_y = 65535;

// A grid of at least `blocks` blocks (blocks >= 1); the surplus (< gridDim.y blocks) has indices
// >= blocks and must return at once.
inline dim3 grid_for(std::int64_t blocks) {
  if (blocks <= max_grid_x) return dim3(static_cast<unsigned>(blocks));
  const std::int64_t y = ceil_div(blocks, max_grid_x);
  if (y > max_grid_y) {
    throw invalid_argument("pscan: " + std::to_string(blocks) +
                           " blocks exceed the largest CUDA grid");
  }
  return dim3(static_cast<unsigned>(ceil_div(blocks, y)), static_cast<unsigned>(y));
}

__device__ __forceinline__ std::int64_t grid_block_index() {
  return static_cast<std::int64_t>(blockIdx.y) * gridDim.x + blockIdx.x;
}

}  // namespace pscan::cuda
