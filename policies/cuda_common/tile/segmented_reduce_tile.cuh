#pragma once
// Tile level of the element-balanced segmented reduction (after Merrill & Garland's merge-based
// SpMV, 2016): a tile is BLOCK_THREADS * ITEMS items of the merge of segment ends and elements
// (merge_path.cuh), so its work is the same whatever the segment lengths. The tile's values and
// ends go to shared memory in coalesced loads; each thread walks ITEMS merged items in order,
// folding elements and closing segments at ends; a block scan with the lifted operator (Blelloch
// 1990) carries each thread's open segment to the next; the results leave in coalesced stores.
// The tile's first segment may have begun in earlier tiles: its part here goes back in the
// tile's summary, for join_tiles to finish in order.

#include <cuda_common/block/block_scan.cuh>
#include <cuda_common/tile/async_copy.cuh>
#include <cuda_common/tile/merge_path.cuh>
#include <cuda_common/tile/tile_io.cuh>
#include <cuda_common/utility.cuh>

#include <pscan/future_value.hpp>

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

// A tile as its successors see it: `head` is its part of the segment of its first end (before
// that end; meaningful when open.has_end), `open` what it leaves open.
template <class A>
struct tile_summary {
  partial<A> head;
  open_segment<A> open;
};

template <class A, int BLOCK_THREADS, int ITEMS>
struct segmented_reduce_tile {
  static_assert(ITEMS <= 32, "a thread's closed segments are tracked in a 32-bit mask");
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;
  using scan = block_scan<open_segment<A>, BLOCK_THREADS>;
  // Values and ends share one buffer (together at most tile_items); results reuse it.
  static constexpr int slot_bytes = sizeof(A) > sizeof(int) ? int(sizeof(A)) : int(sizeof(int));

  // (+ 32: the values may start up to 15 bytes in, to share the input's 16-byte alignment.)
  struct storage {
    uninitialized_array<unsigned char, tile_items * slot_bytes + 32> items;
    typename scan::storage scan;
    uninitialized_array<partial<A>, 1> first_head;
  };

  // The tile of nb values values[0 .. nb) and na segment ends (end j at element position
  // ends[j] - ends_base, in [0, nb]), segments out[0 .. na). Writes out[1 .. na) (the segments
  // closed here); segment 0, if any, may have begun before the tile: its part here is the
  // summary's head. na + nb <= tile_items. Init: a value of type A or a deferred init of it.
  template <class InIt, class EndIt, class OutIt, class Init, class Op>
  __device__ static tile_summary<A> reduce(InIt values, int nb, EndIt ends_first,
                                           std::int64_t ends_base, int na, OutIt out,
                                           const Init& init, Op op, storage& s) {
    A* vals = load_values(values, nb, s.items.data());
    int* ends = reinterpret_cast<int*>(
        s.items.data() + ceil_div(static_cast<int>(reinterpret_cast<unsigned char*>(vals + nb) -
                                                   s.items.data()),
                                  4) * 4);
    const int t = static_cast<int>(threadIdx.x);
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int j = i * BLOCK_THREADS + t;
      if (j < na) ends[j] = static_cast<int>(static_cast<std::int64_t>(ends_first[j]) - ends_base);
    }
    __syncthreads();

    // This thread's merged items: [t * ITEMS, t * ITEMS + ITEMS) of the tile's na + nb.
    const int count = na + nb;
    const int diagonal = min(t * ITEMS, count);
    const int a_first = merge_path_split<int>([&](int j) { return ends[j]; }, na, nb, diagonal);
    int a = a_first;
    int b = diagonal - a_first;
    partial<A> acc;
    acc.has = false;
    partial<A> head;  // before the thread's first end
    head.has = false;
    bool has_end = false;
    A closed[ITEMS];  // item i's segment when it is an end after the thread's first
    unsigned closed_mask = 0;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      if (diagonal + i < count) {
        if (a < na && (b >= nb || ends[a] <= b)) {
          if (has_end) {
            closed[i] = finish_segment(static_cast<const A&>(init), acc, op);
            closed_mask |= 1u << i;
          } else {
            head = acc;
            has_end = true;
          }
          acc.has = false;
          ++a;
        } else {
          const A x = vals[b++];
          acc = acc.has ? partial<A>{static_cast<A>(op(acc.value, x)), true} : partial<A>{x, true};
        }
      }
    }

    // What the threads before this one leave open; the scan's barrier also ends all reads of
    // vals and ends, so the results may reuse the buffer.
    open_segment<A> tile_open;
    bool has_before;
    const open_segment<A> before = scan::exclusive(open_segment<A>{acc, has_end},
                                                   open_segment_op<Op>{op}, s.scan, tile_open,
                                                   has_before);
    A* results = reinterpret_cast<A*>(s.items.data());
    if (has_end) {
      partial<A> carried;
      carried.has = false;
      if (has_before) carried = before.tail;
      const partial<A> first = join(carried, head, op);
      if (has_before && before.has_end) {
        results[a_first] = finish_segment(static_cast<const A&>(init), first, op);
      } else {
        s.first_head[0] = first;  // a_first == 0: the tile's first end
      }
    }
    int next = a_first + 1;
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      if (closed_mask & (1u << i)) results[next++] = closed[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const int j = i * BLOCK_THREADS + t;
      if (j >= 1 && j < na) out[j] = results[j];
    }
    tile_summary<A> summary;
    summary.open = tile_open;
    summary.head.has = false;
    if (tile_open.has_end) summary.head = s.first_head[0];
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
        for (int i = 0; i < ITEMS / K; ++i) {
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
