#pragma once
// Warp level of the element-balanced segmented reduction (after Merrill & Garland's merge-based
// SpMV, 2016): a warp owns a contiguous stretch of the merge of segment ends and elements
// (merge_path.cuh), the same number of items whatever the segment lengths, and walks its
// elements in chunks of 32 lanes x ITEMS, aligned to the values' index, the next chunk arriving
// by cp.async while one is worked on. Its ends come 32 at a time into a window of registers, one
// a lane, checked against the end before each as they arrive. A chunk with no end costs what a
// plain reduction does: each lane folds its ITEMS (a blocked read of the tile layout, tile_io),
// then one warp reduction joins the open segment; the whole chunks after it before the next end
// skip shared memory, read into registers as the plain reduction reads them (a long segment
// then streams at a reduction's speed). A chunk with ends marks a head byte where each
// starts the next segment, folds each lane's elements after its last head, carries the lanes'
// open segments across the warp by a scan with the lifted operator (Blelloch 1990), and rewrites
// each element as its segment's value so far: each end then reads its segment's value at its
// last element and writes it, the window's lanes storing consecutive results. Empty segments
// take init and no mark. The walk's first segment may have begun in earlier stretches: its part
// here goes back in the stretch's summary, for the block and then the last block to finish in
// order (join_stretches). Bad offsets steer the walk wrongly but never out of range: the merge
// path bounds the ends and elements a walk takes, and every position is checked against the
// chunk before it is used.

#include <pscan/policies/cuda_common/block/block_range_reduce.cuh>
#include <pscan/policies/cuda_common/tile/async_copy.cuh>
#include <pscan/policies/cuda_common/tile/merge_path.cuh>
#include <pscan/policies/cuda_common/tile/tile_heads.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

#include <pscan/detail/partial.hpp>
#include <pscan/future_value.hpp>

#include <climits>
#include <cstdint>

