#pragma once
// segmented_reduce of both CUDA backends, balanced by elements rather than by segments (Merrill &
// Garland's merge-based SpMV, 2016): the segment ends and the elements, merged, are cut into one
// contiguous stretch a block for one wave of blocks, so the time follows the bytes whatever the
// segment lengths.
//   1. check_offsets: one pass over the offsets (non-negative, non-decreasing), which also reads
//      the first and last offset; the host waits for it, so bad offsets throw before any write.
//   2. segmented_reduce_kernel: each block finds its stretch's first end by a merge-path search
//      of the offsets, walks the stretch (tile/segmented_reduce_tile.cuh) writing the segments it
//      closes, and leaves its first segment, which may have begun earlier, in its record; the
//      last block to finish finishes those segments in block order.
// The combination order depends only on the sizes and the grid, so results are the same bits
// from run to run.

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

// An odd number of items a thread (at most 31) holding about `bytes` of elements.
template <class A>
constexpr int odd_items(int bytes) {
  return std::max(1, (std::min(31, bytes / static_cast<int>(sizeof(A))) - 1) | 1);
}

// sm_90 and later: 128 bytes of elements a thread, 7936 merged items a step for 4-byte types in
// 96 KiB of shared memory (two blocks an SM). A step costs its ring fill, searches, block scan and
// barriers whatever its size: large steps spread them over more items. Larger types in smaller
// blocks.
template <class A, target Target>
struct segmented_reduce_tuning {
  static constexpr int block_threads = sizeof(A) <= 64 ? 256 : 64;
  static constexpr int items = odd_items<A>(128);
};

