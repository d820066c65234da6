#pragma once
// Which of a thread's items start a segment, as one bit each: bit k of thread_heads<ITEMS,
// BLOCK_THREADS>(h, first, count) is set when item first + k (k < count) starts one, by the head
// sources of include/pscan/detail/segmented_generic.hpp (head flags, keys that differ from their
// left neighbour's, or offsets). The flags or keys are read once each, in 16-byte units where
// they are a raw pointer to a type that divides 16 bytes, the thread's range is whole and
// aligned; a key scan reads one key more, the left neighbour of the thread's first. The offsets
// are read a warp at a time (BLOCK_THREADS sizes their shared words), so every lane of a warp
// calls thread_heads, those without items with count <= 0.

#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_search.cuh>

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

// Bit k set where byte begin + k (k < count <= ITEMS) of `words` is set, each byte 0 or 1: a
// thread's head bits from a byte an item.
template <int ITEMS>
__device__ __forceinline__ std::uint32_t head_bits_of_bytes(const std::uint32_t* words, int begin,
                                                            int count) {
  if (count <= 0) return 0u;
  // Bytes b0..b3 (each 0 or 1) of a word times 0x01020408 sum to b0 + 2 b1 + 4 b2 + 8 b3 in the
  // top byte: the word's 4 head bits, in item order.
  const int first_word = begin / 4, last_word = (begin + count - 1) / 4;
  std::uint64_t window = 0;  // bit j: item first_word * 4 + j
#pragma unroll
  for (int j = 0; j < (ITEMS + 3) / 4 + 1; ++j) {
    if (first_word + j <= last_word) {
      window |= std::uint64_t{(words[first_word + j] * 0x01020408u) >> 24} << (4 * j);
    }
  }
  const auto bits = static_cast<std::uint32_t>(window >> (begin % 4));
  return count < 32 ? bits & ((1u << count) - 1u) : bits;
}

// Any head source: one call per item.
template <int ITEMS, int BLOCK_THREADS, class Heads>
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

template <int ITEMS, int BLOCK_THREADS, class FlagIt>
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
  return thread_heads<ITEMS, BLOCK_THREADS, pscan::detail::flag_heads<FlagIt>>(h, first, count);
}

template <int ITEMS, int BLOCK_THREADS, class KeyIt, class KeyEq>
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

// Offsets, a warp at a time: the lanes find the warp's first segment by a warp search
// (warp_search.cuh; a search per thread would chain ~log2(segments) loads each), then read the
// offsets in the warp's range 32 at a time, coalesced. Where they all fit in the first 32 (a
// segment per 32 items or longer), each lane ORs its item's bit into a word per 32 items, atomics
// that rarely meet on a word. Denser ones would meet 32 at a time, so there every lane stores a
// byte for its item instead, and then reads its items' bytes back a word at a time.
template <int ITEMS, int BLOCK_THREADS, class OffIt>
__device__ __forceinline__ std::uint32_t thread_heads(
    const pscan::detail::offset_heads<OffIt>& h, std::int64_t first, int count) {
  constexpr int warp_words = warp_threads * ITEMS / 4;  // a byte per item of the warp
  __shared__ std::uint32_t head_words[BLOCK_THREADS / warp_threads][warp_words];
  std::uint32_t* words = head_words[warp_id()];
  const int lane = lane_id();
  const std::int64_t warp_first = first - std::int64_t{lane} * ITEMS;
  int warp_valid = count > 0 ? lane * ITEMS + count : 0;
#pragma unroll
  for (int d = warp_threads / 2; d > 0; d /= 2) {
    warp_valid = max(warp_valid, __shfl_xor_sync(full_warp_mask, warp_valid, d));
  }
  const std::int64_t target = h.base + warp_first;
  const std::int64_t segments = h.count - 1;  // offsets[segments] only ends the last segment
  // The warp's position of segment s's start; warp_valid past the last segment. Offsets outside
  // the warp's range mark nothing (q < 0 only where offsets decrease, which the scan by offsets
  // reports).
  const auto position = [&](std::int64_t s) {
    return s < segments ? static_cast<std::int64_t>(h.offsets[s]) - target
                        : std::int64_t{warp_valid};
  };
  std::int64_t s = warp_lower_bound(std::int64_t{0}, segments, [&](std::int64_t t) {
                     return static_cast<std::int64_t>(h.offsets[t]) >= target;
                   }) + lane;
  std::int64_t q = position(s);
  std::int64_t last_q = __shfl_sync(full_warp_mask, q, warp_threads - 1);
  const bool sparse = last_q >= warp_valid;
  __syncwarp();  // the warp's previous reads of its words are over
  if (sparse) {
    if (lane < ITEMS) words[lane] = 0u;
    __syncwarp();
    if (q >= 0 && q < warp_valid) atomicOr(&words[q / 32], 1u << (q % 32));
  } else {
    std::uint8_t* bytes = reinterpret_cast<std::uint8_t*>(words);
    for (int w = lane; w < warp_words; w += warp_threads) words[w] = 0u;
    __syncwarp();
    std::int64_t before = -1;  // the previous step's last position
    for (;;) {
      // Empty segments repeat a position: its first lane alone stores it.
      const std::int64_t left = __shfl_up_sync(full_warp_mask, q, 1);
      if (q >= 0 && q < warp_valid && q != (lane == 0 ? before : left)) bytes[q] = 1;
      if (last_q >= warp_valid) break;
      before = last_q;
      s += warp_threads;
      q = position(s);
      last_q = __shfl_sync(full_warp_mask, q, warp_threads - 1);
    }
  }
  __syncwarp();
  if (count <= 0) return 0u;
  const int begin = lane * ITEMS;
  std::uint32_t bits;
  if (sparse) {
    std::uint64_t window = words[begin / 32];  // from the word of item `begin` on
    if (begin / 32 + 1 < ITEMS) window |= std::uint64_t{words[begin / 32 + 1]} << 32;
    bits = static_cast<std::uint32_t>(window >> (begin % 32));
    if (count < 32) bits &= (1u << count) - 1u;
  } else {
    bits = head_bits_of_bytes<ITEMS>(words, begin, count);
  }
  return first == 0 ? bits | 1u : bits;
}

}  // namespace pscan::cuda_common
