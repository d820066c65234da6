#pragma once
// Tile level of segmented_reduce (algorithms/segmented_reduce.cuh; its kernel is
// kernels/segmented_reduce_kernel.cuh): a block's stretch of the segment ends and elements,
// merged (Merrill & Garland's merge-based SpMV, 2016). Each warp finds its part of the block's
// stretch by a merge-path search of the offsets and walks it (segmented_reduce_tile.cuh) writing
// the segments it closes; the block joins its warps' first segments, which may have begun
// earlier, into its record; the last block to finish finishes those segments in block order (a
// call of one stretch writes its first segment at once, with no record and no fold) and reports
// the first bad offset when a walk saw one.

#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/grid/bad_offsets.cuh>
#include <pscan/policies/cuda_common/grid/last_block.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/merge_path.cuh>
#include <pscan/policies/cuda_common/tile/segmented_reduce_tile.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>

#include <pscan/future_value.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// A block's stretch for the last block: its summary and the index of its first end.
template <class A>
struct stretch_record {
  stretch_summary<A> summary;
  std::int64_t first_end;
  std::int64_t ends_end;  // one past the last end the block walked
};

// A call's counters, at the head of its scratch (runtime/call_scratch.cuh): 0 when its kernel
// starts, returned to 0 by the last block. The blocks done, and whether one saw bad offsets.
struct segmented_reduce_state {
  unsigned done;
  unsigned bad_offsets;
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

// Whether the blocks walked every end exactly once, in order (always so for good offsets).
template <int BLOCK_THREADS, class A>
__device__ bool walks_cover_every_end(const stretch_record<A>* records, int count,
                                      std::int64_t segments) {
  bool gap = false;
  for (int k = static_cast<int>(threadIdx.x); k < count; k += BLOCK_THREADS) {
    const std::int64_t expected = k == 0 ? 0 : records[k - 1].ends_end;
    gap |= records[k].first_end != expected || (k == count - 1 && records[k].ends_end != segments);
  }
  return !__syncthreads_or(gap);
}

// Block k reduces the k-th stretch of the segments + elements merged items (as many stretches as
// blocks, fewer for fewer items), each of its warps a part of it (segmented_reduce_tile.cuh);
// one thread joins the warps' parts in order into the block's record. The last block to finish
// (counted with an atomic between fences) finishes the stretches' first segments and, when a walk
// saw bad offsets or the walks do not fit end to end, finds the first bad offset and reports it
// (atomicMin into *report); a single stretch does both itself. Segment i is
// values[offsets[i] .. offsets[i + 1]); the elements are values[offsets[0] .. offsets[segments]),
// none when those are bad.
template <class A, class InIt, class OffIt, class OutIt, class Op, class Init>
__device__ __forceinline__ void reduce_stretch(InIt values, OffIt offsets, std::int64_t segments,
                                               stretch_record<A>* records,
                                               segmented_reduce_state* state,
                                               unsigned long long* report, OutIt out, Init init,
                                               Op op) {
  using cfg = segmented_reduce_tuning<A, compiled_target>;
  using warp = segmented_reduce_warp<A, cfg::items>;
  constexpr int warps = cfg::block_threads / warp_threads;
  // One declaration for every instantiation (extern shared arrays share their symbol).
  extern __shared__ uint4 dynamic_shared[];
  static_assert(alignof(typename warp::storage) <= alignof(uint4));
  auto* warp_storage = reinterpret_cast<typename warp::storage*>(dynamic_shared);
  __shared__ uninitialized_array<stretch_record<A>, warps> warp_records;
  __shared__ bool warp_bad[warps];
  __shared__ typename block_scan<open_segment<A>, cfg::block_threads>::storage scan_storage;
  __shared__ bool is_last;
  __shared__ bool saw_bad_offsets;
  const pscan::detail::kept_init_t<Init> init_value = static_cast<const A&>(init);
  const auto first = static_cast<std::int64_t>(offsets[0]);
  const auto last = static_cast<std::int64_t>(offsets[segments]);
  const bool bad_range = first < 0 || last < first;  // then no element is read
  const std::int64_t base = bad_range ? 0 : first;
  const std::int64_t elements = bad_range ? 0 : last - first;
  const std::int64_t items = segments + elements;
  // Stretches of at least a chunk a warp (the grid is sized before the elements are known):
  // blocks past the last stretch leave at once, and only the stretches' blocks count towards
  // the last one, which then folds as many records (a small call: block 0 alone, no fold).
  const std::int64_t k = blockIdx.x;
  const std::int64_t stretches = max(
      std::int64_t{1}, min(std::int64_t{gridDim.x}, items / (warps * warp::chunk_items)));
  if (k >= stretches) return;
  const std::int64_t d0 = items * k / stretches;
  const std::int64_t d1 = items * (k + 1) / stretches;
  const int w = warp_id();
  const std::int64_t w0 = d0 + (d1 - d0) * w / warps;
  const std::int64_t w1 = d0 + (d1 - d0) * (w + 1) / warps;
  const OffIt ends = offsets + 1;
  std::int64_t a0, a1;
  warp_merge_path_splits([&](std::int64_t j) { return static_cast<std::int64_t>(ends[j]) - base; },
                         segments, elements, w0, w1, a0, a1);
  // Bad offsets may cross the two splits; the walk then takes no end and no element.
  const bool crossed = a1 < a0 || w1 - a1 < w0 - a0;
  warp::clear_heads(warp_storage[w]);
  const stretch_walk<A> walk = warp::reduce(
      values, ends, static_cast<std::int64_t>(offsets[a0]), base, a0, crossed ? a0 : a1, w0 - a0,
      crossed ? w0 - a0 : w1 - a1, out, init_value, op, warp_storage[w]);
  if (lane_id() == 0) {
    warp_records[w] = stretch_record<A>{walk.summary, a0, crossed ? a1 : walk.ends_end};
    warp_bad[w] = walk.bad_offsets || crossed;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    stretch_record<A> joined = warp_records[0];
    bool bad = bad_range || warp_bad[0];
    for (int v = 1; v < warps; ++v) {
      const stretch_record<A>& next = warp_records[v];
      bad |= warp_bad[v] || next.first_end != joined.ends_end;
      joined.summary =
          join_stretches(joined.summary, next.summary, next.first_end, out, init_value, op);
      joined.ends_end = next.ends_end;
    }
    if (stretches == 1) {
      // The only stretch: its first segment begins at the first element.
      if (joined.summary.open.has_end) {
        out[0] = finish_segment(init_value, joined.summary.head, op);
      }
      saw_bad_offsets = bad || joined.first_end != 0 || joined.ends_end != segments;
    } else {
      records[k] = joined;
      if (bad) atomicOr(&state->bad_offsets, 1u);
      is_last = arrives_last(&state->done, static_cast<unsigned>(stretches));
      if (is_last) saw_bad_offsets = atomicExch(&state->bad_offsets, 0u) != 0;
    }
  }
  __syncthreads();
  if (stretches == 1) {
    if (saw_bad_offsets) {
      report_first_bad_offset<cfg::block_threads>(offsets, 0, segments + 1, report);
    }
    return;
  }
  if (!is_last) return;
  const int blocks = static_cast<int>(stretches);
  finish_first_segments<cfg::block_threads>(records, blocks, out, init_value, op, scan_storage);
  if (saw_bad_offsets || !walks_cover_every_end<cfg::block_threads>(records, blocks, segments)) {
    report_first_bad_offset<cfg::block_threads>(offsets, 0, segments + 1, report);
  }
}

}  // namespace pscan::cuda_common
