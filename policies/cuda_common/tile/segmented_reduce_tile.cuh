#pragma once
// Warp level of the element-balanced segmented reduction (after Merrill & Garland's merge-based
// SpMV, 2016): a warp owns a contiguous stretch of the merge of segment ends and elements
// (merge_path.cuh), the same number of items whatever the segment lengths, and walks it in steps
// of 32 * ITEMS merged items, on its own: no block barrier in the walk. Ends and elements wait in
// two rings of the warp's shared memory (shared_ring.cuh) that hold two steps: the next step's
// arrive by cp.async while this one is walked, so loads stay in flight through the walk. Each
// lane walks ITEMS merged items in order, folding elements and writing each segment it closes
// into the step's results in place; ITEMS is odd, so that the lanes' strided reads of the
// elements hit distinct banks. A warp scan with the lifted operator (Blelloch 1990) carries each
// lane's open segment to the next, the warp's running open segment carries from step to step,
// and the results leave in coalesced stores. The stretch's first segment may have begun in
// earlier stretches: its part here goes back in the stretch's summary, for the block and then
// the last block to finish in order (join_stretches). Every end that arrives is checked against
// the one before it: bad offsets steer the walk wrongly but never out of range (the merge path
// bounds every count by the ends and elements there are), and are flagged.

#include <pscan/policies/cuda_common/tile/async_copy.cuh>
#include <pscan/policies/cuda_common/tile/merge_path.cuh>
#include <pscan/policies/cuda_common/tile/shared_ring.cuh>
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

// E: the offsets' value type, held as read (an end is checked before it is trusted).
template <class A, class E, int ITEMS>
struct segmented_reduce_warp {
  static_assert(ITEMS % 2 == 1, "an odd number of items a lane keeps the walk conflict-free");
  static constexpr int step_items = warp_threads * ITEMS;
  // Two steps, the one walked and the next, arriving, and a 16-byte unit more: fetches end on
  // unit boundaries, so that each is whole units but at the ends of the input.
  static constexpr int ring_items = 2 * step_items + 16;
  using value_ring = shared_ring<A, ring_items>;
  using end_ring = shared_ring<E, ring_items>;

  struct storage {
    uninitialized_array<A, ring_items> values;
    uninitialized_array<E, ring_items> ends;
    uninitialized_array<A, step_items> results;
    uninitialized_array<partial<A>, 1> head;
  };

