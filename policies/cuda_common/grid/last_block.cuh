#pragma once
// The grid level: idioms across the blocks of one launch.

namespace pscan::cuda_common {

// The last-block election of a one-launch reduction: called by one thread of each of `blocks`
// blocks once its block's results are written, true in the block that arrives last. The fence
// before the count releases this block's results; the one after it, in the last block, acquires
// every block's. `done` is returned to 0 for the next call on the same scratch.
__device__ inline bool arrives_last(unsigned int* done, unsigned int blocks) {
  __threadfence();
  const bool last = atomicAdd(done, 1u) == blocks - 1;
  if (last) {
    atomicExch(done, 0u);
    __threadfence();
  }
  return last;
}

}  // namespace pscan::cuda_common