namespace pscan::cuda_common {

// An empty stretch contributes nothing, and op never sees a made-up identity.
using pscan::detail::join;
using pscan::detail::partial;

// init op x, or init for an empty segment.
template <class A, class Op>
__device__ __forceinline__ A finish_segment(const A& init, const partial<A>& x, Op op) {
  return x.has ? static_cast<A>(op(init, x.value)) : init;
}

// What a stretch of merged items leaves open to its successors: its elements after its last
// segment end (all of them when it has none), and whether it has an end.
template <class A>
struct open_segment {
  partial<A> tail;
  bool has_end;
};

// The lifted operator on open segments: an end cuts off everything before it. Associative
// whenever op is; calls op only on values derived from the input.
template <class Op>
struct open_segment_op {
  Op op;
  template <class A>
  __device__ __forceinline__ open_segment<A> operator()(const open_segment<A>& x,
                                                        const open_segment<A>& y) const {
    if (y.has_end) return y;
    return {join(x.tail, y.tail, op), x.has_end};
  }
};

// A block's stretch as its successors see it: `head` is its part of the segment of its first end
// (before that end; meaningful when open.has_end), `open` what it leaves open.
template <class A>
struct stretch_summary {
  partial<A> head;
  open_segment<A> open;
};

// What a warp's walk of its stretch leaves: the stretch's summary, one past the last end it
// walked, and whether an end arrived below the one before it.
template <class A>
struct stretch_walk {
  stretch_summary<A> summary;
  std::int64_t ends_end;
  bool bad_offsets;
};

// Stretch `left` followed by stretch `right` (whose first end is right_first_end): writes the
// segment that right's first end closes when left has an end (out[right_first_end]), and
// returns the two as one stretch.
template <class A, class OutIt, class Init, class Op>
__device__ stretch_summary<A> join_stretches(const stretch_summary<A>& left,
                                             const stretch_summary<A>& right,
                                             std::int64_t right_first_end, OutIt out,
                                             const Init& init, Op op) {
  stretch_summary<A> joined;
  joined.open = open_segment_op<Op>{op}(left.open, right.open);
  joined.head = left.head;
  if (right.open.has_end) {
    const partial<A> closed = join(left.open.tail, right.head, op);
    if (left.open.has_end) {
      out[right_first_end] = finish_segment(init, closed, op);
    } else {
      joined.head = closed;
    }
  }
  return joined;
}

// The scan of the lanes' open segments {acc, has_end} with the lifted operator, the flags kept in
// ballots so that only the values move between lanes (a segmented Kogge-Stone scan): `before`
// gets what the lanes below this one leave open (meaningless in lane 0), `total` what the warp
// leaves open.
template <class A, class Op>
__device__ __forceinline__ void scan_open_segments(const partial<A>& acc, bool has_end, Op op,
                                                   open_segment<A>& before,
                                                   open_segment<A>& total) {
  const unsigned lane = lane_id();
  const unsigned ends = __ballot_sync(full_warp_mask, has_end);
  A value = acc.value;
  bool has = acc.has;
#pragma unroll
  for (unsigned d = 1; d < warp_threads; d *= 2) {
    const A lower = warp_shuffle_up(value, static_cast<int>(d));
    const bool lower_has = __shfl_up_sync(full_warp_mask, has ? 1 : 0, d) != 0;
    // The lower lane's part joins this lane's when no lane of (lane - d, lane] ends a segment.
    const unsigned span = lane >= d ? ((2u << lane) - 1) & ~((1u << (lane - d + 1)) - 1) : 0u;
    if (lane >= d && (ends & span) == 0 && lower_has) {
      value = has ? static_cast<A>(op(lower, value)) : lower;
      has = true;
    }
  }
  const A lower_value = warp_shuffle_up(value, 1);
  before.tail = partial<A>{__shfl_up_sync(full_warp_mask, has ? 1 : 0, 1) != 0, lower_value};
  before.has_end = (ends & ((1u << lane) - 1)) != 0;
  const A last_value = warp_shuffle(value, warp_threads - 1);
  total.tail =
      partial<A>{__shfl_sync(full_warp_mask, has ? 1 : 0, warp_threads - 1) != 0, last_value};
  total.has_end = ends != 0;
}

// ITEMS: a lane's share of a chunk.
template <class A, int ITEMS>
struct segmented_reduce_warp {
  static_assert(ITEMS <= 32, "a lane's head bits fit one 32-bit word");
  static constexpr int chunk_items = warp_threads * ITEMS;
  // A chunk's place in shared memory: the tile layout whose blocked reads are conflict-free.
  using layout = tile_io<A, warp_threads, ITEMS>;
  static constexpr int head_words = (chunk_items + 3) / 4;

  struct storage {
    uninitialized_array<A, 2 * chunk_items> chunks;  // the chunk walked, and the next arriving
    std::uint32_t heads[head_words];                 // a byte an element: 1 where one starts
  };

  // Every head byte 0, as each chunk leaves them: once, before the first walk.
  __device__ static void clear_heads(storage& s) {
    for (int w = lane_id(); w < head_words; w += warp_threads) s.heads[w] = 0u;
    __syncwarp();
  }

