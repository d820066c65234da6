#pragma once
// The register-resident tile agent: load a tile into registers (blocked), reduce each thread's
// items, scan the thread totals across the block, get the tile's carry-in once the tile's total
// is known, then rescan each thread's items from its carry and store the tile. The carry comes
// from a callback: the multi-pass downsweep reads it from the scanned tile totals, the chained
// one-block kernel has none (or init), the chained cluster kernel combines the other blocks'
// totals. The chained look-back kernel uses shared_tile_scan.cuh, which keeps the tile in shared
// memory and shares tile_carry and thread_carry_in from here.
// 2 op per item; in place is safe (a tile is read completely before any of it is written).

#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/thread/thread_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

#include <pscan/detail/partial.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// A tile's carry-in: the combination of everything before it (init included), if anything.
template <class A>
using tile_carry = pscan::detail::partial<A>;

// A thread's carry-in: the tile's carry, then (has_prefix) the threads before it in the tile.
template <class A, class Op>
__device__ __forceinline__ tile_carry<A> thread_carry_in(const tile_carry<A>& tile, bool has_prefix,
                                                         const A& prefix, Op op) {
  if (!has_prefix) return tile;
  return {true, tile.has ? static_cast<A>(op(tile.value, prefix)) : prefix};
}

template <class A, int BLOCK_THREADS, int ITEMS>
struct tile_scan {
  using io = tile_io<A, BLOCK_THREADS, ITEMS>;
  using block = block_scan<A, BLOCK_THREADS>;
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;

  struct storage {
    typename io::storage io;
    typename block::storage scan;
  };

  // Scans in[0 .. valid) into out: out[i] = carry op in[0] op ... op in[i] (Exclusive: up to
  // in[i-1]; Full: valid == tile_items, known at compile time). Every thread calls
  // carry_of(tile_total) -> tile_carry<A> once, after the block scan; the tile total is
  // meaningful when valid > 0. Callers __syncthreads before reusing `s`.
  template <bool Exclusive, bool Full, class InIt, class OutIt, class Op, class CarryOf>
  __device__ static void run(InIt in, OutIt out, int valid, Op op, storage& s, CarryOf&& carry_of) {
    if (Full) valid = tile_items;
    A items[ITEMS];
    io::load(in, valid, items, s.io);
    const int thread_valid =
        Full ? ITEMS : min(max(valid - static_cast<int>(threadIdx.x) * ITEMS, 0), ITEMS);
    const int valid_threads = Full ? BLOCK_THREADS : ceil_div(valid, ITEMS);
    // Threads without items pass items[0] along untouched; block_scan never combines it.
    const A mine = thread_valid > 0 ? thread_reduce<ITEMS>(items, op, thread_valid) : items[0];
    A total;
    bool has_prefix;
    const A prefix = block::exclusive(mine, op, s.scan, total, has_prefix, valid_threads);
    const tile_carry<A> carry = carry_of(total);
    if (thread_valid > 0) {
      const tile_carry<A> in = thread_carry_in(carry, has_prefix, prefix, op);
      if constexpr (Exclusive) {  // always in.has: exclusive scans have an init
        thread_exclusive_scan<ITEMS>(items, op, thread_valid, in.value);
      } else {
        thread_inclusive_scan<ITEMS>(items, op, thread_valid, in.has, in.value);
      }
    }
    io::store(out, valid, items, s.io);
  }

  // run() for the tile at `offset` of in[0 .. n), full or partial as n decides.
  template <bool Exclusive, class InIt, class OutIt, class Op, class CarryOf>
  __device__ static void run_at(InIt in, std::int64_t n, std::int64_t offset, OutIt out, Op op,
                                storage& s, CarryOf&& carry_of) {
    if (n - offset >= tile_items) {
      run<Exclusive, true>(in + offset, out + offset, tile_items, op, s, carry_of);
    } else {
      const int valid = static_cast<int>(n - offset);
      run<Exclusive, false>(in + offset, out + offset, valid, op, s, carry_of);
    }
  }
};

}  // namespace pscan::cuda_common
