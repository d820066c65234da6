#pragma once
// Asynchronous global -> shared copies (cp.async, sm_80+): data in flight lands in shared memory
// without holding registers, so a block needs few registers and many fit on an SM. Each thread
// waits for its own copies; a __syncwarp/__syncthreads then shares them. Code compiled below
// sm_80 copies through registers instead: the header picks by the architecture being compiled,
// so the choice follows the code that runs.

#include <cuda_pipeline_primitives.h>

namespace pscan::cuda {

// 16 bytes, both addresses 16-byte aligned.
__device__ __forceinline__ void copy_async_16(void* shared_dst, const void* global_src) {
  __pipeline_memcpy_async(shared_dst, global_src, 16);
}

// Closes the calling thread's current group of copies.
__device__ __forceinline__ void commit_async_copies() { __pipeline_commit(); }

// Waits for all of the calling thread's committed copies.
__device__ __forceinline__ void wait_async_copies() { __pipeline_wait_prior(0); }

}  // namespace pscan::cuda
