#pragma once
// Warp level: shuffles for any trivially-copyable type (moved as 32-bit words), and the scan and
// reduction of the 32 lanes of a warp. The operator's left operand always holds the lower lanes'
// values, and it is applied only to lane values, never to a made-up identity.

#include <pscan/policies/cuda_common/utility.cuh>

#include <cstring>
#include <type_traits>

namespace pscan::cuda_common {
namespace detail {

// Applies a 32-bit shuffle to each word of x.
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(const T& x, Shuffle shuffle) {
  static_assert(std::is_trivially_copyable_v<T>,
                "pscan: GPU value types must be trivially copyable");
  constexpr int words = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned w[words] = {};
  std::memcpy(w, &x, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = shuffle(w[i]);
  T result;
  std::memcpy(&result, w, sizeof(T));
  return result;
}

}  // namespace detail

// The value of x in lane src_lane. All 32 lanes must take part (as in every function here).
template <class T>
__device__ __forceinline__ T warp_shuffle(const T& x, int src_lane) {
  return detail::shuffle_words(
      x, [=](unsigned w) { return __shfl_sync(full_warp_mask, w, src_lane); });
}

// The value of x in lane (lane - delta); lanes below delta get their own x back.
template <class T>
__device__ __forceinline__ T warp_shuffle_up(const T& x, int delta) {
  return detail::shuffle_words(
      x, [=](unsigned w) { return __shfl_up_sync(full_warp_mask, w, delta); });
}

// The value of x in lane (lane ^ mask).
template <class T>
__device__ __forceinline__ T warp_shuffle_xor(const T& x, int mask) {
  return detail::shuffle_words(
      x, [=](unsigned w) { return __shfl_xor_sync(full_warp_mask, w, mask); });
}

// Inclusive scan over lanes 0 .. valid_lanes-1 (Kogge-Stone: lane i combines only with lanes < i,
// so no identity and no padding are needed). Lanes >= valid_lanes keep x and never call op.
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T x, Op op, int valid_lanes = warp_threads) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < warp_threads; d *= 2) {
    const T lower = warp_shuffle_up(x, d);
    if (lane >= d && lane < valid_lanes) x = static_cast<T>(op(lower, x));
  }
  return x;
}

// Total of all 32 lanes in lane order, returned to every lane (butterfly: at step d each lane
// holds its aligned group of d lanes and joins the neighbouring group on the correct side; all
// lanes of a group compute the same operations, so every lane gets the same bits).
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T x, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < warp_threads; d *= 2) {
    const T other = warp_shuffle_xor(x, d);
    x = (lane & d) ? static_cast<T>(op(other, x)) : static_cast<T>(op(x, other));
  }
  return x;
}

// Total of lanes 0 .. valid_lanes-1 (1 <= valid_lanes <= 32), returned to every lane.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T x, Op op, int valid_lanes) {
  return warp_shuffle(warp_inclusive_scan(x, op, valid_lanes), valid_lanes - 1);
}

}  // namespace pscan::cuda_common
