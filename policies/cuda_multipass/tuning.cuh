#pragma once
// Tile shapes of the multi-pass kernels, by target (cuda_common/target.cuh) and accumulator type:
// 256 threads and about 64 bytes per thread (cuda_common::items_per_64_bytes_v), measured on sm_90.
// The same on every target: these kernels use nothing an older GPU lacks, nor more shared memory
// than it has.

#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>

namespace pscan::cuda_multipass_backend {

template <class A, cuda_common::target Target>
struct tuning {
  static constexpr int block_threads = 256;
  static constexpr int items = cuda_common::items_per_64_bytes_v<A>;
  static constexpr int tile_items = block_threads * items;
};

}  // namespace pscan::cuda_multipass_backend