  // The stretch of `items` merged items that starts with end `a` (of `segments`) and element `b`
  // (of `elements`): element j at values[j], end j at element position ends_first[j] - base
  // (ends_first[a - 1], or the first offset, is `before_first`), segment j's result to out[j].
  // Writes the segments it closes but the first. All lanes of the warp call it.
  template <class InIt, class EndIt, class OutIt, class Init, class Op>
  __device__ static stretch_walk<A> reduce(InIt values, EndIt ends_first, std::int64_t before_first,
                                           std::int64_t base, std::int64_t segments,
                                           std::int64_t elements, std::int64_t a, std::int64_t b,
                                           std::int64_t items, OutIt out, const Init& init, Op op,
                                           storage& s) {
    const int lane = lane_id();
    const open_segment_op<Op> lifted{op};
    const value_ring vring = value_ring::over(values, s.values.data());
    const end_ring ering = end_ring::over(ends_first, s.ends.data());
    const std::int64_t a_first = a;
    bool bad = false;
    // The rings hold (or are receiving) elements [b, values_end) and ends [a, ends_end); slots
    // advance with the positions (a modulo of 64-bit positions only here).
    int b_slot = vring.slot(b);
    int a_slot = ering.slot(a);
    std::int64_t values_end = b, ends_end = a;
    int values_end_slot = b_slot, ends_end_slot = a_slot;
    std::int64_t ends_checked = a;
    int ends_checked_slot = a_slot;
    const std::int64_t first_step = min(items, std::int64_t{step_items});
    vring.template extend<warp_threads>(values, values_end, values_end_slot,
                                        min(vring.unit_boundary(b + first_step), elements), lane);
    ering.template extend<warp_threads>(ends_first, ends_end, ends_end_slot,
                                        min(ering.unit_boundary(a + first_step), segments), lane);
    commit_async_copies();
    open_segment<A> running;  // what the steps so far leave open
    running.tail.has = false;
    running.has_end = false;
    for (std::int64_t done = 0; done < items;) {
      const int step = static_cast<int>(min(items - done, std::int64_t{step_items}));
      wait_async_copies();
      __syncwarp();
      bad |= check_ends(ering, ends_checked, ends_end, ends_checked_slot, a_first, before_first);
      ends_checked = ends_end;
      ends_checked_slot = ends_end_slot;
      const std::int64_t origin = base + b;
      // End j of the step, as an element position of the step (at least 0 for good offsets;
      // capped, since a step compares it only with positions in [0, step]).
      const auto end_at = [&](int j) {
        const std::int64_t x =
            static_cast<std::int64_t>(ering.items[end_ring::advance(a_slot, j)]) - origin;
        return static_cast<int>(min(x, std::int64_t{1} << 30));
      };
      const int na = warp_merge_path_split<int>(
          end_at, static_cast<int>(min(segments - a, std::int64_t{step})),
          static_cast<int>(min(elements - b, std::int64_t{step})), step);
      const int nb = step - na;

      // The next step's ends and elements, in flight while this one is walked.
      const std::int64_t next = min(items - done - step, std::int64_t{step_items});
      if (next > 0) {
        vring.template extend<warp_threads>(values, values_end, values_end_slot,
                                            min(vring.unit_boundary(b + nb + next), elements),
                                            lane);
        ering.template extend<warp_threads>(ends_first, ends_end, ends_end_slot,
                                            min(ering.unit_boundary(a + na + next), segments),
                                            lane);
        commit_async_copies();
      }

      // This lane's merged items: [lane * ITEMS, lane * ITEMS + ITEMS) of the step's.
      const int diagonal = min(lane * ITEMS, step);
      const int a_mine = merge_path_split<int>(end_at, na, nb, diagonal);
      int ai = a_mine;
      const int bi = diagonal - a_mine;
      const int slot = value_ring::advance(b_slot, bi);  // of element bi
      // The next end's position: an end of the step lies at most at nb, so past the last end
      // the walk never takes one again.
      int next_end = ai < na ? end_at(ai) : INT_MAX;
      partial<A> acc;
      acc.has = false;
      partial<A> head;  // before the lane's first end
      head.has = false;
      bool has_end = false;
      const int count = min(ITEMS, step - diagonal);
      // Whether the step's elements lie in one piece of the ring, so that every lane reads
      // straight on: a choice of the whole warp, so that no lane waits for another's path (and
      // no vote, which nvcc 13.0 may sink into the branch below, out of the other lanes' reach).
      const bool straight = b_slot + nb <= ring_items;
      if (count == ITEMS && next_end >= bi + ITEMS && bi + ITEMS <= nb) {
        // No end among the lane's items (most lanes, once segments outgrow a lane).
        const A* v = vring.items + slot;
        A x;
        if (straight) {
          x = v[0];
#pragma unroll
          for (int i = 1; i < ITEMS; ++i) x = static_cast<A>(op(x, v[i]));
        } else {
          x = v[0];
#pragma unroll
          for (int i = 1; i < ITEMS; ++i) {
            x = static_cast<A>(op(x, vring.items[value_ring::advance(slot, i)]));
          }
        }
        acc = partial<A>{true, x};
      } else {
        // Runs of elements between ends: a test per end, not per item.
        int taken = 0;     // elements taken
        int left = count;  // merged items still to take
        while (left > 0) {
          const int run = min(left, max(0, next_end - (bi + taken)));
          for (int i = 0; i < run; ++i) {
            const A x = vring.items[value_ring::advance(slot, taken + i)];
            acc = acc.has ? partial<A>{true, static_cast<A>(op(acc.value, x))}
                          : partial<A>{true, x};
          }
          taken += run;
          left -= run;
          if (left > 0) {  // the next end
            if (has_end) {
              s.results[ai] = finish_segment(static_cast<const A&>(init), acc, op);
            } else {
              head = acc;
              has_end = true;
            }
            acc.has = false;
            ++ai;
            next_end = ai < na ? end_at(ai) : INT_MAX;
            --left;
          }
        }
      }

      // What the lanes before this one leave open, and the step's own. A lane without items
      // leaves nothing open and joins as no one.
      open_segment<A> before, step_open;
      scan_open_segments(acc, has_end, op, before, step_open);
      if (has_end) {
        partial<A> carried;
        carried.has = false;
        if (lane > 0) carried = before.tail;
        const partial<A> first = join(carried, head, op);
        if (lane > 0 && before.has_end) {
          s.results[a_mine] = finish_segment(static_cast<const A&>(init), first, op);
        } else if (running.has_end) {  // the step's first end, not the stretch's
          s.results[0] = finish_segment(static_cast<const A&>(init),
                                        join(running.tail, first, op), op);
        } else {  // the stretch's first end: its segment may have begun before the stretch
          s.head[0] = join(running.tail, first, op);
        }
      }
      __syncwarp();
      for (int j = running.has_end ? lane : lane + 1; j < na; j += warp_threads) {
        out[a + j] = s.results[j];
      }
      __syncwarp();  // the results are read before the next step writes them
      running = lifted(running, step_open);
      a += na;
      b += nb;
      a_slot = end_ring::advance(a_slot, na);
      b_slot = value_ring::advance(b_slot, nb);
      done += step;
    }
    stretch_walk<A> walk;
    walk.summary.open = running;
    walk.summary.head.has = false;
    if (running.has_end) walk.summary.head = s.head[0];
    walk.ends_end = a;
    walk.bad_offsets = __any_sync(full_warp_mask, bad);
    return walk;
  }

 private:
  // Whether any of ends [from, to), now in the ring from slot from_slot on, lies below the end
  // before it.
  __device__ static bool check_ends(const end_ring& ring, std::int64_t from, std::int64_t to,
                                    int from_slot, std::int64_t a_first,
                                    std::int64_t before_first) {
    bool bad = false;
    const int count = static_cast<int>(to - from);
    for (int i = lane_id(); i < count; i += warp_threads) {
      const int slot = end_ring::advance(from_slot, i);
      const std::int64_t before =
          from + i == a_first
              ? before_first
              : static_cast<std::int64_t>(ring.items[slot == 0 ? ring_items - 1 : slot - 1]);
      bad |= static_cast<std::int64_t>(ring.items[slot]) < before;
    }
    return bad;
  }
};

}  // namespace pscan::cuda_common
