#pragma once
// Thread level: sequential reduce and scans over a thread's items in registers (a fully unrolled
// array), in order, over the first `valid` items only (a partial tile has fewer).

namespace pscan::cuda_common {

// items[0] op ... op items[valid-1], for 1 <= valid <= N.
template <int N, class T, class Op>
__device__ __forceinline__ T thread_reduce(const T* items, Op op, int valid = N) {
  T acc = items[0];
#pragma unroll
  for (int i = 1; i < N; ++i) {
    if (i < valid) acc = static_cast<T>(op(acc, items[i]));
  }
  return acc;
}

// In place, for i < valid: items[i] = [carry op] items[0] op ... op items[i] (the carry only
// when has_carry). Items from `valid` on are untouched.
template <int N, class T, class Op>
__device__ __forceinline__ void thread_inclusive_scan(T* items, Op op, int valid, bool has_carry,
                                                      const T& carry) {
  if (valid <= 0) return;
  T acc = has_carry ? static_cast<T>(op(carry, items[0])) : items[0];
  items[0] = acc;
#pragma unroll
  for (int i = 1; i < N; ++i) {
    if (i < valid) {
      acc = static_cast<T>(op(acc, items[i]));
      items[i] = acc;
    }
  }
}

// In place, for i < valid: items[i] = carry op items[0] op ... op items[i-1] (items[0] = carry).
template <int N, class T, class Op>
__device__ __forceinline__ void thread_exclusive_scan(T* items, Op op, int valid, T carry) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if (i < valid) {
      const T next = static_cast<T>(op(carry, items[i]));
      items[i] = carry;
      carry = next;
    }
  }
}

}  // namespace pscan::cuda_common
