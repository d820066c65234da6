#pragma once
// Ordered reductions of contiguous ranges without a tile transpose: each warp reads its segments
// warp-striped (coalesced 16-byte units), reduces each unit in its lane, then each row of 32
// units across the lanes (warp_reduce), in order; an order-free operator takes all of a lane's
// units first, then one warp reduction (grouping.cuh). The upsweep of the multi-pass scan runs on
// block_range_reduce, both backends' reduce on its block shares.

#include <pscan/policies/cuda_common/block/block_reduce.cuh>
#include <pscan/policies/cuda_common/grouping.cuh>
#include <pscan/policies/cuda_common/thread/thread_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

#include <cstdint>

namespace pscan::cuda_common {

// first[0] op ... op first[valid-1] for one warp's segment (1 <= valid <= 32*ITEMS), returned
// to every lane.
template <int ITEMS, class T, class InIt, class Op>
__device__ __forceinline__ T warp_segment_reduce(InIt first, int valid, Op op) {
  constexpr int K = unit_items_v<T>;
  constexpr int rows = ITEMS / K;  // row j = units 32j .. 32j+31, lane l holds unit 32j + l
  T items[ITEMS];
  load_warp_striped(first, valid, items);
  T total = items[0];
  if (valid == warp_threads * ITEMS) {
    if constexpr (order_free_v<T, Op>) {
      return warp_reduce_any_order(thread_reduce<ITEMS>(items, op), op);
    } else {
#pragma unroll
      for (int j = 0; j < rows; ++j) {
        const T row = warp_reduce(thread_reduce<K>(items + j * K, op), op);
        total = j == 0 ? row : static_cast<T>(op(total, row));
      }
      return total;
    }
  }
  const int lane = lane_id();
#pragma unroll
  for (int j = 0; j < rows; ++j) {
    const int row_first = warp_threads * j * K;
    if (row_first >= valid) break;
    const int unit_valid = min(max(valid - (row_first + lane * K), 0), K);
    const int valid_lanes = min(ceil_div(valid - row_first, K), warp_threads);
    // Lanes without items pass items[j*K] untouched; warp_reduce never combines them.
    const T mine = unit_valid > 0 ? thread_reduce<K>(items + j * K, op, unit_valid) : items[j * K];
    const T row = warp_reduce(mine, op, valid_lanes);
    total = j == 0 ? row : static_cast<T>(op(total, row));
  }
  return total;
}

template <class T, int BLOCK_THREADS, int ITEMS>
struct block_range_reduce {
  using block = block_reduce<T, BLOCK_THREADS>;
  using storage = typename block::storage;
  using value_type = T;
  static constexpr int warps = BLOCK_THREADS / warp_threads;
  static constexpr int warp_items = warp_threads * ITEMS;
  static constexpr int block_threads = BLOCK_THREADS;

  // first[0] op ... op first[count-1], returned to every thread (has_total = count > 0). The
  // range is cut into segments of warp_items; warp w takes the w-th contiguous share of them,
  // so segment offsets keep the alignment of `first`. One __syncthreads.
  // Index: std::int64_t, or int where count fits one (fewer instructions before the first load).
  template <class Index = std::int64_t, class InIt, class Op>
  __device__ static T reduce(InIt first, Index count, Op op, storage& s, bool& has_total) {
    const Index segments = ceil_div<Index>(count, warp_items);
    const Index begin = segments * warp_id() / warps;
    const Index end = segments * (warp_id() + 1) / warps;
    bool has = false;
    T acc;
    for (Index seg = begin; seg < end; ++seg) {
      const Index offset = seg * warp_items;
      const int valid = valid_items(count, offset, warp_items);
      const T part = warp_segment_reduce<ITEMS, T>(first + offset, valid, op);
      acc = has ? static_cast<T>(op(acc, part)) : part;
      has = true;
    }
    return block::warp_totals(acc, has, op, s, has_total);
  }

  // reduce() of this block's share of first[0..n): the blockIdx.x-th of gridDim.x contiguous
  // shares, of whole warp segments (a fixed partition of n, so every share starts 16-byte
  // aligned when first is). has_total: the share is not empty.
  template <class InIt, class Op>
  __device__ static T reduce_block_share(InIt first, std::int64_t n, Op op, storage& s,
                                         bool& has_total) {
    const std::int64_t segments = ceil_div<std::int64_t>(n, warp_items);
    const std::int64_t begin = segments * blockIdx.x / gridDim.x * warp_items;
    const std::int64_t end = min(segments * (blockIdx.x + 1) / gridDim.x * warp_items, n);
    return reduce(first + begin, end - begin, op, s, has_total);
  }
};

}  // namespace pscan::cuda_common
