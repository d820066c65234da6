#pragma once
// inclusive_scan and exclusive_scan (and their transform forms) with pscan::exact_plus on both
// CUDA policies, over tiles of pscan::detail::exact_block_items values, in three launches:
// 1. each tile's exact sum (block/block_exact_sum.cuh): its chunks and special counts, written
//    as columns of a table, a row a tile;
// 2. each column's exclusive prefix sums: integers below 2^33 a tile, so no carries;
// 3. each tile's outputs from its exact prefix (its row, then init). Where exact_prefix_window
//    applies (the tile's values finite, within its span of each other: about 60 binades for
//    double, 89 for float), each thread sums its 16 values in 128 bits, a block scan gives each
//    its start, and each output is rounded once from 192 bits; otherwise one thread walks the
//    tile adding to an exact sum, at ~100x the cost.

#include <pscan/policies/cuda_common/kernels/exact_scan_kernels.cuh>
#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/runtime/check.cuh>

#include <pscan/detail/exact.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// The exact scan of first[0 .. n) (n >= 1) into out: inclusive or exclusive, after init.
template <class P, class InIt, class OutIt, class T>
void exact_scan(const policy_base<P>& p, InIt first, std::int64_t n, OutIt out,
                const pscan::detail::exact_sum<T>& init, bool inclusive) {
  using namespace exact_scan_impl;
  const std::int64_t tiles = ceil_div(n, std::int64_t{tile_items});
  const temporary_buffer<std::int64_t> table(static_cast<std::size_t>(columns<T> * tiles), p);
  tile_sums_kernel<compiled_archs, T><<<grid_for(tiles), threads, 0, p.stream>>>(first, n, tiles,
                                                                                 table.data());
  PSCAN_CUDA_CHECK_LAUNCH();
  column_scans_kernel<compiled_archs><<<columns<T>, threads, 0, p.stream>>>(table.data(), tiles);
  PSCAN_CUDA_CHECK_LAUNCH();
  tile_outputs_kernel<compiled_archs, T><<<grid_for(tiles), threads, 0, p.stream>>>(
      first, n, tiles, table.data(), init, inclusive, out);
  PSCAN_CUDA_CHECK_LAUNCH();
}

}  // namespace pscan::cuda_common
