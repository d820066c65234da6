#pragma once
// Block level of the element-balanced segmented reduction (after Merrill & Garland's merge-based
// SpMV, 2016): a block owns a contiguous stretch of the merge of segment ends and elements
// (merge_path.cuh), the same number of items whatever the segment lengths, and walks it in steps
// of BLOCK_THREADS * ITEMS merged items. Each step's ends join a ring in shared memory (every end
// is read once), its elements come in by cp.async, and each thread walks ITEMS merged items in
// order, folding elements and writing each segment it closes into the step's results in place;
// ITEMS is odd, so that the threads' strided reads of the elements hit distinct banks. A block
// scan with the lifted operator (Blelloch 1990) carries each thread's open segment to the next,
// the block's running open segment carries from step to step, and the results leave in
// coalesced stores. The block's first segment may have begun in earlier blocks: its part here
// goes back in the block's summary, for the last block to finish in order.

#include <cuda_common/block/block_scan.cuh>
#include <cuda_common/tile/async_copy.cuh>
#include <cuda_common/tile/merge_path.cuh>
#include <cuda_common/tile/tile_io.cuh>
#include <cuda_common/utility.cuh>

#include <pscan/future_value.hpp>

#include <climits>
#include <cstdint>

namespace pscan::cuda {

// A value that may be absent: an empty stretch contributes nothing, and op never sees a made-up
// identity.
template <class A>
struct partial {
  A value;
  bool has;
};

template <class A, class Op>
__device__ __forceinline__ partial<A> join(const partial<A>& x, const partial<A>& y, Op op) {
  if (!x.has) return y;
  if (!y.has) return x;
  return {static_cast<A>(op(x.value, y.value)), true};
}

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

template <class A, int BLOCK_THREADS, int ITEMS>
struct segmented_reduce_block {
  static_assert(ITEMS % 2 == 1, "an odd number of items a thread keeps the walk conflict-free");
  static constexpr int step_items = BLOCK_THREADS * ITEMS;
  // The ring of ends: a power of two that holds a step's.
  static constexpr int ring_size = [] {
    int size = 1;
    while (size < step_items) size *= 2;
    return size;
  }();
  using scan = block_scan<open_segment<A>, BLOCK_THREADS>;
  // Positions within a stretch are ints: a stretch holds at most this many merged items.
  static constexpr std::int64_t max_stretch_items = std::int64_t{1} << 30;

  struct storage {
    // (+ 16: the elements may start up to 15 bytes in, to share the input's 16-byte alignment.)
    uninitialized_array<unsigned char, step_items * sizeof(A) + 16> values;
    uninitialized_array<A, step_items> results;
    int ends[ring_size];  // end j at ends[j % ring_size], counted from the stretch's first element
    typename scan::storage scan;
    uninitialized_array<partial<A>, 1> head;
  };

