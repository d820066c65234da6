#pragma once
// The scan kernels of the chained backend.
//  - chained_scan_kernel: one block per tile, single pass. Each block draws its tile id from a
//    ticket counter (never blockIdx: a tile only ever waits on tiles whose blocks already run)
//    and splits into two roles. The data warps scan the tile in shared memory (many small
//    blocks per SM keep many tiles loading) and publish its aggregate the moment they have it;
//    the look-back warp finds the tile's carry meanwhile, polling from the start (its end is
//    set by the predecessors, not by when it starts: docs/algorithms.md, "The look-back warp
//    polls from the start"). The look-back is
//    decoupled (default, TreeLevels 0) or the fixed tree of TreeLevels levels (deterministic);
//    tile state is tagged with the call's epoch.
//  - single_block_scan_kernel: an input of one register-resident tile, scanned by one block: no
//    tile state, no look-back, still one launch.
//  - cluster_scan_kernel: an input of a few register-resident tiles, one block each, in one
//    thread block cluster: the blocks trade tile totals through distributed shared memory
//    behind one cluster barrier, instead of publishing to and polling L2 (and in a fixed order,
//    so the result is deterministic).

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/tuning.cuh>
#include <pscan/policies/cuda_chained/warp/warp_lookback.cuh>
#include <pscan/policies/cuda_chained/warp/warp_tree_lookback.cuh>
#include <pscan/policies/cuda_common/warp/warp_range_reduce.cuh>

#include <pscan/policies/cuda_common/block/barrier.cuh>
#include <pscan/policies/cuda_common/tile/reduce_by_key_tile.cuh>
#include <pscan/policies/cuda_common/tile/segmented_tile_scan.cuh>
#include <pscan/policies/cuda_common/tile/shared_tile_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_input.cuh>
#include <pscan/policies/cuda_common/tile/tile_scan.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

#include <pscan/future_value.hpp>

#include <cooperative_groups.h>

#include <cstdint>
#include <type_traits>

