#pragma once
// The kernels of cuda_multipass's scan levels (scan.cuh): the tiles a level runs, the upsweeps
// (plain, and through a segmented or reduce_by_key agent) and the downsweep.

#include <pscan/policies/cuda_multipass/tuning.cuh>

#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/grid/grid_block_index.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/reduce_by_key_tile.cuh>
#include <pscan/policies/cuda_common/tile/segmented_tile_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_input.cuh>
#include <pscan/policies/cuda_common/tile/tile_scan.cuh>

#include <pscan/future_value.hpp>

#include <cstdint>

namespace pscan::cuda_multipass_backend {
namespace impl {

// The tiles of a level: register tiles of the accumulator type A; over a segmented input
// (accumulators flagged<T>), the segmented tile agent over its plain values T; over
// reduce_by_key's keys and values (accumulators counted<T>), its own agent.
template <cuda_common::target Target, class A, class InIt,
          cuda_common::tile_input Kind = cuda_common::tile_input_v<InIt>>
struct level_tile {
  using cfg = tuning<A, Target>;
  using agent = cuda_common::tile_scan<A, cfg::block_threads, cfg::items>;
  static constexpr int tile_items = cfg::tile_items;
};
template <cuda_common::target Target, class A, class InIt>
struct level_tile<Target, A, InIt, cuda_common::tile_input::segmented> {
  using cfg = tuning<decltype(A::value), Target>;
  using agent = cuda_common::segmented_tile_scan<A, cfg::block_threads, cfg::items>;
  static constexpr int tile_items = cfg::tile_items;
};
template <cuda_common::target Target, class A, class InIt>
struct level_tile<Target, A, InIt, cuda_common::tile_input::runs> {
  using T = decltype(A::value);
  using K = typename InIt::key_type;
  using cfg = tuning<T, Target>;
  using agent = cuda_common::reduce_by_key_tile<
      T, K, cfg::block_threads, cuda_common::run_items_v<K, T, cfg::run_thread_bytes>>;
  static constexpr int tile_items = agent::tile_items;
};
template <class Build, class A, class InIt>
using level_tile_for = level_tile<Build::target, A, InIt>;

// Whether a level's tiles reduce through their agent (a segmented input, reduce_by_key's).
template <class InIt>
inline constexpr bool agent_reduces_v =
    cuda_common::tile_input_v<InIt> != cuda_common::tile_input::values;

// totals[tile] = the ordered reduction of tile `tile` of first[0..n).
template <class Archs, class A, class InIt, class Op>
__global__ void __launch_bounds__(tuning<A, cuda_common::compiled_target>::block_threads)
    upsweep_kernel(InIt first, std::int64_t n, A* totals, Op op) {
  using cfg = tuning<A, cuda_common::compiled_target>;
  using range = cuda_common::block_range_reduce<A, cfg::block_threads, cfg::items>;
  __shared__ typename range::storage storage;
  const std::int64_t tile = cuda_common::grid_block_index();
  const std::int64_t offset = tile * cfg::tile_items;
  if (offset >= n) return;
  bool has_total;
  const A total = range::reduce(
      first + offset, static_cast<int>(min(n - offset, std::int64_t{cfg::tile_items})), op,
      storage, has_total);
  if (threadIdx.x == 0) totals[tile] = total;
}

// The upsweep over a segmented input (reduce_by_key's): totals[tile] = the tile's (aggregate,
// head) (or (aggregate, runs)).
template <class Archs, bool Exclusive, class A, class InIt, class Op>
__global__ void __launch_bounds__(tuning<A, cuda_common::compiled_target>::block_threads)
    segmented_upsweep_kernel(InIt first, std::int64_t n, A* totals, Op op) {
  using level = level_tile_for<cuda_common::compiled_build<Archs>, A, InIt>;
  __shared__ typename level::agent::storage storage;
  const std::int64_t tile = cuda_common::grid_block_index();
  const std::int64_t offset = tile * level::tile_items;
  if (offset >= n) return;
  const int valid = static_cast<int>(min(n - offset, std::int64_t{level::tile_items}));
  const A total = level::agent::template reduce<Exclusive>(first + offset, valid, op, storage);
  if (threadIdx.x == 0) totals[tile] = total;
}

// Tile t > 0 starts from scanned_totals[t-1] (which includes init); tile 0 from init, if any.
// Blocks take the tiles from the last one down: the upsweep read the last tiles most recently, so
// the first downsweep reads still find them in L2 (up to its size, less DRAM traffic).
template <class Archs, bool Exclusive, bool HasInit, class A, class InIt, class OutIt, class Op,
          class Init>
__global__ void __launch_bounds__(tuning<A, cuda_common::compiled_target>::block_threads)
    downsweep_kernel(InIt first, std::int64_t n, OutIt out, const A* scanned_totals, Init init,
                     Op op) {
  using level = level_tile_for<cuda_common::compiled_build<Archs>, A, InIt>;
  using agent = typename level::agent;
  __shared__ typename agent::storage storage;
  const std::int64_t tiles = cuda_common::ceil_div<std::int64_t>(n, level::tile_items);
  const std::int64_t block = cuda_common::grid_block_index();
  if (block >= tiles) return;
  const std::int64_t tile = tiles - 1 - block;
  const cuda_common::tile_carry<A> carry{
      HasInit || tile > 0, tile > 0 ? scanned_totals[tile - 1] : static_cast<const A&>(init)};
  agent::template run_at<Exclusive>(first, n, tile * level::tile_items, out, op, storage,
                                    [&](const A&, auto&&... meanwhile) {
                                      (meanwhile(), ...);
                                      return carry;
                                    });
}

}  // namespace impl
}  // namespace pscan::cuda_multipass_backend