  // Walks ends [a, a_end) and elements [b, b_end): element p is values[base + p], end j the
  // element position ends[j] - base (the end before end a: before_first - base). Writes out[j]
  // for each end but the first, whose segment may have begun before the walk: its part here
  // goes back in the summary. All lanes call it.
  template <class InIt, class EndIt, class OutIt, class Init, class Op>
  __device__ static stretch_walk<A> reduce(InIt values, EndIt ends, std::int64_t before_first,
                                           std::int64_t base, std::int64_t a, std::int64_t a_end,
                                           std::int64_t b, std::int64_t b_end, OutIt out,
                                           const Init& init, Op op, storage& s) {
    const int lane = lane_id();
    const std::int64_t a_first = a;
    bool bad = false;
    // Lane l's end of the window that starts at end w, and the start of its segment (the end
    // before it); past a_end, no end.
    const auto load_window = [&](std::int64_t w, std::int64_t before, std::int64_t& end_at,
                                 std::int64_t& start_at) {
      const bool valid = w + lane < a_end;
      end_at = valid ? static_cast<std::int64_t>(ends[w + lane]) - base : LLONG_MAX;
      start_at = __shfl_up_sync(full_warp_mask, end_at, 1);
      if (lane == 0) start_at = before;
      bad |= valid && end_at < start_at;
    };
    // The window of the first end not yet taken.
    std::int64_t window = a, end_at, start_at;
    load_window(window, before_first - base, end_at, start_at);
    partial<A> running;  // the open segment's elements so far
    running.has = false;
    partial<A> head;  // the first end's segment, its part here
    head.has = false;
    bool has_end = false;
    auto* bytes = reinterpret_cast<std::uint8_t*>(s.heads);
    int buffer = 0;
    bool arriving = false;  // the chunk's elements are on their way by cp.async
    for (std::int64_t p = b;;) {
      // The chunk [p, q): up to the next multiple of chunk_items of the values' index, so that
      // every chunk but a walk's first and last is whole and aligned.
      const std::int64_t q = min(b_end, ((base + p) / chunk_items + 1) * chunk_items - base);
      const int len = static_cast<int>(q - p);
      const bool last_chunk = q == b_end;
      A* region = s.chunks.data() + buffer * chunk_items;
      if (arriving) {
        wait_async_copies();
      } else {
        for (int i = lane; i < len; i += warp_threads) {
          region[layout::position(i)] = static_cast<A>(values[base + p + i]);
        }
      }
      __syncwarp();  // the chunk is in, and the other buffer's last reads are over
      // The lanes of the window starting at end w whose end falls in the chunk: its leading
      // lanes with an end at most q (in the last chunk every end left, so that bad offsets
      // cannot strand one).
      const auto ends_in_chunk = [&](std::int64_t e, std::int64_t w) {
        const unsigned in =
            __ballot_sync(full_warp_mask, w + lane < a_end && (e <= q || last_chunk));
        return in == full_warp_mask ? warp_threads : __ffs(~in) - 1;
      };
      const bool has_ends = ends_in_chunk(end_at, window) != 0;
      // Whole chunks after this one before the next end (and before the walk's last chunk)
      // are read straight into registers, as a plain reduction does: [q, skip_end).
      std::int64_t skip_end = q;
      if (!has_ends && !last_chunk) {
        const std::int64_t next_end = __shfl_sync(full_warp_mask, end_at, 0);
        const std::int64_t limit = min(next_end, b_end) - 1;
        skip_end = max(q, (base + limit) / chunk_items * chunk_items - base);
      }
      arriving = skip_end == q && !last_chunk &&
                 fetch_async(values, base + q, min(b_end, q + chunk_items) - q,
                             s.chunks.data() + (buffer ^ 1) * chunk_items);
      const int thread_valid = min(max(len - lane * ITEMS, 0), ITEMS);
      if (!has_ends) {
        // No end: the chunk's total joins the open segment, then the skipped chunks'.
        if (len > 0) {
          A x;
          layout::template for_thread_items<false>(region, thread_valid, [&](const A& y, int k) {
            x = k == 0 ? y : static_cast<A>(op(x, y));
          });
          const A total = len == chunk_items ? warp_reduce(x, op)
                                             : warp_reduce(x, op, ceil_div(len, ITEMS));
          running = join(running, partial<A>{true, total}, op);
        }
        for (std::int64_t c = q; c < skip_end; c += chunk_items) {
          const A total = warp_segment_reduce<ITEMS, A>(values + (base + c), chunk_items, op);
          running = join(running, partial<A>{true, total}, op);
        }
      } else {
        // Pass 1: a head byte where each end of the chunk starts the next segment, a window of
        // ends at a time (an empty segment's end repeats a position: its first lane marks it).
        // The marks and the ends the same lanes take again in pass 3, which clears them.
        const auto for_each_window = [&](auto&& f) {
          std::int64_t w = window, e = end_at, st = start_at, before_rel = -1;
          while (true) {
            const int taken = ends_in_chunk(e, w);
            const std::int64_t rel = e - p;
            const std::int64_t left = __shfl_up_sync(full_warp_mask, rel, 1);
            const bool marks = lane < taken && rel >= 0 && rel < len &&
                               rel != (lane == 0 ? before_rel : left);
            f(w, e, st, rel, taken, marks);
            if (taken < warp_threads) return;
            before_rel = __shfl_sync(full_warp_mask, rel, warp_threads - 1);
            const std::int64_t last = __shfl_sync(full_warp_mask, e, warp_threads - 1);
            w += warp_threads;
            load_window(w, last, e, st);
          }
        };
        std::int64_t last_end = 0;  // the chunk's last end
        for_each_window([&](std::int64_t, std::int64_t e, std::int64_t, std::int64_t rel,
                            int taken, bool marks) {
          if (marks) bytes[rel] = 1;
          if (taken > 0) last_end = __shfl_sync(full_warp_mask, e, taken - 1);
        });
        __syncwarp();
        // Pass 2: each lane's elements after its last head, scanned across the lanes with the
        // lifted operator; then each element's value in its segment so far, written back.
        const std::uint32_t bits = head_bits_of_bytes<ITEMS>(s.heads, lane * ITEMS, thread_valid);
        partial<A> tail;
        tail.has = false;
        layout::template for_thread_items<false>(region, thread_valid, [&](const A& x, int k) {
          tail = ((bits >> k) & 1u) != 0 || !tail.has
                     ? partial<A>{true, x}
                     : partial<A>{true, static_cast<A>(op(tail.value, x))};
        });
        open_segment<A> before, total;
        scan_open_segments(tail, bits != 0, op, before, total);
        partial<A> value = running;
        if (lane > 0) value = before.has_end ? before.tail : join(running, before.tail, op);
        layout::template for_thread_items<true>(region, thread_valid, [&](A& x, int k) {
          value = ((bits >> k) & 1u) != 0 || !value.has
                      ? partial<A>{true, x}
                      : partial<A>{true, static_cast<A>(op(value.value, x))};
          x = value.value;
        });
        __syncwarp();
        // Pass 3: each end's segment is the value at its last element; none for an empty one,
        // the open segment for one that ends where the chunk starts.
        std::int64_t next = window;
        for_each_window([&](std::int64_t w, std::int64_t e, std::int64_t st, std::int64_t rel,
                            int taken, bool marks) {
          partial<A> v;
          v.has = false;
          if (e > st) {
            v = rel > 0 && rel <= len
                    ? partial<A>{true, region[layout::position(static_cast<int>(rel - 1))]}
                    : running;
          }
          if (marks) bytes[rel] = 0;
          if (lane < taken && w + lane != a_first) {
            out[w + lane] = finish_segment(static_cast<const A&>(init), v, op);
          }
          if (w == a_first) {
            head = warp_shuffle(v, 0);
            has_end = true;
          }
          next = w + taken;
        });
        // An end on the chunk's last element leaves nothing open.
        if (last_end >= q) {
          running.has = false;
        } else {
          running = total.has_end ? total.tail : join(running, total.tail, op);
        }
        window = next;
        load_window(window, last_end, end_at, start_at);
      }
      if (last_chunk) break;
      p = skip_end;
      buffer ^= 1;
    }
    stretch_walk<A> walk;
    walk.summary.open = open_segment<A>{running, has_end};
    walk.summary.head = head;
    walk.ends_end = a_end;
    walk.bad_offsets = __any_sync(full_warp_mask, bad);
    return walk;
  }

 private:
  // Starts copying values[g .. g + count) to `region` when that is a whole chunk of a raw
  // pointer, 16-byte aligned, and says whether it did.
  template <class InIt>
  __device__ static bool fetch_async(InIt values, std::int64_t g, std::int64_t count, A* region) {
    if constexpr (is_pointer_to_v<InIt, A>) {
      if (count == chunk_items && detail::is_aligned_16(values + g)) {
        layout::copy_segment_async(values + g, region);
        return true;
      }
    }
    return false;
  }
};

}  // namespace pscan::cuda_common
