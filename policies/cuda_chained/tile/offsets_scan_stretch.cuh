#pragma once
// Tile level of cuda_chained's scans by offsets (offsets_scan.cuh says how they work; the kernel is
// kernels/offsets_scan_kernel.cuh): a block's stretch of tiles, its carry from one look-back,
// and the block and warp steps only it takes.

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/tuning.cuh>
#include <pscan/policies/cuda_chained/warp/warp_lookback.cuh>

#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/grid/bad_offsets.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/segmented_tile_scan.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_search.cuh>

#include <pscan/detail/segmented_generic.hpp>

#include <cstdint>

namespace pscan::cuda_chained_backend {

// The offsets scan's block: the segmented tile agent on every thread (a block looks back once, for
// its stretch, so it keeps no look-back warp), over tiles of the chained scan's size.
template <cuda_common::target Target, class T>
struct offsets_scan_block {
  using cfg = tuning<T, Target>;
  using A = pscan::detail::flagged<T>;
  static constexpr int threads = cfg::scan_threads;
  using tile = cuda_common::segmented_tile_scan<A, threads, cfg::scan_items>;
  // A long stretch's tail past its first tile: a plain reduction, at the reduce kernel's reads.
  using tail_reduce = cuda_common::block_range_reduce<T, threads, cfg::reduce_items>;
  static constexpr int min_blocks_per_sm = cfg::segmented_min_blocks_per_sm;
};

// The first segment start at or after position p of the elements, for each p of ps (0 for p = 0,
// and `count` for p = -1: the offsets past every position), found by warp j for ps[j] and handed
// to every thread (through shared[0 .. N)): where the offsets of the positions from p on begin.
template <int N, class OffIt>
__device__ void block_offsets_from(const pscan::detail::offset_heads<OffIt>& heads,
                                   const std::int64_t (&ps)[N], std::int64_t (&found)[N],
                                   std::int64_t* shared) {
  const int w = cuda_common::warp_id();
  if (w < N) {
    const std::int64_t p = ps[w];
    const std::int64_t at =
        p <= 0 ? (p == 0 ? 0 : heads.count)
               : cuda_common::warp_lower_bound(std::int64_t{0}, heads.count - 1,
                                               [&](std::int64_t s) {
                                                 return static_cast<std::int64_t>(
                                                            heads.offsets[s]) >= heads.base + p;
                                               });
    if (cuda_common::lane_id() == 0) shared[w] = at;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < N; ++j) found[j] = shared[j];
  __syncthreads();  // `shared` may be written again
}

// Whether some offsets[i] < offsets[i-1] for i in [max(from, 1), to) (or the range runs
// backwards, which sorted offsets never make), in the calling thread's share.
template <int BLOCK_THREADS, class OffIt>
__device__ bool offsets_decrease(OffIt offsets, std::int64_t from, std::int64_t to) {
  bool bad = to < from;
  for (std::int64_t i = max(from, std::int64_t{1}) + threadIdx.x; i < to; i += BLOCK_THREADS) {
    bad |= static_cast<std::int64_t>(offsets[i]) < static_cast<std::int64_t>(offsets[i - 1]);
  }
  return bad;
}

// Publishes stretch k's aggregate for the stretches after it (none after the final one) and
// returns its carry, from the stretches before it by the look-back of one warp (then its
// inclusive prefix goes out). Every thread of the block calls it; `shared` hands the look-back's
// result to all.
template <class Cfg, class A, class Lifted>
__device__ __forceinline__ cuda_common::tile_carry<A> stretch_carry(const tile_state<A>& state,
                                                                    std::int64_t k, bool is_final,
                                                                    const A& aggregate,
                                                                    Lifted lifted, A& shared) {
  if (threadIdx.x == 0 && !is_final) {
    state.publish(static_cast<std::uint64_t>(k), aggregate,
                  k == 0 || aggregate.head ? tile_status::prefix : tile_status::aggregate);
  }
  if (k == 0) return {false, aggregate};
  if (cuda_common::warp_id() == 0) {
    const A before =
        decoupled_lookback<Cfg::lookback_items>(state, static_cast<std::uint32_t>(k), lifted,
                                                backoff{Cfg::backoff_min_ns, Cfg::backoff_max_ns});
    if (cuda_common::lane_id() == 0) {
      shared = before;
      if (!is_final && !aggregate.head) {
        state.publish(static_cast<std::uint64_t>(k), static_cast<A>(lifted(before, aggregate)),
                      tile_status::prefix);
      }
    }
  }
  __syncthreads();
  return {true, shared};
}

// A stretch of at most one tile (the tile at `offset` of in[0 .. n)): the tile's total is the
// stretch's aggregate, published and looked back from within the tile agent (one read of the
// tile, as in the chained kernel). Not inlined: the look-back runs where the agent's registers
// are live, and inlined it would take registers from the kernel's loop over longer stretches.
template <class Block, bool Exclusive, class In, class OutIt, class Lifted>
__device__ __noinline__ void scan_one_tile_stretch(In in, std::int64_t n, std::int64_t offset,
                                                   OutIt out, Lifted lifted,
                                                   tile_state<typename Block::A> state,
                                                   std::int64_t k, bool is_final,
                                                   typename Block::tile::storage& storage,
                                                   typename Block::A& shared) {
  using A = typename Block::A;
  Block::tile::template run_at<Exclusive>(in, n, offset, out, lifted, storage, [&](const A& total) {
    return stretch_carry<typename Block::cfg>(state, k, is_final, total, lifted, shared);
  });
}

// What the stretches after [s0, s1) need of it: its tail, from its last segment start
// (offsets[bounds_end - 1], where that lies in the stretch) or all of it. The tail's first tile
// (where a segment may start) goes through the agent; the rest holds no segment start: plain
// values, reduced as they stream past (no pass through shared memory, no head bits), from a tile
// boundary, so 16-byte aligned where the values are. Not inlined: inlined, the kernel spilled
// 100-500 bytes a thread (its registers are not the long-stretch loop's).
template <class Block, bool Exclusive, class In, class OffIt, class Op, class Lifted>
__device__ __noinline__ typename Block::A reduce_stretch_tail(
    In in, std::int64_t bounds_end, OffIt offsets, std::int64_t first, std::int64_t s0,
    std::int64_t s1, Op op, Lifted lifted, typename Block::tile::storage& storage,
    typename Block::tail_reduce::storage& tail_storage) {
  using A = typename Block::A;
  constexpr int tile_items = Block::tile::tile_items;
  const std::int64_t h =
      bounds_end > 0 ? static_cast<std::int64_t>(offsets[bounds_end - 1]) - first : -1;
  const std::int64_t tail_first = h >= s0 && h < s1 ? h : s0;
  const std::int64_t plain_first = min(s1, (tail_first / tile_items + 1) * tile_items);
  A tail = Block::tile::template reduce<Exclusive>(in + tail_first, plain_first - tail_first,
                                                   lifted, storage);
  if (plain_first < s1) {
    bool has_rest;
    const auto rest = Block::tail_reduce::reduce(in.values + plain_first, s1 - plain_first, op,
                                                 tail_storage, has_rest);
    tail = static_cast<A>(lifted(tail, A{rest, false}));
  }
  __syncthreads();  // the agent's storage is reused
  return tail;
}

// Segment s is values[offsets[s] .. offsets[s+1]) for s < count - 1 (count >= 2); out gets its
// scan in the same positions (Exclusive: init at every segment start). Op: the user's operator
// over T, the accumulator.
template <bool Exclusive, class T, class InIt, class OffIt, class OutIt, class Init, class Op>
__device__ __forceinline__ void scan_offsets_stretch(InIt values, OffIt offsets, std::int64_t count,
                                                     OutIt out, Init init, Op op,
                                                     tile_state<pscan::detail::flagged<T>> state,
                                                     unsigned long long* report) {
  using block = offsets_scan_block<cuda_common::compiled_target, T>;
  using A = typename block::A;
  using cfg = typename block::cfg;
  constexpr int tile_items = block::tile::tile_items;
  __shared__ typename block::tile::storage storage;
  __shared__ typename block::tail_reduce::storage tail_storage;
  __shared__ cuda_common::uninitialized_array<A, 1> looked_back;
  __shared__ std::int64_t searched[2];
  __shared__ std::uint32_t ticket;
  const pscan::detail::lifted_op<Op> lifted{op};

  const auto first = static_cast<std::int64_t>(offsets[0]);
  const auto last = static_cast<std::int64_t>(offsets[count - 1]);
  if (threadIdx.x == 0) ticket = state.draw_ticket(gridDim.x);
  __syncthreads();
  const std::int64_t k = ticket;
  if (first < 0 || last < first) {  // no element is read; one block names the first bad offset
    if (k == 0) cuda_common::report_first_bad_offset<block::threads>(offsets, 0, count, report);
    return;
  }
  const std::int64_t n = last - first;
  const std::int64_t tiles = cuda_common::ceil_div<std::int64_t>(n, tile_items);
  const std::int64_t blocks = gridDim.x;
  const pscan::detail::offset_heads<OffIt> heads{offsets, count, first};
  const cuda_common::segmented_input<InIt, pscan::detail::offset_heads<OffIt>, Init> in{
      values + first, heads, init};
  if (tiles <= blocks) {
    // Stretches of at most a tile, as many as blocks, in shares of offsets_share_warps warps'
    // part of a tile at least (fewer stretches for fewer elements). Every block checks an
    // equal share of the offsets by index, those without a stretch too, so that the scanning
    // ones check little.
    const std::int64_t from = count * k / blocks;
    const std::int64_t to = count * (k + 1) / blocks;
    if (__syncthreads_or(offsets_decrease<block::threads>(offsets, from, to))) {
      cuda_common::report_first_bad_offset<block::threads>(offsets, from, to, report);
    }
    constexpr std::int64_t share =
        std::int64_t{cfg::offsets_share_warps} * cuda_common::warp_threads * cfg::scan_items;
    const std::int64_t piece =
        max(share, cuda_common::ceil_div(cuda_common::ceil_div(n, blocks), share) * share);
    const std::int64_t pieces = cuda_common::ceil_div(n, piece);  // none for no elements
    if (k < pieces) {
      scan_one_tile_stretch<block, Exclusive>(in, min(n, (k + 1) * piece), k * piece,
                                              out + first, lifted, state, k, k + 1 == pieces,
                                              storage, looked_back[0]);
    }
    return;
  }
  const std::int64_t stretches = min(blocks, tiles);
  const bool is_final = k + 1 == stretches;

  // Longer stretches, k's the tiles [t0, t1). The tail (from the stretch's last segment start,
  // found in its offsets, to its end; all of it without one) is what the stretches after it
  // need, reduced first. The offsets of the stretch's positions are bounds[0 .. 1) (the final
  // stretch's run to the last offset): ranges that meet end to end, as neighbours compute the
  // same bound.
  const std::int64_t t0 = tiles * k / stretches;
  const std::int64_t t1 = tiles * (k + 1) / stretches;
  const std::int64_t s0 = t0 * tile_items;
  const std::int64_t s1 = min(t1 * tile_items, n);
  std::int64_t bounds[2];
  block_offsets_from(heads, {s0, is_final ? std::int64_t{-1} : s1}, bounds, searched);
  const A tail = is_final ? A{}
                          : reduce_stretch_tail<block, Exclusive>(in, bounds[1], offsets, first, s0,
                                                                  s1, op, lifted, storage,
                                                                  tail_storage);
  cuda_common::tile_carry<A> carry =
      stretch_carry<cfg>(state, k, is_final, tail, lifted, looked_back[0]);
  // Each tile checks an equal slice of the stretch's offsets: for even segments about those its
  // positions hold, which its agent has just read (any slices that meet end to end would do).
  bool bad = false;
  for (std::int64_t t = t0; t < t1; ++t) {
    block::tile::template run_at<Exclusive>(
        in, n, t * tile_items, out + first, lifted, storage, [&](const A& total) {
          const cuda_common::tile_carry<A> before = carry;
          carry = {true, carry.has ? static_cast<A>(lifted(carry.value, total)) : total};
          return before;
        });
    const std::int64_t span = bounds[1] - bounds[0];
    bad |= offsets_decrease<block::threads>(offsets, bounds[0] + span * (t - t0) / (t1 - t0),
                                            bounds[0] + span * (t + 1 - t0) / (t1 - t0));
    __syncthreads();  // the agent's storage is reused
  }
  // The block's first bad offset; where its bounds ran backwards (offsets out of order
  // somewhere), the first of all.
  if (__syncthreads_or(bad)) {
    const bool inverted = bounds[0] > bounds[1];
    cuda_common::report_first_bad_offset<block::threads>(offsets, inverted ? 0 : bounds[0],
                                                         inverted ? count : bounds[1], report);
  }
}

}  // namespace pscan::cuda_chained_backend
