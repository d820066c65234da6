#pragma once
// Decoupled look-back (Merrill & Garland), the default way a tile learns its prefix. One warp
// polls a window of predecessors at once, waits until every entry after the nearest inclusive
// prefix is published, combines those values in index order, and steps back a window while no
// prefix was found. A wide window matters when many tiles start together: the prefix frontier
// advances a window per L2 round trip. Forward progress: tile ids come from a ticket counter, so
// every predecessor is resident or finished and publishes without waiting on us.

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_common/warp/warp_range_reduce.cuh>

#include <pscan/policies/cuda_common/utility.cuh>

#include <cstdint>

namespace pscan::cuda_chained_backend {

// Exponential back-off between polls, so waiting warps leave L2 to the tiles they wait for.
struct backoff {
  unsigned int ns;
  unsigned int max_ns;
  __device__ void pause() {
    __nanosleep(ns);
    ns = ns * 2 < max_ns ? ns * 2 : max_ns;
  }
};

// One window of the look-back, run by all 32 lanes: the 32 * K tiles ending at `newest` (lane l:
// K consecutive tiles, lane 31 the nearest). Waits until every entry after the nearest inclusive
// prefix is published, then returns (in every lane) whether the window held a prefix and, in
// `combined`, the values from that prefix (or the window's oldest tile) through `newest`.
template <int K, class T, class Op>
__device__ bool lookback_window(const tile_state<T>& state, long long newest, Op op, backoff wait,
                                T& combined) {
  const int lane = cuda_common::lane_id();
  const long long lane_oldest = newest - 32 * K + 1 + lane * K;
  typename tile_state<T>::probe seen[K] = {};  // all-zero words: tag 0, never published
  int first_lane = 0;      // the nearest lane holding an inclusive prefix, else 0
  int newest_prefix = -1;  // this lane's nearest item holding one
  bool found = false;
  for (backoff poll_wait = wait;; poll_wait.pause()) {
    newest_prefix = -1;
    bool complete = true;  // every item after newest_prefix is published
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const long long entry = lane_oldest + k;  // before tile 0: never published, never needed
      // A published value stays valid (an aggregate only ever gives way to a prefix), so only
      // entries still empty, at or after the nearest prefix, are polled again: fewer L2 loads.
      if (entry >= 0 && lane >= first_lane &&
          seen[k].status(state.epoch()) == tile_status::empty) {
        seen[k] = state.poll(static_cast<std::uint64_t>(entry));
      }
      const tile_status status = entry >= 0 ? seen[k].status(state.epoch()) : tile_status::empty;
      if (status == tile_status::prefix) {
        newest_prefix = k;
        complete = true;
      } else if (status == tile_status::empty) {
        complete = false;
      }
    }
    const unsigned int prefixes = __ballot_sync(~0u, newest_prefix >= 0);
    found = prefixes != 0;
    first_lane = found ? 31 - __clz(prefixes) : 0;
    if (__ballot_sync(~0u, complete || lane < first_lane) == ~0u) break;
  }
  // This lane's items from the nearest prefix (lane first_lane) or all of them, in order.
  const int start = lane == first_lane && found ? newest_prefix : 0;
  T lane_total{};
  bool has_lane_total = false;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    if (lane >= first_lane && k >= start) {
      const T v = seen[k].value();
      lane_total = has_lane_total ? static_cast<T>(op(lane_total, v)) : v;
      has_lane_total = true;
    }
  }
  combined = cuda_common::warp_range_reduce(lane_total, first_lane, 31, op);
  return found;
}

// Run by all 32 lanes of one warp of tile `tile` > 0; it only reads predecessors, so it may start
// before the tile's own aggregate is known. Returns (in every lane) value(0) op ... op
// value(tile - 1), from the tiles' aggregates and prefixes, stepping back 32 * K tiles a window.
template <int K, class T, class Op>
__device__ T decoupled_lookback(const tile_state<T>& state, std::uint32_t tile, Op op,
                                backoff wait) {
  const long long nearest = static_cast<long long>(tile) - 1;
  T prefix{};
  for (long long newest = nearest;; newest -= 32 * K) {
    T combined;
    const bool found = lookback_window<K>(state, newest, op, wait, combined);
    // Windows arrive newest first: each one goes on the left of what is already combined.
    prefix = newest == nearest ? combined : static_cast<T>(op(combined, prefix));
    if (found) return prefix;
  }
}

}  // namespace pscan::cuda_chained_backend
