#pragma once
// segmented_reduce of both CUDA backends, balanced by elements rather than by segments (Merrill &
// Garland's merge-based SpMV, 2016): the segment ends and the elements, merged, are cut into tiles
// of the same number of items, so the time follows the bytes whatever the segment lengths.
//   1. check_offsets: one pass over the offsets (non-negative, non-decreasing), which also reads
//      the first and last offset; the host waits for it, so bad offsets throw before any write.
//   2. partition: each tile's first segment end, by a merge-path search of the offsets.
//   3. reduce_tiles: each tile reduces its items (segmented_reduce_tile) and writes the segments
//      it closes; the first segment it closes, which may have begun earlier, goes in its summary.
//   4. join_tiles: one block scans the summaries in order and finishes those segments.
// The combination order is fixed, so results are the same bits from run to run.

#include <cuda_common/check.cuh>
#include <cuda_common/launch.cuh>
#include <cuda_common/policy.cuh>
#include <cuda_common/runtime/device_info.cuh>
#include <cuda_common/runtime/temporary.cuh>
#include <cuda_common/target.cuh>
#include <cuda_common/tile/merge_path.cuh>
#include <cuda_common/tile/segmented_reduce_tile.cuh>
#include <cuda_common/tile/tile_io.cuh>

#include <pscan/detail/host_offsets.hpp>
#include <pscan/future_value.hpp>

#include <algorithm>
#include <cstdint>

