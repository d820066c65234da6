#pragma once
// Which of a thread's items start a segment, as one bit each: bit k of thread_heads(h, first,
// count) is set when item first + k (k < count) starts one, by the head sources of
// include/pscan/detail/segmented_generic.hpp (head flags, keys that differ from their left
// neighbour's, or offsets). The flags or keys are read once each, in 16-byte units where they are
// a raw pointer to a type that divides 16 bytes, the thread's range is whole and aligned; a key
// scan reads one key more, the left neighbour of the thread's first.

#include <cuda_common/tile/tile_io.cuh>
#include <cuda_common/utility.cuh>

#include <pscan/detail/segmented_generic.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::cuda_common {

namespace detail {

// Whether It is a raw pointer whose element type divides a 16-byte unit.
template <class It>
inline constexpr bool has_unit_loads_v =
    std::is_pointer_v<It> && has_16_byte_units_v<std::remove_cv_t<std::remove_pointer_t<It>>>;

// f(x, k) for the ITEMS elements p[0 .. ITEMS) in order, read a 16-byte unit at a time (p is
// 16-byte aligned, ITEMS a multiple of a unit's elements).
template <int ITEMS, class V, class F>
__device__ __forceinline__ void for_units(const V* p, F&& f) {
  constexpr int K = unit_items_v<V>;
  static_assert(ITEMS % K == 0, "a thread's items must be whole 16-byte units");
  const int4* units = reinterpret_cast<const int4*>(p);
#pragma unroll
  for (int j = 0; j < ITEMS / K; ++j) {
    V unit[K];
    unpack_unit(units[j], unit);
#pragma unroll
    for (int k = 0; k < K; ++k) f(unit[k], j * K + k);
  }
}

}  // namespace detail

// Any head source: one call per item.
template <int ITEMS, class Heads>
__device__ __forceinline__ std::uint32_t thread_heads(const Heads& heads, std::int64_t first,
                                                      int count) {
  static_assert(ITEMS <= 32, "a thread's head bits fit one 32-bit word");
  std::uint32_t bits = 0;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    if (k < count && heads(first + k)) bits |= 1u << k;
  }
  return bits;
}

template <int ITEMS, class FlagIt>
__device__ __forceinline__ std::uint32_t thread_heads(const pscan::detail::flag_heads<FlagIt>& h,
                                                      std::int64_t first, int count) {
  if constexpr (detail::has_unit_loads_v<FlagIt> &&
                ITEMS % unit_items_v<std::remove_cv_t<std::remove_pointer_t<FlagIt>>> == 0) {
    if (count == ITEMS && detail::is_aligned_16(h.flags + first)) {
      std::uint32_t bits = first == 0 ? 1u : 0u;
      detail::for_units<ITEMS>(h.flags + first, [&](const auto& flag, int k) {
        if (flag != 0) bits |= 1u << k;
      });
      return bits;
    }
  }
  return thread_heads<ITEMS, pscan::detail::flag_heads<FlagIt>>(h, first, count);
}

template <int ITEMS, class KeyIt, class KeyEq>
__device__ __forceinline__ std::uint32_t thread_heads(
    const pscan::detail::key_heads<KeyIt, KeyEq>& h, std::int64_t first, int count) {
  using K = typename std::iterator_traits<KeyIt>::value_type;
  if constexpr (detail::has_unit_loads_v<KeyIt> && ITEMS % unit_items_v<K> == 0) {
    if (count == ITEMS && detail::is_aligned_16(h.keys + first)) {
      K left = h.keys[first > 0 ? first - 1 : 0];  // item 0's left neighbour (first > 0)
      std::uint32_t bits = 0;
      detail::for_units<ITEMS>(h.keys + first, [&](const K& key, int k) {
        if ((k == 0 && first == 0) || !h.eq(left, key)) bits |= 1u << k;
        left = key;
      });
      return bits;
    }
  }
  // Each key once, each compared with the one before it.
  std::uint32_t bits = 0;
  if (count <= 0) return bits;
  K left = h.keys[first > 0 ? first - 1 : 0];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    if (k < count) {
      const K key = h.keys[first + k];
      if ((k == 0 && first == 0) || !h.eq(left, key)) bits |= 1u << k;
      left = key;
    }
  }
  return bits;
}

// One search for the thread's first position, then the offsets in its range in order; a run of
// equal offsets (empty segments) is jumped over by another search.
template <int ITEMS, class OffIt>
__device__ __forceinline__ std::uint32_t thread_heads(
    const pscan::detail::offset_heads<OffIt>& h, std::int64_t first, int count) {
  std::uint32_t bits = 0;
  std::int64_t s = h.first_at_or_after(first);
  while (s < h.count - 1) {
    const std::int64_t k = static_cast<std::int64_t>(h.offsets[s]) - h.base - first;
    if (k >= count) break;
    bits |= 1u << k;
    ++s;
    if (s < h.count - 1 && static_cast<std::int64_t>(h.offsets[s]) - h.base - first == k) {
      s = h.first_at_or_after(first + k + 1);
    }
  }
  return bits;
}

}  // namespace pscan::cuda_common
