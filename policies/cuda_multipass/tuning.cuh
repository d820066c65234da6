#pragma once
// Tile shapes of the multi-pass kernels, per accumulator type, tuned for sm_90: 256 threads and
// about 64 bytes per thread (cuda::items_per_64_bytes_v).

#include <cuda_common/tile/tile_io.cuh>

namespace pscan::multipass {

template <class A>
struct tuning {
  static constexpr int block_threads = 256;
  static constexpr int items = cuda::items_per_64_bytes_v<A>;
  static constexpr int tile_items = block_threads * items;
};

}  // namespace pscan::multipass
