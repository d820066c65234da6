#pragma once
// Block level: ordered reductions of one value per thread or per warp, warps combined in warp
// order (op need not commute). One __syncthreads per call: callers sync before reusing storage.

#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

namespace pscan::cuda_common {

template <class T, int BLOCK_THREADS>
struct block_reduce {
  static_assert(BLOCK_THREADS % warp_threads == 0 && BLOCK_THREADS <= 1024,
                "BLOCK_THREADS must be a multiple of 32, at most 1024");
  static constexpr int warps = BLOCK_THREADS / warp_threads;

  struct storage {
    uninitialized_array<T, warps> warp_totals;
    bool warp_has_total[warps];
  };

  // Combines one value per warp (warp_total, the same in all lanes of a warp) in warp order,
  // skipping warps whose has_value is false. Returns the total to every thread; has_total is
  // false (and the result meaningless) when no warp had a value.
  template <class Op>
  __device__ static T warp_totals(const T& warp_total, bool has_value, Op op, storage& s,
                                  bool& has_total) {
    const int warp = warp_id();
    if (lane_id() == 0) {
      s.warp_has_total[warp] = has_value;
      if (has_value) s.warp_totals[warp] = warp_total;
    }
    __syncthreads();
    // Every slot is read before any is combined, so that the loads overlap rather than wait on
    // each flag in turn; a slot without a value is read, never combined.
    T totals[warps];
    bool has[warps];
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      has[w] = s.warp_has_total[w];
      totals[w] = s.warp_totals[w];
    }
    T total = warp_total;
    has_total = false;
#pragma unroll
    for (int w = 0; w < warps; ++w) {
      if (has[w]) {
        total = has_total ? static_cast<T>(op(total, totals[w])) : totals[w];
        has_total = true;
      }
    }
    return total;
  }

  // Total of threads 0 .. valid_threads-1 (valid_threads >= 1), returned to every thread.
  template <class Op>
  __device__ static T reduce(const T& x, Op op, storage& s, int valid_threads = BLOCK_THREADS) {
    const int warp_valid = min(max(valid_threads - warp_id() * warp_threads, 0), warp_threads);
    const T warp_total = warp_valid == warp_threads ? warp_reduce(x, op)
                                                    : warp_reduce(x, op, max(warp_valid, 1));
    bool has_total;
    return warp_totals(warp_total, warp_valid > 0, op, s, has_total);
  }
};

}  // namespace pscan::cuda_common
