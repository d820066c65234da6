#pragma once
// Block barriers for kernels whose warps take different roles. block_barrier is __syncthreads;
// named_barrier<ID, THREADS> is hardware barrier ID (1..15; 0 is __syncthreads') over THREADS
// threads, whole warps: sync() waits for all of them, arrive() counts the calling warp without
// waiting. Either way, shared-memory writes before the barrier are visible after it to whoever
// syncs on it (PTX: bar.arrive synchronizes with bar.sync).

#include <pscan/policies/cuda_common/utility.cuh>

namespace pscan::cuda_common {

struct block_barrier {
  __device__ __forceinline__ static void sync() { __syncthreads(); }
};

template <int ID, int THREADS>
struct named_barrier {
  static_assert(ID >= 1 && ID < 16, "named barriers are 1 .. 15 (0 is __syncthreads')");
  static_assert(THREADS % warp_threads == 0, "named barriers count whole warps");
  __device__ __forceinline__ static void sync() {
    asm volatile("bar.sync %0, %1;" ::"n"(ID), "n"(THREADS) : "memory");
  }
  __device__ __forceinline__ static void arrive() {
    asm volatile("bar.arrive %0, %1;" ::"n"(ID), "n"(THREADS) : "memory");
  }
};

}  // namespace pscan::cuda_common
