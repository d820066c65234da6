#pragma once
// Tuning of cuda_common's own kernels (kernels/), shared by both CUDA backends: the shapes measured
// on H100/H200 (docs/algorithms.md). Each backend's look-back or reduce-then-scan kernels have
// their own (cuda_chained/tuning.cuh, cuda_multipass/tuning.cuh).

#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>

#include <pscan/detail/exact.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// The grid of a reduction over block shares (launch.cuh's share_blocks). Up to 4 block steps,
// one block: on H100 one block over 2 and 4 steps took 5.2 and 6.0 us, 2 and 4 blocks and a last
// one combining them 6.8 and 6.5 us. Beyond, eight waves (the GPU's resident blocks, eight
// times), so that the block scheduler evens out the tail: on H100 at 2^24-2^28, 0.7 % faster
// than one wave.
struct share_grid_tuning {
  static constexpr std::int64_t single_block_steps = 4;
  static constexpr std::int64_t waves = 8;
};

// A warp walks chunks of 32 lanes x 64 bytes of elements (16 floats, 8 doubles), the next one
// in flight by cp.async while it works on one: two chunks and their head bytes a warp, 36 KiB a
// block of 8 warps, four blocks an SM at up to 64 registers a thread. Larger types in smaller
// blocks.
template <class A, target Target>
struct segmented_reduce_tuning {
  static constexpr int block_threads = sizeof(A) <= 64 ? 256 : 64;
  static constexpr int min_blocks = 4;
  static constexpr int items = items_per_64_bytes_v<A>;
};

// exact_plus reductions: a wave of blocks of 256, each thread loading eight values before it adds
// them (eight loads in flight). A block's warps take at most max_block_values values, so that no
// chunk of theirs nears 2^63 (three pieces below 2^32 a value at most).
struct exact_reduce_tuning {
  static constexpr int threads = 256;
  static constexpr int items = 8;
  static constexpr std::int64_t max_block_values = std::int64_t{1} << 24;
};

// exact_plus scans: a tile of 16 values a thread is an exact block; a column's scan takes 16
// consecutive entries a thread a step.
struct exact_scan_tuning {
  static constexpr int threads = 256;
  static constexpr int items = 16;
  static constexpr int column_items = 16;
  static constexpr int tile_items = threads * items;
  static_assert(tile_items == pscan::detail::exact_block_items,
                "a tile is an exact block: exact_prefix_window's span assumes at most 2^12 values");
};

// The offsets' check: a grid-strided pass, blocks of 256.
inline constexpr int check_offsets_block_threads = 256;

}  // namespace pscan::cuda_common
