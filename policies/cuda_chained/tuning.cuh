#pragma once
// Tuning of the chained kernels, by target (cuda_common/target.cuh) and the size of the
// accumulator type. sm90's numbers are measured on H100/H200 (docs/algorithms.md); sm80's keep
// those shapes within the older GPUs' limits.

#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>

#include <cstdint>
#include <type_traits>

namespace pscan::cuda_chained_backend {

// sm_90 and later.
template <class T, cuda_common::target Target>
struct tuning {
  // Scans: tiles of 32 KiB kept in shared memory (256 data threads x 128 bytes, plus the
  // look-back warp), 6 blocks (192 KiB of tiles loading or waiting on their look-back) on an SM
  // at <= 32 registers. Half as many tiles as 16 KiB ones means half as many look-backs, each a
  // few L2 round trips.
  static constexpr int scan_threads = 256;
  static constexpr int scan_items = sizeof(T) <= 4    ? 32
                                    : sizeof(T) <= 8  ? 16
                                    : sizeof(T) <= 16 ? 8
                                                      : 4;
  static constexpr int tile_items = scan_threads * scan_items;
  // Small inputs go in small tiles (two 16-byte units per thread: 8 KiB, a quarter of the large
  // tile, for types up to 16 bytes) while those number at most small_tiles_per_sm per SM: every
  // tile loads at once, instead of a few blocks pulling the whole input through a few SMs.
  static constexpr int small_scan_items = 2 * cuda_common::unit_items_v<T>;
  static constexpr int small_tile_items = scan_threads * small_scan_items;
  static constexpr int small_tiles_per_sm = 1;
  // Other types (user structs, the generic segmented path's flagged pairs) need more registers
  // per value: 3 blocks (85 registers).
  static constexpr int scan_min_blocks_per_sm = std::is_arithmetic_v<T> && sizeof(T) <= 8 ? 6 : 3;
  // Fused segmented scans of values T (tiles of scan_items values, (value, head) accumulators):
  // the head bits and pairs cost registers the plain scan does not spend; 4 blocks an SM keeps
  // scans by key of float at 0.83 of a copy on an H100 where 6 give 0.75 (docs/algorithms.md).
  static constexpr int segmented_min_blocks_per_sm = 4;
  // Scans by offsets over at most a tile a block: stretches in shares of two warps' part of a
  // tile at least (on an H200 one warp's share a block took 8.8-10.0 us at 2^14 int32, two
  // 7.7-9.4, four 7.3-9.2 but 1 us more at 2^18).
  static constexpr int offsets_share_warps = 2;
  // reduce_by_key: a tile's keys, values and 2-byte run table entries wait in shared memory, at
  // most run_thread_bytes a thread: 16 int32 pairs a thread (41 KiB a tile, 5 blocks an SM),
  // 16 int32 keys and 8-byte values (57 KiB, dynamic shared memory, 3 blocks an SM: a quarter
  // fewer tiles to chain than 12 items at 5), small tiles up to 80 bytes a thread.
  static constexpr int run_thread_bytes = sizeof(T) == 8 ? 230 : 190;
  static constexpr int small_run_thread_bytes = 80;
  static constexpr int run_min_blocks_per_sm = sizeof(T) == 8 ? 3 : sizeof(T) < 8 ? 5 : 4;
  // The decoupled look-back polls 32 * lookback_items predecessors per round trip: 32 is the
  // widest window that pays (docs/algorithms.md, "Look-back window: 32 predecessors").
  static constexpr int lookback_items = 1;
  // Look-back polls back off from min to max nanoseconds, doubling.
  static constexpr unsigned int backoff_min_ns = 16;
  static constexpr unsigned int backoff_max_ns = 128;
  // Register tiles (the multi-pass agent, 64 bytes per thread: no pass through shared memory).
  // An input of one goes to one block: no tile state, no look-back (faster than two small
  // chained tiles; walking more tiles was slower). Up to max_cluster_tiles of them go to one
  // thread block cluster (where the GPU can hold one that large: 16 on H100/H200, non-portable),
  // in half-size tiles where up to max_cluster_tiles of those cover the input: the cluster waits
  // for its slowest block's load, and one SM's share loads faster the smaller it is.
  static constexpr int register_items = cuda_common::items_per_64_bytes_v<T>;
  static constexpr std::int64_t register_tile_items = std::int64_t{scan_threads} * register_items;
  static constexpr int max_cluster_tiles = 16;
  // 0 where half a register tile is not a whole number of 16-byte units (1-byte types).
  static constexpr int half_register_items =
      register_items / 2 % cuda_common::unit_items_v<T> == 0 ? register_items / 2 : 0;

  // reduce: 256 threads reading 64 bytes each per step (512 cost a one-block reduce 0.5 us on
  // H100 and gained nothing at 2^28).
  static constexpr int reduce_threads = sizeof(T) <= 8 ? 256 : 128;
  static constexpr int reduce_items =
      sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8 : sizeof(T) <= 16 ? 8 : 4;
};

// sm_75 to sm_89, not measured: no thread block clusters (sm_90 brought them), and as many scan
// blocks an SM as an A100's 164 KiB of shared memory holds tiles (4 of 32 KiB), so the kernel
// may use those blocks' registers instead of six's 32.
template <class T>
struct tuning<T, cuda_common::target::sm80> : tuning<T, cuda_common::target::sm90> {
  static constexpr int max_cluster_tiles = 0;
  static constexpr int scan_min_blocks_per_sm = std::is_arithmetic_v<T> && sizeof(T) <= 8 ? 4 : 3;
};

}  // namespace pscan::cuda_chained_backend