namespace pscan::cuda_chained_backend {

// What the chained kernel's data warps run over each kind of input: the tile agent (for THREADS
// threads of ITEMS items), the items a thread of large and small tiles, and the blocks an SM.
// Plain values take shared_tile_scan; a segmented input the segmented tile agent over its plain
// values (accumulators flagged<T>); reduce_by_key's keys and values its own agent (accumulators
// counted<T>), in tiles sized by keys and values together.
template <cuda_common::target Target, class A, class InIt,
          cuda_common::tile_input Kind = cuda_common::tile_input_v<InIt>>
struct chained_input {
  using cfg = tuning<A, Target>;
  template <int THREADS, int ITEMS, class Barrier>
  using agent = cuda_common::shared_tile_scan<A, THREADS, ITEMS, Barrier>;
  static constexpr int items = cfg::scan_items;
  static constexpr int small_items = cfg::small_scan_items;
  static constexpr int min_blocks_per_sm = cfg::scan_min_blocks_per_sm;
};
template <cuda_common::target Target, class A, class InIt>
struct chained_input<Target, A, InIt, cuda_common::tile_input::segmented> {
  using cfg = tuning<decltype(A::value), Target>;
  template <int THREADS, int ITEMS, class Barrier>
  using agent = cuda_common::segmented_tile_scan<A, THREADS, ITEMS, Barrier>;
  static constexpr int items = cfg::scan_items;
  static constexpr int small_items = cfg::small_scan_items;
  static constexpr int min_blocks_per_sm = cfg::segmented_min_blocks_per_sm;
};
template <cuda_common::target Target, class A, class InIt>
struct chained_input<Target, A, InIt, cuda_common::tile_input::runs> {
  using T = decltype(A::value);
  using K = typename InIt::key_type;
  using cfg = tuning<T, Target>;
  template <int THREADS, int ITEMS, class Barrier>
  using agent = cuda_common::reduce_by_key_tile<T, K, THREADS, ITEMS, Barrier>;
  static constexpr int items = cuda_common::run_items_v<K, T, cfg::run_thread_bytes>;
  static constexpr int small_items = cuda_common::run_items_v<K, T, cfg::small_run_thread_bytes>;
  static constexpr int min_blocks_per_sm = cfg::run_min_blocks_per_sm;
};

// The chained kernel's block: tuning's scan_threads data threads of ITEMS items each, running
// the input's agent, then one look-back warp.
template <cuda_common::target Target, class A, int ITEMS, class InIt>
struct chained_block {
  using input = chained_input<Target, A, InIt>;
  static constexpr int data_threads = tuning<A, Target>::scan_threads;
  static constexpr int threads = data_threads + cuda_common::warp_threads;
  static constexpr int lookback_warp = data_threads / cuda_common::warp_threads;
  using data_barrier = cuda_common::named_barrier<1, data_threads>;
  using carry_ready = cuda_common::named_barrier<2, threads>;  // look-back warp -> data warps
  using tile = typename input::template agent<data_threads, ITEMS, data_barrier>;
  static constexpr int min_blocks_per_sm = input::min_blocks_per_sm;
  // Tiles past what a block may declare statically (48 KiB, less the kernel's few other bytes)
  // live in dynamic shared memory, of this many bytes (0: static).
  static constexpr int dynamic_shared_bytes =
      sizeof(typename tile::storage) > 47 * 1024 ? static_cast<int>(sizeof(typename tile::storage))
                                                 : 0;
};

// The tile's storage of a chained kernel's block: what the kernel declared, or the dynamic shared
// memory that the launch sized (the declaration then a placeholder).
template <class Block, class Declared>
__device__ typename Block::tile::storage& chained_tile_storage(Declared& declared) {
  using storage = typename Block::tile::storage;
  if constexpr (Block::dynamic_shared_bytes > 0) {
    extern __shared__ uint4 dynamic_shared[];
    static_assert(alignof(storage) <= alignof(uint4));
    return *reinterpret_cast<storage*>(dynamic_shared);
  } else {
    return declared;
  }
}

// The one-block and cluster kernels' tiles, in registers.
template <cuda_common::target Target, class A, int ITEMS = tuning<A, Target>::register_items>
using register_tile = cuda_common::tile_scan<A, tuning<A, Target>::scan_threads, ITEMS>;

// Run by the look-back warp of tile `tile`: deliver(carry) with its carry-in (init, when there
// is one, comes first). A callback rather than a return value: the default kernels' code is
// faster this way (docs/algorithms.md, "The carry goes to a callback").
template <cuda_common::target Target, bool HasInit, int TreeLevels, class A, class Init, class Op,
          class Deliver>
__device__ void lookback_carry(const tile_state<A>& state, std::uint32_t tile, std::uint32_t tiles,
                               const Init& init, Op op, backoff wait, Deliver&& deliver) {
  if constexpr (TreeLevels > 0) {
    A prefix{};
    const bool has = tree_lookback<TreeLevels>(state, tile, tiles, op, wait, prefix);
    if constexpr (HasInit) {
      deliver(cuda_common::tile_carry<A>{
          true, has ? static_cast<A>(op(static_cast<const A&>(init), prefix))
                    : static_cast<const A&>(init)});
    } else {
      deliver(cuda_common::tile_carry<A>{has, prefix});
    }
  } else if (tile == 0) {
    // Tile 0's inclusive prefix carries init, so every later prefix includes it.
    deliver(cuda_common::tile_carry<A>{HasInit, static_cast<const A&>(init)});
  } else {
    deliver(cuda_common::tile_carry<A>{
        true, decoupled_lookback<tuning<A, Target>::lookback_items>(state, tile, op, wait)});
  }
}

template <class Archs, bool Exclusive, bool HasInit, int TreeLevels, int ITEMS, class A,
          class InIt, class OutIt, class Op, class Init>
__global__ void __launch_bounds__(
    (chained_block<cuda_common::compiled_target, A, ITEMS, InIt>::threads),
    cuda_common::min_blocks_hint(
        chained_block<cuda_common::compiled_target, A, ITEMS, InIt>::min_blocks_per_sm,
        chained_block<cuda_common::compiled_target, A, ITEMS, InIt>::threads))
    chained_scan_kernel(InIt first, std::int64_t n, OutIt out, Init init, Op op,
                        tile_state<A> state, std::uint32_t tiles) {
  using cfg = tuning<A, cuda_common::compiled_target>;
  using block = chained_block<cuda_common::compiled_target, A, ITEMS, InIt>;
  constexpr bool deterministic = TreeLevels > 0;
  constexpr int tile_items = block::tile::tile_items;
  __shared__ std::conditional_t<block::dynamic_shared_bytes == 0, typename block::tile::storage,
                                 char>
      storage;
  __shared__ cuda_common::uninitialized_array<A, 1> carry_value;
  __shared__ bool carry_has;
  __shared__ std::uint32_t tile_id;

  if (threadIdx.x == 0) tile_id = state.draw_ticket(tiles);
  __syncthreads();
  const std::uint32_t tile = tile_id;

  if (cuda_common::warp_id() == block::lookback_warp) {
    lookback_carry<cuda_common::compiled_target, HasInit, TreeLevels>(
        state, tile, tiles, init, op, backoff{cfg::backoff_min_ns, cfg::backoff_max_ns},
        [&](const cuda_common::tile_carry<A>& c) {
          if (cuda_common::lane_id() == 0) {
            carry_has = c.has;
            carry_value[0] = c.value;
          }
          block::carry_ready::arrive();
        });
    return;
  }

  // Data warps. Successors wait on this tile's aggregate (the tree's node (0, tile)): it goes
  // out before anything waits; then the agent's work that needs no carry, if any (meanwhile);
  // the inclusive prefix follows once the carry is in.
  auto carry_of = [&](const A& total, auto&&... meanwhile) {
    const bool publisher = threadIdx.x == 0;
    // A segmented tile whose total starts a segment needs nothing from its left: its inclusive
    // prefix is its aggregate, published as such at once.
    bool own_prefix = false;
    if constexpr (!deterministic &&
                  cuda_common::tile_input_v<InIt> == cuda_common::tile_input::segmented)
      own_prefix = block::tile::own_prefix(total);
    if (publisher && (deterministic || tile > 0 || own_prefix)) {
      state.publish(tile, total, own_prefix ? tile_status::prefix : tile_status::aggregate);
    }
    (meanwhile(), ...);
    block::carry_ready::sync();
    const cuda_common::tile_carry<A> carry{carry_has, carry_value[0]};
    if (!deterministic && publisher && !own_prefix) {
      state.publish(tile, carry.has ? static_cast<A>(op(carry.value, total)) : total,
                    tile_status::prefix);
    }
    return carry;
  };
  const std::int64_t offset = std::int64_t{tile} * tile_items;
  const int valid = cuda_common::valid_items(n, offset, tile_items);
  block::tile::template run<Exclusive>(first + offset, out + offset, valid, op,
                                       chained_tile_storage<block>(storage), carry_of);
}

template <class Archs, bool Exclusive, bool HasInit, class A, class InIt, class OutIt, class Op,
          class Init>
__global__ void __launch_bounds__(tuning<A, cuda_common::compiled_target>::scan_threads)
    single_block_scan_kernel(InIt first, std::int64_t n, OutIt out, Init init, Op op) {
  using agent = register_tile<cuda_common::compiled_target, A>;
  __shared__ typename agent::storage storage;
  const pscan::detail::kept_init_t<Init> init_value = static_cast<const A&>(init);
  agent::template run_at<Exclusive>(first, n, 0, out, op, storage, [&](const A&) {
    return cuda_common::tile_carry<A>{HasInit, init_value};
  });
}

// Launched with one cluster of gridDim.x (<= 32) blocks of ITEMS items a thread, where the
// device runs code compiled for sm_90 or later: thread block clusters came with sm_90.
template <class Archs, bool Exclusive, bool HasInit, int ITEMS, class A, class InIt, class OutIt,
          class Op, class Init>
__global__ void __launch_bounds__(tuning<A, cuda_common::compiled_target>::scan_threads)
    cluster_scan_kernel(InIt first, std::int64_t n, OutIt out, Init init, Op op) {
  // Below sm_90 cooperative_groups declares no clusters.
#if __CUDA_ARCH__ >= 900
  using agent = register_tile<cuda_common::compiled_target, A, ITEMS>;
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  __shared__ typename agent::storage storage;
  __shared__ cuda_common::uninitialized_array<A, 1> tile_total;
  __shared__ cuda_common::uninitialized_array<A, 1> carry_value;
  const int tile = static_cast<int>(cluster.block_rank());
  auto carry_of = [&](const A& total) {
    if (threadIdx.x == 0) tile_total[0] = total;
    cluster.sync();  // every tile's total is out
    if (cuda_common::warp_id() == 0 && tile > 0) {
      const int lane = cuda_common::lane_id();
      const A before = lane < tile ? *cluster.map_shared_rank(&tile_total[0], lane) : A{};
      const A prefix = cuda_common::warp_range_reduce(before, 0, tile - 1, op);
      if (lane == 0) {
        carry_value[0] =
            HasInit ? static_cast<A>(op(static_cast<const A&>(init), prefix)) : prefix;
      }
    }
    cluster.barrier_arrive();  // done reading the other blocks' shared memory
    if (tile == 0) return cuda_common::tile_carry<A>{HasInit, static_cast<const A&>(init)};
    __syncthreads();
    return cuda_common::tile_carry<A>{true, carry_value[0]};
  };
  agent::template run_at<Exclusive>(first, n, std::int64_t{tile} * agent::tile_items, out, op,
                                    storage, carry_of);
  cluster.barrier_wait();  // a block's shared memory must outlive the other blocks' reads
#else
  __trap();
#endif
}

}  // namespace pscan::cuda_chained_backend
