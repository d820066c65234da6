#pragma once
// A tile agent whose tile stays in shared memory (the chained scan's): each warp copies its
// segment in (cp.async for aligned raw pointers), each thread reduces its ITEMS reading them
// unit by unit, the block scans the thread totals, the tile's carry-in comes from a callback,
// each thread rescans its items in place, and each warp stores its segment. Registers hold one
// 16-byte unit at a time instead of the whole tile, so many more tiles fit on an SM (bytes in
// flight are what a memory-bound scan needs). In place is safe: a tile is read before written.

#include <cuda_common/block_scan.cuh>
#include <cuda_common/tile_io.cuh>
#include <cuda_common/tile_scan.cuh>
#include <cuda_common/utility.cuh>

#include <cstdint>

namespace pscan::cuda {

template <class A, int BLOCK_THREADS, int ITEMS>
struct shared_tile_scan {
  using io = tile_io<A, BLOCK_THREADS, ITEMS>;
  using block = block_scan<A, BLOCK_THREADS>;
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;

  struct storage {
    typename io::storage tile;
    typename block::storage scan;
  };

  // Scans in[0 .. valid) into out (1 <= valid <= tile_items), as tile_scan::run: every thread
  // calls carry_of(tile_total) -> tile_carry<A> once, after the block scan. Callers
  // __syncthreads before reusing `s`.
  template <bool Exclusive, class InIt, class OutIt, class Op, class CarryOf>
  __device__ static void run(InIt in, OutIt out, int valid, Op op, storage& s, CarryOf&& carry_of) {
    io::load_to_shared(in, valid, s.tile);
    A* region = io::warp_region(s.tile);
    const int first_unit = lane_id() * io::thread_units;  // this thread's items, in its warp's region
    const int thread_valid = min(max(valid - static_cast<int>(threadIdx.x) * ITEMS, 0), ITEMS);
    A mine{};  // threads without items pass it along; block_scan never combines it
    if (thread_valid > 0) {
#pragma unroll
      for (int j = 0; j < io::thread_units; ++j) {
        A unit[io::unit_items];
        io::read_unit(region, first_unit + j, unit);
#pragma unroll
        for (int k = 0; k < io::unit_items; ++k) {
          const int i = j * io::unit_items + k;
          if (i < thread_valid) mine = i == 0 ? unit[k] : static_cast<A>(op(mine, unit[k]));
        }
      }
    }
    A total;
    bool has_prefix;
    const A prefix =
        block::exclusive(mine, op, s.scan, total, has_prefix, ceil_div(valid, ITEMS));
    const tile_carry<A> carry = carry_of(total);
    if (thread_valid > 0) {
      // This thread's carry-in: the tile's carry, then the threads before it in the tile.
      bool has_in = carry.has || has_prefix;
      A running = !has_prefix ? carry.value
                  : carry.has ? static_cast<A>(op(carry.value, prefix))
                              : prefix;
#pragma unroll
      for (int j = 0; j < io::thread_units; ++j) {
        A unit[io::unit_items];
        io::read_unit(region, first_unit + j, unit);
#pragma unroll
        for (int k = 0; k < io::unit_items; ++k) {
          if (j * io::unit_items + k < thread_valid) {
            const A next = has_in ? static_cast<A>(op(running, unit[k])) : unit[k];
            unit[k] = Exclusive ? running : next;  // exclusive scans always have a carry-in
            running = next;
            has_in = true;
          }
        }
        io::write_unit(region, first_unit + j, unit);
      }
    }
    io::store_from_shared(out, valid, s.tile);
  }
};

}  // namespace pscan::cuda