namespace pscan::cuda {

// The same on every target (target.cuh): measured on sm_90, nothing in it an older GPU lacks.
template <class A, target Target>
struct segmented_reduce_tuning {
  static constexpr int block_threads = 256;
  static constexpr int items = items_per_64_bytes_v<A>;  // 4096 merged items of 4-byte types
  static constexpr int join_threads = 1024;
  static constexpr int join_items = 16;  // 16384 tiles a round of the one-block join
};

inline constexpr int check_offsets_block_threads = 256;
inline constexpr unsigned long long no_bad_offset = ~0ull;

// What the host needs to know of the offsets before launching the reduction.
struct offsets_summary {
  unsigned long long first_bad;  // the lowest bad index, or no_bad_offset
  std::int64_t first;            // offsets[0]
  std::int64_t last;             // offsets[count - 1]
};

// first_bad = the lowest i with offsets[0] < 0 (i = 0) or offsets[i] < offsets[i-1].
template <class OffIt>
__global__ void __launch_bounds__(check_offsets_block_threads)
    check_offsets_kernel(OffIt offsets, std::int64_t count, offsets_summary* summary) {
  const std::int64_t stride = std::int64_t{gridDim.x} * check_offsets_block_threads;
  for (std::int64_t i = std::int64_t{blockIdx.x} * check_offsets_block_threads + threadIdx.x;
       i < count; i += stride) {
    const auto here = static_cast<std::int64_t>(offsets[i]);
    const bool bad = i == 0 ? here < 0 : here < static_cast<std::int64_t>(offsets[i - 1]);
    if (bad) atomicMin(&summary->first_bad, static_cast<unsigned long long>(i));
    if (i == 0) summary->first = here;
    if (i == count - 1) summary->last = here;
  }
}

template <class Derived, class OffIt>
offsets_summary check_offsets(const policy_base<Derived>& p, OffIt offsets, std::int64_t count) {
  temporary_buffer<offsets_summary> summary(1, p);
  PSCAN_CUDA_CHECK(cudaMemsetAsync(&summary.data()->first_bad, 0xff, sizeof(unsigned long long),
                                   p.stream));
  const std::int64_t blocks =
      std::min<std::int64_t>(ceil_div<std::int64_t>(count, check_offsets_block_threads),
                             std::int64_t{current_device_info().sm_count} * 8);
  check_offsets_kernel<<<static_cast<unsigned>(blocks), check_offsets_block_threads, 0, p.stream>>>(
      offsets, count, summary.data());
  PSCAN_CUDA_CHECK_LAUNCH();
  offsets_summary result{};
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(&result, summary.data(), sizeof result, cudaMemcpyDeviceToHost,
                                   p.stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  if (result.first_bad != no_bad_offset) {
    throw pscan::detail::offsets_error("pscan::segmented_reduce",
                                       static_cast<std::int64_t>(result.first_bad));
  }
  return result;
}

// The merged items: `segments` ends (end i at element offsets[i + 1] - first) and `elements`.
template <class OffIt>
struct merged_items {
  OffIt ends;  // offsets_first + 1
  std::int64_t first;
  std::int64_t segments;
  std::int64_t elements;
  __device__ std::int64_t end(std::int64_t i) const {
    return static_cast<std::int64_t>(ends[i]) - first;
  }
};

// splits[k] = the segment ends among the first k * tile_items merged items, k = 0 .. tiles.
template <class OffIt>
__global__ void partition_kernel(merged_items<OffIt> m, std::int64_t tile_items,
                                 std::int64_t tiles, std::int64_t* splits) {
  const std::int64_t k = grid_block_index() * blockDim.x + threadIdx.x;
  if (k > tiles) return;
  const std::int64_t diagonal = min(k * tile_items, m.segments + m.elements);
  splits[k] = merge_path_split<std::int64_t>([&](std::int64_t i) { return m.end(i); },
                                             m.segments, m.elements, diagonal);
}

template <class Build, class A, class InIt, class OffIt, class OutIt, class Op, class Init>
__global__ void __launch_bounds__(segmented_reduce_tuning<A, Build::target>::block_threads)
    reduce_tiles_kernel(InIt values, merged_items<OffIt> m, const std::int64_t* splits,
                        std::int64_t tiles, tile_summary<A>* summaries, OutIt out, Init init,
                        Op op) {
  if constexpr (compiling<Build>) {
    using cfg = segmented_reduce_tuning<A, Build::target>;
    using tile = segmented_reduce_tile<A, cfg::block_threads, cfg::items>;
    __shared__ typename tile::storage storage;
    const std::int64_t k = grid_block_index();
    if (k >= tiles) return;
    const std::int64_t d0 = k * tile::tile_items;
    const std::int64_t d1 = min(d0 + tile::tile_items, m.segments + m.elements);
    const std::int64_t a0 = splits[k];
    const std::int64_t a1 = splits[k + 1];
    const std::int64_t b0 = d0 - a0;
    const tile_summary<A> summary =
        tile::reduce(values + (m.first + b0), static_cast<int>(d1 - a1 - b0), m.ends + a0,
                     m.first + b0, static_cast<int>(a1 - a0), out + a0, init, op, storage);
    if (threadIdx.x == 0) summaries[k] = summary;
  } else {
    __trap();
  }
}

// For every tile with a segment end, in tile order: out[splits[k]] = init op (what the tiles
// before leave open) op (the tile's head). One block, so the order never depends on timing.
template <class Build, class A, class OutIt, class Op, class Init>
__global__ void __launch_bounds__(segmented_reduce_tuning<A, Build::target>::join_threads)
    join_tiles_kernel(const tile_summary<A>* summaries, const std::int64_t* splits,
                      std::int64_t tiles, OutIt out, Init init, Op op) {
  if constexpr (compiling<Build>) {
    using cfg = segmented_reduce_tuning<A, Build::target>;
    using scan = block_scan<open_segment<A>, cfg::join_threads>;
    constexpr int chunk = cfg::join_threads * cfg::join_items;
    __shared__ typename scan::storage storage;
    const pscan::detail::kept_init_t<Init> init_value = static_cast<const A&>(init);
    const open_segment_op<Op> lifted{op};
    open_segment<A> carry;  // what the chunks before leave open
    carry.tail.has = false;
    carry.has_end = false;
    for (std::int64_t base = 0; base < tiles; base += chunk) {
      const std::int64_t first = base + std::int64_t{threadIdx.x} * cfg::join_items;
      open_segment<A> mine;  // this thread's tiles, in order
      mine.tail.has = false;
      mine.has_end = false;
#pragma unroll
      for (int i = 0; i < cfg::join_items; ++i) {
        if (first + i < tiles) mine = lifted(mine, summaries[first + i].open);
      }
      open_segment<A> chunk_open;
      bool has_before;
      const open_segment<A> before =
          scan::exclusive(mine, lifted, storage, chunk_open, has_before);
      open_segment<A> running = has_before ? lifted(carry, before) : carry;
#pragma unroll
      for (int i = 0; i < cfg::join_items; ++i) {
        const std::int64_t k = first + i;
        if (k < tiles) {
          const tile_summary<A> s = summaries[k];
          if (s.open.has_end) {
            out[splits[k]] = finish_segment(init_value, join(running.tail, s.head, op), op);
          }
          running = lifted(running, s.open);
        }
      }
      carry = lifted(carry, chunk_open);
      __syncthreads();  // the scan's storage is reused by the next chunk
    }
  } else {
    __trap();
  }
}

// The segmented_reduce of both backends, on the policy's stream with its resource (named apart
// from it: ADL on a backend policy also finds pscan::cuda, the namespace of its base). `init`: a
// value, or a deferred init read in the kernels.
template <class Derived, class InIt, class OffIt, class OutIt, class Init, class Op>
void reduce_segments(const policy_base<Derived>& p, InIt values, OffIt offsets_first,
                     OffIt offsets_last, OutIt out, Init init, Op op) {
  using A = pscan::detail::init_value_t<Init>;
  const std::int64_t count = offsets_last - offsets_first;
  const offsets_summary offsets = check_offsets(p, offsets_first, count);
  const merged_items<OffIt> m{offsets_first + 1, offsets.first, count - 1,
                              offsets.last - offsets.first};
  with_build([&](auto build) {
    using Build = decltype(build);
    using cfg = segmented_reduce_tuning<A, Build::target>;
    using tile = segmented_reduce_tile<A, cfg::block_threads, cfg::items>;
    const std::int64_t tiles = ceil_div<std::int64_t>(m.segments + m.elements, tile::tile_items);
    temporary_buffer<std::int64_t> splits(static_cast<std::size_t>(tiles + 1), p);
    temporary_buffer<tile_summary<A>> summaries(static_cast<std::size_t>(tiles), p);
    constexpr int partition_threads = 256;
    partition_kernel<<<grid_for(ceil_div<std::int64_t>(tiles + 1, partition_threads)),
                       partition_threads, 0, p.stream>>>(m, tile::tile_items, tiles,
                                                         splits.data());
    PSCAN_CUDA_CHECK_LAUNCH();
    reduce_tiles_kernel<Build, A><<<grid_for(tiles), cfg::block_threads, 0, p.stream>>>(
        values, m, splits.data(), tiles, summaries.data(), out, init, op);
    PSCAN_CUDA_CHECK_LAUNCH();
    join_tiles_kernel<Build, A><<<1, cfg::join_threads, 0, p.stream>>>(
        summaries.data(), splits.data(), tiles, out, init, op);
    PSCAN_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace pscan::cuda
