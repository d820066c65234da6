#pragma once
// Small pieces every CUDA kernel of pscan uses: integer ceil-division, the lane index, and raw
// shared-memory storage for types that may not be default-constructible in __shared__.

#include <pscan/detail/config.hpp>

#include <cstdint>

namespace pscan::cuda_common {

inline constexpr int warp_threads = 32;
inline constexpr unsigned full_warp_mask = 0xffffffffu;

template <class I>
PSCAN_HOST_DEVICE constexpr I ceil_div(I a, I b) {
  return (a + b - 1) / b;
}

// Items in the piece of at most `piece_items` that starts at `offset` (< n) of a range of n.
template <class Index>
PSCAN_HOST_DEVICE constexpr int valid_items(Index n, Index offset, int piece_items) {
  return n - offset < piece_items ? static_cast<int>(n - offset) : piece_items;
}

// Kernels of pscan use one-dimensional blocks, so the lane is the low 5 bits of threadIdx.x.
__device__ __forceinline__ int lane_id() {
  return static_cast<int>(threadIdx.x) & (warp_threads - 1);
}
__device__ __forceinline__ int warp_id() { return static_cast<int>(threadIdx.x) / warp_threads; }

// N objects of type T in shared memory without running constructors (__shared__ variables cannot
// have them); 16-byte aligned so that 128-bit shared-memory accesses are allowed.
template <class T, int N>
struct uninitialized_array {
  alignas(alignof(T) > 16 ? alignof(T) : 16) unsigned char bytes[sizeof(T) * N];

  __device__ __forceinline__ T* data() { return reinterpret_cast<T*>(bytes); }
  __device__ __forceinline__ T& operator[](int i) { return data()[i]; }
};

}  // namespace pscan::cuda_common
