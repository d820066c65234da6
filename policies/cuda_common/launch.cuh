#pragma once
// Grids for any number of blocks: CUDA limits gridDim.x to 2^31 - 1, so larger launches use a
// second dimension and kernels read their block's 64-bit index with grid_block_index()
// (grid/grid_block_index.cuh). And the grid of a reduction over block shares.

#include <pscan/policies/cuda_common/tuning.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/runtime/device_info.cuh>

#include <pscan/error.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace pscan::cuda_common {

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

// Blocks of a Range::reduce_block_share grid (Range a block_range_reduce) of `kernel` over n
// elements: one up to share_grid_tuning::single_block_steps block steps (Range::warps x
// Range::warp_items each; the caller then runs kernels/single_block_reduce_kernel.cuh instead),
// beyond that share_grid_tuning::waves times the GPU's resident blocks, but no more than one
// block a step, so that no warp's share is empty.
template <class Range>
std::int64_t share_blocks(const void* kernel, std::int64_t n) {
  constexpr std::int64_t step = std::int64_t{Range::warp_items} * Range::warps;
  if (n <= share_grid_tuning::single_block_steps * step) return 1;
  const std::int64_t resident =
      std::int64_t{runtime::current_device_info().sm_count} *
      std::max(1, runtime::max_active_blocks_per_sm(kernel, Range::block_threads));
  return std::min(share_grid_tuning::waves * resident, ceil_div(n, step));
}

}  // namespace pscan::cuda_common
