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

// Tile `tile`'s outputs from its row of the scanned table and init (a value of T, or a deferred
// one, a future_value, read here): through exact_prefix_window where the tile's values and its
// prefix fit one, else one thread walking the tile with an exact sum. Written out here, not as
// an agent: inlined from a device function, NVVM keeps a second copy of the carried exact sum in
// local memory (the double scans ran 1.3-2 % slower).
template <class Archs, class T, exact_outputs Outputs, class InIt, class Init, class Heads,
          class OutIt>
__global__ void __launch_bounds__(threads)
    tile_outputs_kernel(InIt first, std::int64_t n, std::int64_t tiles,
                        const std::int64_t* table, Init init, bool inclusive, Heads heads,
                        OutIt out) {
  const std::int64_t tile = grid_block_index();
  if (tile >= tiles) return;
  constexpr bool ends_only = Outputs == exact_outputs::segment_ends;
  static_assert(!ends_only || segmented_v<Heads>, "segment ends need segments");
  constexpr int chunks = exact_window<T>::chunk_count;
  using term = exact_term<T>;
  using scan = block_scan<window_part, threads>;
  __shared__ T values[tile_items + tile_items / items];
  __shared__ std::int64_t row[columns<T>];
  __shared__ exact_sum<T> prefix;  // before the tile's first value: init and the carried sum
  __shared__ exact_sum<T> start;   // before a segment that starts in the tile: init
  __shared__ int lowest, highest, special;  // the tile's exact_extent
  __shared__ bool in_window;
  __shared__ std::uint32_t head_bits[threads];
  __shared__ bool last_ends;  // whether the tile's last value ends a segment
  __shared__ typename scan::storage storage;

  const std::int64_t tile_start = tile * tile_items;
  const int count = n - tile_start < tile_items ? static_cast<int>(n - tile_start) : tile_items;
  for (int i = threadIdx.x; i < tile_items; i += threads) {
    values[padded(i)] = i < count ? static_cast<T>(first[tile_start + i]) : T(-0.0);
  }
  if (threadIdx.x < columns<T>) row[threadIdx.x] = table[threadIdx.x * tiles + tile];
  if (threadIdx.x == 0) {
    const exact_extent<T> none;
    lowest = none.lowest;
    highest = none.highest;
    special = 0;
    start = exact_sum<T>::of(static_cast<const T&>(init));
    if constexpr (ends_only) last_ends = tile_start + count == n || heads(tile_start + count);
  }
  const std::uint32_t bits = own_heads(heads, tile_start, count);
  head_bits[threadIdx.x] = bits;
  __syncthreads();
  // Whether tile value i (< count) is written: always, or where value i + 1 starts a segment.
  const auto written = [&](int i) {
    if constexpr (ends_only) {
      return i + 1 == count ? last_ends : ((head_bits[(i + 1) / items] >> ((i + 1) % items)) & 1u);
    } else {
      return true;
    }
  };

  exact_extent<T> own_extent;
  for (int j = 0; j < items; ++j) own_extent.take(term::of(values[padded(threadIdx.x * items + j)]));
  if (own_extent.highest >= own_extent.lowest) {
    atomicMin(&lowest, own_extent.lowest);
    atomicMax(&highest, own_extent.highest);
  }
  if (own_extent.special) atomicOr(&special, 1);
  if (threadIdx.x == 0) {
    const pscan::detail::exact_specials specials{row[chunks], row[chunks + 1], row[chunks + 2],
                                                 row[chunks + 3]};
    prefix = start + exact_sum<T>::of_chunks(row, specials);
  }
  __syncthreads();
  exact_extent<T> extent;
  extent.lowest = lowest;
  extent.highest = highest;
  extent.special = special != 0;
  if (threadIdx.x == 0) {
    // A segment that starts in the tile starts from init alone.
    in_window = exact_prefix_window<T>::applies(prefix, extent) &&
                (!segmented_v<Heads> || exact_prefix_window<T>::applies(start, extent));
  }
  __syncthreads();

  if (in_window) {
    // Both windows share the tile's base, so a running sum l is in the units of either.
    const exact_prefix_window<T> carried(prefix, extent), started(start, extent);
    window_part own{0, 0, 0};
    for (int j = 0; j < items; ++j) {
      const term t = term::of(values[padded(threadIdx.x * items + j)]);
      if ((bits >> j) & 1u) own = {0, 0, 1};
      own.l += carried.scaled(t);
      own.not_negative_zero += t.specials.not_negative_zero;
    }
    window_part total;
    bool has_prefix;
    const window_part within = scan::exclusive(own, window_op{}, storage, total, has_prefix);
    // The running sum from the start of this thread's segment, and whether that is in the tile.
    bool from_init = segmented_v<Heads> && has_prefix && within.head;
    __int128 l = has_prefix ? within.l : 0;
    std::int64_t zeros = (has_prefix ? within.not_negative_zero : 0) +
                         (from_init ? start : prefix).specials.not_negative_zero;
    for (int j = 0; j < items; ++j) {
      T& slot = values[padded(threadIdx.x * items + j)];
      const term t = term::of(slot);
      if (segmented_v<Heads> && ((bits >> j) & 1u)) {
        from_init = true;
        l = 0;
        zeros = start.specials.not_negative_zero;
      }
      if (inclusive) {
        l += carried.scaled(t);
        zeros += t.specials.not_negative_zero;
      }
      const bool rounds = written(static_cast<int>(threadIdx.x) * items + j);
      const T r = rounds ? (from_init ? started : carried).rounded(l, zeros) : T{};
      if (!inclusive) {
        l += carried.scaled(t);
        zeros += t.specials.not_negative_zero;
      }
      if (rounds) slot = r;
    }
  } else if (threadIdx.x == 0) {
    exact_sum<T> sum = prefix;
    for (int i = 0; i < count; ++i) {
      if ((head_bits[i / items] >> (i % items)) & 1u) sum = start;
      const T x = values[padded(i)];
      if (inclusive) sum.add(x);
      if (written(i)) values[padded(i)] = sum.rounded();
      if (!inclusive) sum.add(x);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += threads) {
    if (written(i)) out[tile_start + i] = values[padded(i)];
  }
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
