#pragma once
// The tile agent of the chained kernels: load a tile into registers (blocked), reduce each
// thread's items, scan the thread totals across the block, get the tile's carry-in once the
// tile's total is known, then rescan each thread's items from its carry and store the tile.
// The carry comes from a callback, so the same agent serves the look-back kernel (the carry
// arrives from predecessors) and the one-block kernel (the carry is the running total).
// 2 op per item; in place is safe (a tile is read completely before any of it is written).

#include <cuda_common/block_scan.cuh>
#include <cuda_common/thread_scan.cuh>
#include <cuda_common/tile_io.cuh>
#include <cuda_common/utility.cuh>

namespace pscan::chained {

// A tile's carry-in: the combination of everything before it (init included), if anything.
template <class A>
struct carry {
  bool has;
  A value;
};

template <class A, int BLOCK_THREADS, int ITEMS>
struct scan_tile {
  using io = cuda::tile_io<A, BLOCK_THREADS, ITEMS>;
  using block = cuda::block_scan<A, BLOCK_THREADS>;
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;

  struct storage {
    typename io::storage io;
    typename block::storage scan;
  };

  // Scans in[0 .. valid) into out (Full: valid == tile_items, known at compile time). Every
  // thread calls carry_of(tile_total) -> carry<A> once, after the block scan; the tile total
  // is meaningful when valid > 0. Callers __syncthreads before reusing `s`.
  template <bool Exclusive, bool Full, class InIt, class OutIt, class Op, class CarryOf>
  __device__ static void run(InIt in, OutIt out, int valid, Op op, storage& s, CarryOf&& carry_of) {
    if (Full) valid = tile_items;
    A items[ITEMS];
    io::load(in, valid, items, s.io);
    const int thread_valid =
        Full ? ITEMS : min(max(valid - static_cast<int>(threadIdx.x) * ITEMS, 0), ITEMS);
    const int valid_threads = Full ? BLOCK_THREADS : cuda::ceil_div(valid, ITEMS);
    // Threads without items pass items[0] along untouched; block_scan never combines it.
    const A mine =
        thread_valid > 0 ? cuda::thread_reduce<ITEMS>(items, op, thread_valid) : items[0];
    A tile_total;
    bool has_prefix;
    const A prefix = block::exclusive(mine, op, s.scan, tile_total, has_prefix, valid_threads);
    const carry<A> tile_carry = carry_of(tile_total);
    if (thread_valid > 0) {
      // This thread's carry-in: the tile's carry, then the threads before it in the tile.
      const bool has_in = tile_carry.has || has_prefix;
      const A thread_carry = !has_prefix      ? tile_carry.value
                             : tile_carry.has ? static_cast<A>(op(tile_carry.value, prefix))
                                              : prefix;
      if constexpr (Exclusive) {  // always has_in: exclusive scans have an init
        cuda::thread_exclusive_scan<ITEMS>(items, op, thread_valid, thread_carry);
      } else {
        cuda::thread_inclusive_scan<ITEMS>(items, op, thread_valid, has_in, thread_carry);
      }
    }
    io::store(out, valid, items, s.io);
  }
};

}  // namespace pscan::chained
