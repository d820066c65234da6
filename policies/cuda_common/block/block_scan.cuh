#pragma once
// Block level (Harris, Sengupta & Owens, GPU Gems 3 ch. 39, with warp shuffles): every warp
// scans its lanes with shuffles, the warps' totals go through shared memory, and each thread
// combines the totals of the warps before its own (at most 31 operations, no second barrier).
// One Barrier::sync (__syncthreads unless the block's scanning warps are a subset with a named
// barrier) per call: callers sync before reusing the storage. `valid_threads` (default: all)
// lets a partial tile scan only threads 0 .. valid_threads-1; the others never call op, get no
// prefix, and their results are meaningless.

#include <pscan/policies/cuda_common/block/barrier.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

namespace pscan::cuda_common {

template <class T, int BLOCK_THREADS, class Barrier = block_barrier>
struct block_scan {
  static_assert(BLOCK_THREADS % warp_threads == 0 && BLOCK_THREADS <= 1024,
                "BLOCK_THREADS must be a multiple of 32, at most 1024");
  static constexpr int warps = BLOCK_THREADS / warp_threads;

  struct storage {
    uninitialized_array<T, warps> warp_totals;
  };

  // Returns x[0] op ... op x[t] to thread t; block_total (every thread) = all valid threads.
  template <class Op>
  __device__ static T inclusive(T x, Op op, storage& s, T& block_total,
                                int valid_threads = BLOCK_THREADS) {
    bool has_warp_prefix;
    T warp_prefix;
    const T in_warp =
        scan_warps(x, op, s, valid_threads, block_total, warp_prefix, has_warp_prefix);
    return has_warp_prefix ? static_cast<T>(op(warp_prefix, in_warp)) : in_warp;
  }

  // Returns x[0] op ... op x[t-1] to thread t with has_prefix = true; thread 0 and the threads
  // past valid_threads have no prefix (has_prefix = false, the returned value is meaningless),
  // so that no caller combines the values of threads without items.
  template <class Op>
  __device__ static T exclusive(T x, Op op, storage& s, T& block_total, bool& has_prefix,
                                int valid_threads = BLOCK_THREADS) {
    bool has_warp_prefix;
    T warp_prefix;
    const T in_warp =
        scan_warps(x, op, s, valid_threads, block_total, warp_prefix, has_warp_prefix);
    const T lower = warp_shuffle_up(in_warp, 1);  // the lower lane's inclusive value
    if (lane_id() == 0) {
      has_prefix = has_warp_prefix;
      return warp_prefix;
    }
    has_prefix = static_cast<int>(threadIdx.x) < valid_threads;
    return has_warp_prefix ? static_cast<T>(op(warp_prefix, lower)) : lower;
  }

 private:
  // Scans within each warp and publishes the warp totals; gives each thread the combined totals
  // of the warps before its own (warp_prefix, when there are any) and of all valid warps.
  template <class Op>
  __device__ static T scan_warps(T x, Op op, storage& s, int valid_threads, T& block_total,
                                 T& warp_prefix, bool& has_warp_prefix) {
    const int warp = warp_id();
    const int warp_valid = min(max(valid_threads - warp * warp_threads, 0), warp_threads);
    const T in_warp = warp_inclusive_scan(x, op, warp_valid);
    if (lane_id() == warp_valid - 1) s.warp_totals[warp] = in_warp;
    Barrier::sync();
    const int valid_warps = ceil_div(valid_threads, warp_threads);
    block_total = s.warp_totals[0];
    warp_prefix = block_total;
#pragma unroll
    for (int w = 1; w < warps; ++w) {
      if (w == warp) warp_prefix = block_total;
      if (w < valid_warps) block_total = static_cast<T>(op(block_total, s.warp_totals[w]));
    }
    // Threads past the valid ones take no prefix, so op never sees their (arbitrary) x.
    has_warp_prefix = warp > 0 && static_cast<int>(threadIdx.x) < valid_threads;
    return in_warp;
  }
};

}  // namespace pscan::cuda_common
