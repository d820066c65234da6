#pragma once
// A block's exact sum (pscan::exact_plus): each thread sums its values in an exact_window
// (registers), which spills into its warp's 32-bit chunks in shared memory (atomics: integer
// addition, order-free); finish() adds the warps' chunks into the block's, each split at 32 bits
// with its high part moved to the next chunk, so that every chunk of a block is below 2^33 in
// magnitude whatever its count of values, and blocks' chunks add without carries.

#include <pscan/detail/exact_window.hpp>

#include <cstdint>

namespace pscan::cuda_common {

template <class T, int Threads>
struct block_exact_sum {
  static constexpr int chunks = pscan::detail::exact_window<T>::chunk_count;
  static constexpr int warps = Threads / 32;

  struct storage {
    std::int64_t warp_chunks[warps][chunks];
    std::int64_t chunk[chunks];            // the block's, after finish()
    unsigned long long specials[4];        // the block's exact_specials, in order, after finish()
  };

  // Zeroes the warps' chunks; a barrier follows.
  __device__ static void start(storage& s) {
    for (int k = threadIdx.x; k < warps * chunks; k += Threads) {
      s.warp_chunks[k / chunks][k % chunks] = 0;
    }
    if (threadIdx.x < 4) s.specials[threadIdx.x] = 0;
    __syncthreads();
  }

  // The spill of this thread's window: into its warp's chunks.
  struct spill {
    std::int64_t* chunk;
    __device__ void operator()(int k, std::int64_t piece) const {
      atomicAdd(reinterpret_cast<unsigned long long*>(chunk + k),
                static_cast<unsigned long long>(piece));
    }
  };
  __device__ static spill spill_of(storage& s) { return {s.warp_chunks[threadIdx.x / 32]}; }

  // The special terms counted in s.specials.
  __device__ static pscan::detail::exact_specials specials(const storage& s) {
    const auto count = [&](int k) { return static_cast<std::int64_t>(s.specials[k]); };
    return {count(0), count(1), count(2), count(3)};
  }

  // Adds every thread's window into s.chunk and s.specials (barriers inside and after).
  __device__ static void finish(pscan::detail::exact_window<T>& window, storage& s) {
    spill to_warp = spill_of(s);
    window.flush(to_warp);
    const pscan::detail::exact_specials& c = window.specials();
    const std::int64_t counts[4] = {c.nan, c.plus_infinity, c.minus_infinity,
                                    c.not_negative_zero};
    for (int k = 0; k < 4; ++k) {
      if (counts[k] != 0) atomicAdd(&s.specials[k], static_cast<unsigned long long>(counts[k]));
    }
    __syncthreads();
    std::int64_t sum = 0;
    if (threadIdx.x < chunks) {
      for (int w = 0; w < warps; ++w) sum += s.warp_chunks[w][threadIdx.x];
      s.chunk[threadIdx.x] = sum;
    }
    __syncthreads();
    std::int64_t split = 0;
    if (threadIdx.x < chunks) {
      const int k = threadIdx.x;
      split = (k + 1 < chunks ? sum & 0xffffffff : sum) + (k > 0 ? s.chunk[k - 1] >> 32 : 0);
    }
    __syncthreads();
    if (threadIdx.x < chunks) s.chunk[threadIdx.x] = split;
    __syncthreads();
  }
};

}  // namespace pscan::cuda_common
