#pragma once
// The scans with pscan::exact_plus on both CUDA policies (the plain ones, their transform forms
// and the segmented ones), over tiles of pscan::detail::exact_block_items values, in three
// launches:
// 1. each tile's exact sum (block/block_exact_sum.cuh) from its last segment start (all of it
//    without segments): its chunks and special counts, written as columns of a table, a row a
//    tile, and whether it holds a start;
// 2. each column's exclusive prefix sums, each from the last tile before it that holds a start:
//    integers below 2^33 a tile, so no carries;
// 3. each tile's outputs from its exact prefix (its row, then init), each segment that starts in
//    the tile from init. Where exact_prefix_window applies (the tile's values finite, within its
//    span of each other: about 60 binades for double, 89 for float), each thread sums its 16
//    values in 128 bits, a block scan gives each its start, and each output is rounded once from
//    192 bits; otherwise one thread walks the tile adding to an exact sum, at ~100x the cost.

#include <pscan/policies/cuda_common/kernels/exact_scan_kernels.cuh>
#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/runtime/check.cuh>

#include <pscan/detail/exact.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::cuda_common {

using exact_scan_impl::exact_outputs;

// The exact scan of first[0 .. n) (n >= 1) into out: inclusive or exclusive, after init (a
// value, or a future_value read on the device), in the segments that `heads` starts
// (exact_scan_impl::no_heads: none); every output, or each segment's last.
template <exact_outputs Outputs = exact_outputs::every, class P, class InIt, class OutIt,
          class Init, class Heads = exact_scan_impl::no_heads>
void exact_scan(const policy_base<P>& p, InIt first, std::int64_t n, OutIt out, const Init& init,
                bool inclusive, Heads heads = {}) {
  using namespace exact_scan_impl;
  using T = pscan::detail::init_value_t<Init>;
  constexpr int table_columns = columns<T> + (segmented_v<Heads> ? 1 : 0);
  const std::int64_t tiles = ceil_div(n, std::int64_t{tile_items});
  const temporary_buffer<std::int64_t> table(static_cast<std::size_t>(table_columns * tiles), p);
  tile_sums_kernel<compiled_archs, T><<<grid_for(tiles), threads, 0, p.stream>>>(
      first, n, tiles, heads, table.data());
  PSCAN_CUDA_CHECK_LAUNCH();
  column_scans_kernel<compiled_archs><<<columns<T>, threads, 0, p.stream>>>(
      table.data(), tiles, segmented_v<Heads> ? table.data() + columns<T> * tiles : nullptr);
  PSCAN_CUDA_CHECK_LAUNCH();
  tile_outputs_kernel<compiled_archs, T, Outputs><<<grid_for(tiles), threads, 0, p.stream>>>(
      first, n, tiles, table.data(), init, inclusive, heads, out);
  PSCAN_CUDA_CHECK_LAUNCH();
}

// exact_scan from init, or from nothing (-0, which no sum notices), over init's type (without
// one, the values').
template <exact_outputs Outputs = exact_outputs::every, class P, class InIt, class OutIt,
          class Heads, class... Init>
OutIt exact_scan_from(const policy_base<P>& p, InIt first, std::int64_t n, OutIt out,
                      bool inclusive, Heads heads, const Init&... init) {
  if (n > 0) {
    if constexpr (sizeof...(Init) == 0) {
      using T = typename std::iterator_traits<InIt>::value_type;
      exact_scan<Outputs>(p, first, n, out, T(-0.0), inclusive, heads);
    } else {
      exact_scan<Outputs>(p, first, n, out, init..., inclusive, heads);
    }
  }
  return out + n;
}

}  // namespace pscan::cuda_common
