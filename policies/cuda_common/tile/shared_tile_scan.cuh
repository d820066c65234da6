#pragma once
// A tile agent whose tile stays in shared memory (the chained scan's): each warp copies its
// segment in (cp.async for aligned raw pointers), each thread reduces its ITEMS reading them
// unit by unit, the block scans the thread totals, the tile's carry-in comes from a callback,
// each thread rescans its items in place, and each warp stores its segment. Registers hold one
// 16-byte unit at a time instead of the whole tile, so many more tiles fit on an SM (bytes in
// flight are what a memory-bound scan needs). In place is safe: a tile is read before written.

#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/tile/tile_scan.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

#include <cstdint>

namespace pscan::cuda_common {

// BLOCK_THREADS are the block's first threads; Barrier syncs exactly them (a named barrier when
// the block has other warps too).
template <class A, int BLOCK_THREADS, int ITEMS, class Barrier = block_barrier>
struct shared_tile_scan {
  using io = tile_io<A, BLOCK_THREADS, ITEMS>;
  using block = block_scan<A, BLOCK_THREADS, Barrier>;
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;

  struct storage {
    typename io::storage tile;
    typename block::storage scan;
  };

  // Scans in[0 .. valid) into out (1 <= valid <= tile_items), as tile_scan::run: every thread
  // calls carry_of(tile_total) -> tile_carry<A> once, after the block scan. Callers sync
  // (Barrier) before reusing `s`.
  template <bool Exclusive, class InIt, class OutIt, class Op, class CarryOf>
  __device__ static void run(InIt in, OutIt out, int valid, Op op, storage& s, CarryOf&& carry_of) {
    io::load_to_shared(in, valid, s.tile);
    A* region = io::warp_region(s.tile);
    const int thread_valid = min(max(valid - static_cast<int>(threadIdx.x) * ITEMS, 0), ITEMS);
    A mine{};  // threads without items pass it along; block_scan never combines it
    bool has_mine = false;
    io::template for_thread_items<false>(region, thread_valid, [&](A& item, int) {
      mine = has_mine ? static_cast<A>(op(mine, item)) : item;
      has_mine = true;
    });
    A total;
    bool has_prefix;
    const A prefix = block::exclusive(mine, op, s.scan, total, has_prefix, ceil_div(valid, ITEMS));
    tile_carry<A> running = thread_carry_in(carry_of(total), has_prefix, prefix, op);
    // Exclusive scans always have a carry-in (their init).
    io::template for_thread_items<true>(region, thread_valid, [&](A& item, int) {
      const A next = running.has ? static_cast<A>(op(running.value, item)) : item;
      item = Exclusive ? running.value : next;
      running = {true, next};
    });
    io::store_from_shared(out, valid, s.tile);
  }
};

}  // namespace pscan::cuda_common
