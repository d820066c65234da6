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
  // reduce_by_key's tiles keep keys, values and 2-byte run table entries in shared memory: at
  // most this many bytes a thread (16 int32 pairs), 48 KiB a tile at most.
  static constexpr int run_thread_bytes = 190;
};

}  // namespace pscan::cuda_multipass_backend
