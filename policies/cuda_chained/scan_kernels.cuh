#pragma once
// The two scan kernels of the chained backend.
//  - chained_scan_kernel: one block per tile, single pass. Each block draws its tile id from a
//    ticket counter (never blockIdx: a tile only ever waits on tiles whose blocks already run),
//    scans its tile in shared memory (many small blocks per SM keep many tiles loading), and
//    warp 0 obtains the tile's carry by look-back: decoupled (default) or through the fixed
//    tree (deterministic). Tile state is tagged with the call's epoch.
//  - single_block_scan_kernel: for a few tiles, one block walks them in order with a running
//    carry: no tile state, no look-back, still one launch.

#include <cuda_chained/lookback.cuh>
#include <cuda_chained/lookback_tree.cuh>
#include <cuda_chained/tile_state.cuh>
#include <cuda_chained/tuning.cuh>

#include <cuda_common/shared_tile_scan.cuh>
#include <cuda_common/utility.cuh>

#include <cstdint>

namespace pscan::chained {

template <class A>
using chained_tile = cuda::shared_tile_scan<A, tuning<A>::scan_threads, tuning<A>::scan_items>;

// Run by warp 0 of tile `tile` once the tile's total is known: publishes what successors need
// and returns the tile's carry-in (init, when there is one, comes first).
template <bool HasInit, bool Deterministic, class A, class Op>
__device__ cuda::tile_carry<A> lookback_carry(const tile_state<A>& state, std::uint32_t tile,
                                             std::uint32_t tiles, const A& total, const A& init,
                                             Op op, backoff wait) {
  const bool lane0 = cuda::lane_id() == 0;
  if constexpr (Deterministic) {
    A prefix{};
    const bool has = tree_lookback(state, tile, tiles, total, op, wait, prefix);
    if constexpr (HasInit) return {true, has ? static_cast<A>(op(init, prefix)) : init};
    return {has, prefix};
  } else {
    if (tile == 0) {
      if (lane0) {
        state.publish(0, HasInit ? static_cast<A>(op(init, total)) : total, tile_status::prefix);
      }
      return {HasInit, init};
    }
    if (lane0) state.publish(tile, total, tile_status::aggregate);
    const A prefix = decoupled_lookback<tuning<A>::lookback_items>(state, tile, op, wait);
    if (lane0) state.publish(tile, static_cast<A>(op(prefix, total)), tile_status::prefix);
    return {true, prefix};
  }
}

template <bool Exclusive, bool HasInit, bool Deterministic, class A, class InIt, class OutIt,
          class Op>
__global__ void __launch_bounds__(tuning<A>::scan_threads, tuning<A>::scan_min_blocks_per_sm)
    chained_scan_kernel(InIt first, std::int64_t n, OutIt out, A init, Op op, tile_state<A> state,
                        std::uint32_t tiles) {
  using cfg = tuning<A>;
  using agent = chained_tile<A>;
  __shared__ typename agent::storage storage;
  __shared__ cuda::uninitialized_array<A, 1> carry_value;
  __shared__ bool carry_has;
  __shared__ std::uint32_t tile_id;

  if (threadIdx.x == 0) tile_id = state.draw_ticket(tiles);
  __syncthreads();
  const std::uint32_t tile = tile_id;
  const std::int64_t offset = std::int64_t{tile} * cfg::tile_items;

  auto carry_of = [&](const A& total) {
    if (cuda::warp_id() == 0) {
      const cuda::tile_carry<A> c = lookback_carry<HasInit, Deterministic>(
          state, tile, tiles, total, init, op, backoff{cfg::backoff_min_ns, cfg::backoff_max_ns});
      if (cuda::lane_id() == 0) {
        carry_has = c.has;
        carry_value[0] = c.value;
      }
    }
    __syncthreads();
    return cuda::tile_carry<A>{carry_has, carry_value[0]};
  };
  const auto valid = static_cast<int>(n - offset < cfg::tile_items ? n - offset : cfg::tile_items);
  agent::template run<Exclusive>(first + offset, out + offset, valid, op, storage, carry_of);
}

template <bool Exclusive, bool HasInit, class A, class InIt, class OutIt, class Op>
__global__ void __launch_bounds__(tuning<A>::scan_threads)
    single_block_scan_kernel(InIt first, std::int64_t n, OutIt out, A init, Op op) {
  using cfg = tuning<A>;
  using agent = chained_tile<A>;
  __shared__ typename agent::storage storage;
  cuda::tile_carry<A> running{HasInit, init};
  // Every thread keeps the same running carry: the tile totals it combines are block-uniform.
  auto carry_of = [&](const A& total) {
    const cuda::tile_carry<A> before = running;
    running = {true, running.has ? static_cast<A>(op(running.value, total)) : total};
    return before;
  };
  for (std::int64_t offset = 0; offset < n; offset += cfg::tile_items) {
    const auto valid = static_cast<int>(n - offset < cfg::tile_items ? n - offset : cfg::tile_items);
    agent::template run<Exclusive>(first + offset, out + offset, valid, op, storage, carry_of);
    __syncthreads();  // the next tile reuses the block-scan storage
  }
}

}  // namespace pscan::chained
