#pragma once
// The three launches of the exact_plus scans (algorithms/exact_scan.cuh), one block a tile
// (tile/exact_tile_scan.cuh): tile_sums_kernel (each tile's exact sum, as a row of the table's
// columns), column_scans_kernel (each column's exclusive prefix sums) and tile_outputs_kernel
// (each tile's outputs from its exact prefix); and segmented_reduce's empty segments.

#include <pscan/policies/cuda_common/grid/grid_block_index.cuh>
#include <pscan/policies/cuda_common/tile/exact_tile_scan.cuh>

#include <cstdint>

namespace pscan::cuda_common {

namespace exact_scan_impl {

template <class Archs, class T, class InIt, class Heads>
__global__ void __launch_bounds__(threads)
    tile_sums_kernel(InIt first, std::int64_t n, std::int64_t tiles, Heads heads,
                     std::int64_t* table) {
  const std::int64_t tile = grid_block_index();
  if (tile >= tiles) return;
  tile_sums<T>(first, n, tiles, heads, table, tile);
}

// Block c scans column c (with `resets`: from each segment start).
template <class Archs>
__global__ void __launch_bounds__(threads)
    column_scans_kernel(std::int64_t* table, std::int64_t tiles, const std::int64_t* resets) {
  column_scan(table + blockIdx.x * tiles, tiles, resets);
}

template <class Archs, class T, exact_outputs Outputs, class InIt, class Init, class Heads,
          class OutIt>
__global__ void __launch_bounds__(threads)
    tile_outputs_kernel(InIt first, std::int64_t n, std::int64_t tiles,
                        const std::int64_t* table, Init init, bool inclusive, Heads heads,
                        OutIt out) {
  const std::int64_t tile = grid_block_index();
  if (tile >= tiles) return;
  tile_outputs<T, Outputs>(first, n, tiles, table, init, inclusive, heads, out, tile);
}

// segmented_reduce's empty segments: init, as T (the others are written by tile_outputs_kernel).
template <class Archs, class T, class OffIt, class Init, class OutIt>
__global__ void __launch_bounds__(threads)
    empty_segments_kernel(OffIt offsets, std::int64_t segments, Init init, OutIt out) {
  for (std::int64_t s = grid_block_index() * threads + threadIdx.x; s < segments;
       s += std::int64_t{gridDim.x} * threads) {
    if (offsets[s] == offsets[s + 1]) out[s] = static_cast<const T&>(init);
  }
}

}  // namespace exact_scan_impl

}  // namespace pscan::cuda_common
