#pragma once
// sm_90 (H100/H200) tuning of the chained kernels, by the size of the accumulator type. The
// reasoning and the measurements behind each number are in docs/tuning-chained.md.

#include <cstdint>
#include <type_traits>

namespace pscan::chained {

template <class T>
struct tuning {
  // 16 KiB of values per tile for the common sizes: enough bytes in flight per SM with 4+ tiles
  // resident, few enough registers (<= 64 per thread) for that occupancy.
  static constexpr int block_threads = sizeof(T) <= 8 ? 256 : 128;
  static constexpr int items = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 8 : sizeof(T) <= 16 ? 8 : 4;
  static constexpr int tile_items = block_threads * items;
  // 4 resident blocks (64 registers) for arithmetic types; other types (user structs, the
  // generic segmented path's flagged pairs) need more registers per value: 2 (128).
  static constexpr int min_blocks_per_sm = std::is_arithmetic_v<T> && sizeof(T) <= 8 ? 4 : 2;
  // The decoupled look-back polls 32 * lookback_items predecessors per round trip (4 spills a
  // few registers at 64 per thread).
  static constexpr int lookback_items = 2;
  // Look-back polls back off from min to max nanoseconds, doubling.
  static constexpr unsigned int backoff_min_ns = 32;
  static constexpr unsigned int backoff_max_ns = 512;
  // Up to this many tiles, one block scans them in a loop: no tile state, no look-back.
  static constexpr std::int64_t single_block_tiles = 2;
};

}  // namespace pscan::chained
