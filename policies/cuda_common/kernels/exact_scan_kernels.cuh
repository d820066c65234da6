#pragma once
// The three launches of the exact_plus scans (algorithms/exact_scan.cuh), over tiles of
// pscan::detail::exact_block_items values: tile_sums_kernel (each tile's exact sum, as a row of
// the table's columns), column_scans_kernel (each column's exclusive prefix sums) and
// tile_outputs_kernel (each tile's outputs from its exact prefix).

#include <pscan/policies/cuda_common/block/block_exact_sum.cuh>
#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>

#include <pscan/detail/exact.hpp>

#include <cstdint>

namespace pscan::cuda_common {

namespace exact_scan_impl {

using pscan::detail::exact_extent;
using pscan::detail::exact_prefix_window;
using pscan::detail::exact_sum;
using pscan::detail::exact_term;
using pscan::detail::exact_window;

inline constexpr int threads = exact_scan_tuning::threads;
inline constexpr int items = exact_scan_tuning::items;
inline constexpr int tile_items = exact_scan_tuning::tile_items;

// The table's columns: the chunks, then the special counts.
template <class T>
inline constexpr int columns = exact_window<T>::chunk_count + 4;

template <class Archs, class T, class InIt>
__global__ void __launch_bounds__(threads)
    tile_sums_kernel(InIt first, std::int64_t n, std::int64_t tiles, std::int64_t* table) {
  using block_sum = block_exact_sum<T, threads>;
  const std::int64_t tile = grid_block_index();
  if (tile >= tiles) return;
  __shared__ typename block_sum::storage storage;
  block_sum::start(storage);
  auto spill = block_sum::spill_of(storage);
  auto window = exact_window<T>::empty();
  T v[items];
#pragma unroll
  for (int j = 0; j < items; ++j) {
    const std::int64_t i = tile * tile_items + j * threads + threadIdx.x;
    v[j] = i < n ? static_cast<T>(first[i]) : T(-0.0);  // -0: the terms' identity
  }
#pragma unroll
  for (int j = 0; j < items; ++j) window.add(v[j], spill);
  block_sum::finish(window, storage);
  if (threadIdx.x < block_sum::chunks) table[threadIdx.x * tiles + tile] = storage.chunk[threadIdx.x];
  if (threadIdx.x < 4) {
    table[(block_sum::chunks + threadIdx.x) * tiles + tile] =
        static_cast<std::int64_t>(storage.specials[threadIdx.x]);
  }
}

// Block c: column c's exclusive prefix sums, in place, `run` consecutive entries a thread a step.
template <class Archs>
__global__ void __launch_bounds__(threads) column_scans_kernel(std::int64_t* table,
                                                               std::int64_t tiles) {
  constexpr int run = 16;
  __shared__ std::int64_t warp_totals[threads / 32];
  std::int64_t* const column = table + blockIdx.x * tiles;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  std::int64_t carry = 0;
  for (std::int64_t start = 0; start < tiles; start += std::int64_t{threads} * run) {
    const std::int64_t mine = start + std::int64_t{threadIdx.x} * run;
    std::int64_t v[run], own = 0;
#pragma unroll
    for (int j = 0; j < run; ++j) {
      v[j] = mine + j < tiles ? column[mine + j] : 0;
      own += v[j];
    }
    std::int64_t inclusive = own;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
      const std::int64_t other = __shfl_up_sync(0xffffffffu, inclusive, offset);
      if (lane >= offset) inclusive += other;
    }
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    std::int64_t before = carry + inclusive - own, step_total = 0;
    for (int w = 0; w < threads / 32; ++w) {
      before += w < warp ? warp_totals[w] : 0;
      step_total += warp_totals[w];
    }
#pragma unroll
    for (int j = 0; j < run; ++j) {
      if (mine + j < tiles) column[mine + j] = before;
      before += v[j];
    }
    carry += step_total;
    __syncthreads();  // warp_totals is rewritten by the next step
  }
}

// Shared-memory position of a tile's value i: one pad a 16 values, so that thread t's 16
// consecutive values (at 17 t) fall in different banks from its neighbours'.
__device__ __forceinline__ int padded(int i) { return i + i / items; }

template <class Archs, class T, class InIt, class OutIt>
__global__ void __launch_bounds__(threads)
    tile_outputs_kernel(InIt first, std::int64_t n, std::int64_t tiles,
                        const std::int64_t* table, exact_sum<T> init, bool inclusive, OutIt out) {
  constexpr int chunks = exact_window<T>::chunk_count;
  constexpr int warps = threads / 32;
  using term = exact_term<T>;
  const std::int64_t tile = grid_block_index();
  if (tile >= tiles) return;
  __shared__ T values[tile_items + tile_items / items];
  __shared__ std::int64_t row[columns<T>];
  __shared__ exact_sum<T> prefix;
  __shared__ int lowest, highest, special;  // the tile's exact_extent
  __shared__ bool in_window;
  __shared__ unsigned long long warp_l[warps][2];
  __shared__ std::int64_t warp_zeros[warps];

  const std::int64_t start = tile * tile_items;
  for (int i = threadIdx.x; i < tile_items; i += threads) {
    values[padded(i)] = start + i < n ? static_cast<T>(first[start + i]) : T(-0.0);
  }
  if (threadIdx.x < columns<T>) row[threadIdx.x] = table[threadIdx.x * tiles + tile];
  if (threadIdx.x == 0) {
    const exact_extent<T> none;
    lowest = none.lowest;
    highest = none.highest;
    special = 0;
  }
  __syncthreads();

  exact_extent<T> own_extent;
  for (int j = 0; j < items; ++j) own_extent.take(term::of(values[padded(threadIdx.x * items + j)]));
  if (own_extent.highest >= own_extent.lowest) {
    atomicMin(&lowest, own_extent.lowest);
    atomicMax(&highest, own_extent.highest);
  }
  if (own_extent.special) atomicOr(&special, 1);
  if (threadIdx.x == 0) {
    const pscan::detail::exact_specials specials{row[chunks], row[chunks + 1], row[chunks + 2],
                                                 row[chunks + 3]};
    prefix = init + exact_sum<T>::of_chunks(row, specials);
  }
  __syncthreads();
  exact_extent<T> extent;
  extent.lowest = lowest;
  extent.highest = highest;
  extent.special = special != 0;
  if (threadIdx.x == 0) in_window = exact_prefix_window<T>::applies(prefix, extent);
  __syncthreads();

  const std::int64_t count = n - start < tile_items ? n - start : tile_items;
  if (in_window) {
    const exact_prefix_window<T> window(prefix, extent);
    __int128 own = 0;
    std::int64_t own_zeros = 0;  // terms that are not -0
    for (int j = 0; j < items; ++j) {
      const term t = term::of(values[padded(threadIdx.x * items + j)]);
      own += window.scaled(t);
      own_zeros += t.specials.not_negative_zero;
    }
    // The block's exclusive scan of (own, own_zeros).
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    __int128 l = own;
    std::int64_t zeros = own_zeros;
    for (int offset = 1; offset < 32; offset *= 2) {
      const auto bits = static_cast<unsigned __int128>(l);
      const unsigned long long low =
          __shfl_up_sync(0xffffffffu, static_cast<unsigned long long>(bits), offset);
      const unsigned long long high =
          __shfl_up_sync(0xffffffffu, static_cast<unsigned long long>(bits >> 64), offset);
      const std::int64_t other_zeros = __shfl_up_sync(0xffffffffu, zeros, offset);
      if (lane >= offset) {
        l += static_cast<__int128>(static_cast<unsigned __int128>(high) << 64 | low);
        zeros += other_zeros;
      }
    }
    if (lane == 31) {
      warp_l[warp][0] = static_cast<unsigned long long>(static_cast<unsigned __int128>(l));
      warp_l[warp][1] = static_cast<unsigned long long>(static_cast<unsigned __int128>(l) >> 64);
      warp_zeros[warp] = zeros;
    }
    __syncthreads();
    l -= own;
    zeros += prefix.specials.not_negative_zero - own_zeros;
    for (int w = 0; w < warp; ++w) {
      l += static_cast<__int128>(static_cast<unsigned __int128>(warp_l[w][1]) << 64 | warp_l[w][0]);
      zeros += warp_zeros[w];
    }
    for (int j = 0; j < items; ++j) {
      T& slot = values[padded(threadIdx.x * items + j)];
      const term t = term::of(slot);
      if (inclusive) {
        l += window.scaled(t);
        zeros += t.specials.not_negative_zero;
      }
      const T r = window.rounded(l, zeros);
      if (!inclusive) {
        l += window.scaled(t);
        zeros += t.specials.not_negative_zero;
      }
      slot = r;
    }
  } else if (threadIdx.x == 0) {
    exact_sum<T> sum = prefix;
    for (int i = 0; i < count; ++i) {
      const T x = values[padded(i)];
      if (inclusive) sum.add(x);
      values[padded(i)] = sum.rounded();
      if (!inclusive) sum.add(x);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += threads) out[start + i] = values[padded(i)];
}

}  // namespace exact_scan_impl

}  // namespace pscan::cuda_common
