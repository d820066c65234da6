#pragma once
// Asynchronous global -> shared copies (cp.async, sm_80+): data in flight lands in shared memory
// without holding registers, so a block needs few registers and many fit on an SM. Each thread
// waits for its own copies; a __syncwarp/__syncthreads then shares them. Code compiled below
// sm_80 copies through registers instead: the header picks by the architecture being compiled,
// so the choice follows the code that runs.

#include <cuda_pipeline_primitives.h>

namespace pscan::cuda_common {

// BYTES (4, 8 or 16) bytes, both addresses aligned to BYTES.
template <int BYTES>
__device__ __forceinline__ void copy_async(void* shared_dst, const void* global_src) {
  static_assert(BYTES == 4 || BYTES == 8 || BYTES == 16, "cp.async moves 4, 8 or 16 bytes");
  __pipeline_memcpy_async(shared_dst, global_src, BYTES);
}

// 16 bytes, both addresses 16-byte aligned.
__device__ __forceinline__ void copy_async_16(void* shared_dst, const void* global_src) {
  copy_async<16>(shared_dst, global_src);
}

// Closes the calling thread's current group of copies.
__device__ __forceinline__ void commit_async_copies() { __pipeline_commit(); }

// Waits for all of the calling thread's committed copies.
__device__ __forceinline__ void wait_async_copies() { __pipeline_wait_prior(0); }

}  // namespace pscan::cuda_common
