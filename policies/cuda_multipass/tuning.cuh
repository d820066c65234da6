#pragma once
// Tile shapes of the multi-pass kernels, per accumulator type, tuned for sm_90: 256 threads and
// about 64 bytes per thread (16 int32/float, 8 int64/double, 4 16-byte structs), enough
// independent 16-byte loads in flight per thread to cover memory latency.

#include <cuda_common/tile_io.cuh>

#include <algorithm>

namespace pscan::multipass {

template <class A>
struct tuning {
  static constexpr int block_threads = 256;
  static constexpr int warps = block_threads / cuda::warp_threads;
  // A multiple of the items in a 16-byte unit, so that units never straddle threads.
  static constexpr int items = std::max(
      cuda::unit_items_v<A>,
      std::clamp(static_cast<int>(64 / sizeof(A)), 1, 16) / cuda::unit_items_v<A> * cuda::unit_items_v<A>);
  static constexpr int tile_items = block_threads * items;
  static constexpr int warp_items = cuda::warp_threads * items;
};

}  // namespace pscan::multipass