  // The stretch of `items` merged items that starts with end `a` (of `segments`) and element `b`
  // (of `elements`), element j at values[j], end j at element position ends_first[j] - base
  // (non-decreasing), segment j's result to out[j]. Writes the segments it closes but the first;
  // returns its summary.
  template <class InIt, class EndIt, class OutIt, class Init, class Op>
  __device__ static stretch_summary<A> reduce(InIt values, EndIt ends_first, std::int64_t base,
                                              std::int64_t segments, std::int64_t elements,
                                              std::int64_t a, std::int64_t b, std::int64_t items,
                                              OutIt out, const Init& init, Op op, storage& s) {
    const int t = static_cast<int>(threadIdx.x);
    const std::int64_t b_first = b;
    std::int64_t loaded = a;  // the ring holds ends [a, loaded)
    open_segment<A> running;  // what the steps so far leave open
    running.tail.has = false;
    running.has_end = false;
    for (std::int64_t done = 0; done < items;) {
      const int step = static_cast<int>(min(items - done, std::int64_t{step_items}));
      const int ends_count = static_cast<int>(min(segments - a, std::int64_t{step}));
      // Ends past the stretch may lie further than an int reaches: they only need to lie past it.
      for (std::int64_t j = loaded + t; j < a + ends_count; j += BLOCK_THREADS) {
        s.ends[j & (ring_size - 1)] = static_cast<int>(
            min(static_cast<std::int64_t>(ends_first[j]) - base - b_first, max_stretch_items));
      }
      loaded = max(loaded, a + ends_count);
      __syncthreads();
      const int b_offset = static_cast<int>(b - b_first);
      const int ring_first = static_cast<int>(a & (ring_size - 1));
      const auto end_at = [&](int j) {
        return s.ends[(ring_first + j) & (ring_size - 1)] - b_offset;
      };
      const int na = merge_path_split<int>(end_at, ends_count,
                                           static_cast<int>(min(elements - b, std::int64_t{step})),
                                           step);
      const int nb = step - na;
      const A* vals = load_values(values + b, nb, s.values.data());
      __syncthreads();

      // This thread's merged items: [t * ITEMS, t * ITEMS + ITEMS) of the step's.
      const int diagonal = min(t * ITEMS, step);
      const int a_first = merge_path_split<int>(end_at, na, nb, diagonal);
      int ai = a_first;
      int bi = diagonal - a_first;
      // The next end's position: an end of the step lies at most at nb, so past the last end
      // the walk never takes one again.
      int next_end = ai < na ? end_at(ai) : INT_MAX;
      partial<A> acc;
      acc.has = false;
      partial<A> head;  // before the thread's first end
      head.has = false;
      bool has_end = false;
      const int count = min(ITEMS, step - diagonal);
      if (count == ITEMS && next_end >= bi + ITEMS && bi + ITEMS <= nb) {
        // No end among the thread's items (most threads, once segments outgrow a thread).
        A x = vals[bi];
#pragma unroll
        for (int i = 1; i < ITEMS; ++i) x = static_cast<A>(op(x, vals[bi + i]));
        acc = partial<A>{x, true};
      } else {
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
          if (i < count) {
            if (next_end <= bi) {
              if (has_end) {
                s.results[ai] = finish_segment(static_cast<const A&>(init), acc, op);
              } else {
                head = acc;
                has_end = true;
              }
              acc.has = false;
              ++ai;
              next_end = ai < na ? end_at(ai) : INT_MAX;
            } else {
              const A x = vals[bi++];
              acc = acc.has ? partial<A>{static_cast<A>(op(acc.value, x)), true}
                            : partial<A>{x, true};
            }
          }
        }
      }

      // What the threads before this one leave open, and the step's own.
      open_segment<A> step_open;
      bool has_before;
      const open_segment<A> before = scan::exclusive(open_segment<A>{acc, has_end},
                                                     open_segment_op<Op>{op}, s.scan, step_open,
                                                     has_before);
      if (has_end) {
        partial<A> carried;
        carried.has = false;
        if (has_before) carried = before.tail;
        const partial<A> first = join(carried, head, op);
        if (has_before && before.has_end) {
          s.results[a_first] = finish_segment(static_cast<const A&>(init), first, op);
        } else if (running.has_end) {  // the step's first end, not the stretch's
          s.results[0] = finish_segment(static_cast<const A&>(init),
                                        join(running.tail, first, op), op);
        } else {  // the stretch's first end: its segment may have begun before the stretch
          s.head[0] = join(running.tail, first, op);
        }
      }
      __syncthreads();
      for (int j = running.has_end ? t : t + 1; j < na; j += BLOCK_THREADS) {
        out[a + j] = s.results[j];
      }
      running = open_segment_op<Op>{op}(running, step_open);
      a += na;
      b += nb;
      done += step;
    }
    stretch_summary<A> summary;
    summary.open = running;
    summary.head.has = false;
    if (running.has_end) summary.head = s.head[0];
    return summary;
  }

 private:
  // values[0 .. nb) to shared memory, returned there (not yet visible to other threads). From a
  // raw pointer, the 16-byte units go by cp.async into shared memory of the same alignment (the
  // values start as many bytes into `buffer` as the input is past a 16-byte boundary), and only
  // the items before the first and after the last whole unit one by one.
  template <class InIt>
  __device__ static A* load_values(InIt values, int nb, unsigned char* buffer) {
    const int t = static_cast<int>(threadIdx.x);
    if constexpr (is_pointer_to_v<InIt, A> && has_16_byte_units_v<A>) {
      constexpr int K = unit_items_v<A>;
      const auto address = reinterpret_cast<std::uintptr_t>(values);
      if (address % sizeof(A) == 0) {
        const int skew = static_cast<int>(address & 15);
        A* vals = reinterpret_cast<A*>(buffer + skew);
        const int head = min(((16 - skew) & 15) / static_cast<int>(sizeof(A)), nb);
        const int units = (nb - head) / K;
#pragma unroll
        for (int i = 0; i < ceil_div(step_items / K, BLOCK_THREADS); ++i) {
          const int u = i * BLOCK_THREADS + t;
          if (u < units) copy_async_16(vals + head + u * K, values + head + u * K);
        }
        commit_async_copies();
        const int tail = head + units * K;
        if (t < head) vals[t] = values[t];
        if (tail + t < nb) vals[tail + t] = values[tail + t];
        wait_async_copies();
        return vals;
      }
    }
    A* vals = reinterpret_cast<A*>(buffer);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int j = i * BLOCK_THREADS + t;
      if (j < nb) vals[j] = static_cast<A>(values[j]);
    }
    return vals;
  }
};

}  // namespace pscan::cuda
