#pragma once
// sm_90 (H100/H200) tuning of the chained kernels, by the size of the accumulator type. The
// reasoning and the measurements behind each number are in docs/tuning-chained.md.

#include <cstdint>
#include <type_traits>

namespace pscan::chained {

template <class T>
struct tuning {
  // 32 KiB of values per tile for the common sizes (512 threads, 2 blocks per SM at <= 64
  // registers): measured 4-12 % faster than 16 KiB tiles at n >= 2^20 (docs/tuning-chained.md).
  static constexpr int block_threads = sizeof(T) <= 8 ? 512 : 128;
  static constexpr int items = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8 : sizeof(T) <= 16 ? 8 : 4;
  static constexpr int tile_items = block_threads * items;
  // 2 resident 512-thread blocks (64 registers) for arithmetic types; other types (user
  // structs, the generic segmented path's flagged pairs) need more registers per value: 1 (128).
  static constexpr int min_blocks_per_sm = std::is_arithmetic_v<T> && sizeof(T) <= 8 ? 2 : 1;
  // The decoupled look-back polls 32 * lookback_items predecessors per round trip (4 spills a
  // few registers at 64 per thread).
  static constexpr int lookback_items = 2;
  // Look-back polls back off from min to max nanoseconds, doubling.
  static constexpr unsigned int backoff_min_ns = 16;
  static constexpr unsigned int backoff_max_ns = 128;
  // Up to this many tiles, one block scans them in a loop: no tile state, no look-back.
  static constexpr std::int64_t single_block_tiles = 2;
};

}  // namespace pscan::chained