// sm_75 to sm_89: half the step, within the 48 KiB a block of any of them may take (a Turing
// block at most 64 KiB).
template <class A>
struct segmented_reduce_tuning<A, target::sm80> : segmented_reduce_tuning<A, target::sm90> {
  static constexpr int items = odd_items<A>(64);
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

// A block's stretch for the last block: its summary and the index of its first end.
template <class A>
struct stretch_record {
  stretch_summary<A> summary;
  std::int64_t first_end;
};

// For every stretch with an end, in order: out[its first end] = init op (what the stretches
// before leave open) op (its head). One block, so the order never depends on timing.
template <int BLOCK_THREADS, class A, class OutIt, class Init, class Op>
__device__ void finish_first_segments(
    const stretch_record<A>* records, int count, OutIt out, const Init& init, Op op,
    typename block_scan<open_segment<A>, BLOCK_THREADS>::storage& s) {
  using scan = block_scan<open_segment<A>, BLOCK_THREADS>;
  const open_segment_op<Op> lifted{op};
  open_segment<A> carry;  // what the chunks before leave open
  carry.tail.has = false;
  carry.has_end = false;
  for (int base = 0; base < count; base += BLOCK_THREADS) {
    const int k = base + static_cast<int>(threadIdx.x);
    open_segment<A> mine;
    mine.tail.has = false;
    mine.has_end = false;
    if (k < count) mine = records[k].summary.open;
    open_segment<A> chunk_open;
    bool has_before;
    const open_segment<A> before = scan::exclusive(mine, lifted, s, chunk_open, has_before);
    if (k < count && mine.has_end) {
      const open_segment<A> running = has_before ? lifted(carry, before) : carry;
      out[records[k].first_end] =
          finish_segment(init, join(running.tail, records[k].summary.head, op), op);
    }
    carry = lifted(carry, chunk_open);
    __syncthreads();  // the scan's storage is reused by the next chunk
  }
}

// Block k of gridDim.x reduces the k-th stretch of the segments + elements merged items; the last
// block to finish (counted with an atomic between fences, the counter returned to 0) finishes the
// stretches' first segments. Segment i is values[offsets[i] .. offsets[i + 1]), all offsets in
// [base, base + elements].
template <class Build, class A, class InIt, class OffIt, class OutIt, class Op, class Init>
__global__ void __launch_bounds__(segmented_reduce_tuning<A, Build::target>::block_threads)
    segmented_reduce_kernel(InIt values, OffIt offsets, std::int64_t segments, std::int64_t base,
                            std::int64_t elements, stretch_record<A>* records, unsigned* done,
                            OutIt out, Init init, Op op) {
  if constexpr (compiling<Build>) {
    using cfg = segmented_reduce_tuning<A, Build::target>;
    using block = segmented_reduce_block<A, cfg::block_threads, cfg::items>;
    // One declaration for every instantiation (extern shared arrays share their symbol).
    extern __shared__ uint4 dynamic_shared[];
    static_assert(alignof(typename block::storage) <= alignof(uint4));
    auto& storage = *reinterpret_cast<typename block::storage*>(dynamic_shared);
    __shared__ std::int64_t first_end;
    __shared__ bool is_last;
    const pscan::detail::kept_init_t<Init> init_value = static_cast<const A&>(init);
    const std::int64_t items = segments + elements;
    const std::int64_t k = blockIdx.x;
    const std::int64_t d0 = items * k / gridDim.x;
    const std::int64_t d1 = items * (k + 1) / gridDim.x;
    const OffIt ends = offsets + 1;
    if (warp_id() == 0) {
      const std::int64_t a = warp_merge_path_split(
          [&](std::int64_t j) { return static_cast<std::int64_t>(ends[j]) - base; }, segments,
          elements, d0);
      if (lane_id() == 0) first_end = a;
    }
    __syncthreads();
    const std::int64_t a0 = first_end;
    const stretch_summary<A> summary =
        block::reduce(values + base, ends, base, segments, elements, a0, d0 - a0, d1 - d0, out,
                      init_value, op, storage);
    if (threadIdx.x == 0) {
      records[k] = stretch_record<A>{summary, a0};
      __threadfence();  // release the record before counting this block done
      is_last = atomicAdd(done, 1u) == gridDim.x - 1;
      if (is_last) {
        atomicExch(done, 0u);
        __threadfence();  // acquire: every record is visible from here on
      }
    }
    __syncthreads();
    if (!is_last) return;
    finish_first_segments<cfg::block_threads>(records, static_cast<int>(gridDim.x), out,
                                              init_value, op, storage.scan);
  } else {
    __trap();
  }
}

// The segmented_reduce of both backends, on the policy's stream with its resource (named apart
// from it: ADL on a backend policy also finds pscan::cuda, the namespace of its base). `init`: a
// value, or a deferred init read in the kernel.
template <class Derived, class InIt, class OffIt, class OutIt, class Init, class Op>
void reduce_segments(const policy_base<Derived>& p, InIt values, OffIt offsets_first,
                     OffIt offsets_last, OutIt out, Init init, Op op) {
  using A = pscan::detail::init_value_t<Init>;
  const std::int64_t count = offsets_last - offsets_first;
  const offsets_summary offsets = check_offsets(p, offsets_first, count);
  const std::int64_t segments = count - 1;
  const std::int64_t elements = offsets.last - offsets.first;
  with_build([&](auto build) {
    using Build = decltype(build);
    using cfg = segmented_reduce_tuning<A, Build::target>;
    using block = segmented_reduce_block<A, cfg::block_threads, cfg::items>;
    const auto kernel = &segmented_reduce_kernel<Build, A, InIt, OffIt, OutIt, Op, Init>;
    constexpr int shared_bytes = sizeof(typename block::storage);
    allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), shared_bytes);
    // One wave, each block at least a step (and at most max_stretch_items) of merged items.
    const std::int64_t items = segments + elements;
    const std::int64_t resident =
        std::int64_t{current_device_info().sm_count} *
        std::max(1, max_active_blocks_per_sm(reinterpret_cast<const void*>(kernel),
                                             cfg::block_threads, shared_bytes));
    const std::int64_t blocks =
        std::max(std::min(resident, ceil_div<std::int64_t>(items, block::step_items)),
                 ceil_div(items, block::max_stretch_items));
    temporary_buffer<stretch_record<A>> records(static_cast<std::size_t>(blocks), p);
    temporary_buffer<unsigned> done(1, p);
    PSCAN_CUDA_CHECK(cudaMemsetAsync(done.data(), 0, sizeof(unsigned), p.stream));
    kernel<<<static_cast<unsigned>(blocks), cfg::block_threads, shared_bytes, p.stream>>>(
        values, offsets_first, segments, offsets.first, elements, records.data(), done.data(), out,
        init, op);
    PSCAN_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace pscan::cuda
