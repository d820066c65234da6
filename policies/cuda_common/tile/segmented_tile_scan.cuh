#pragma once
// The tile agent of the fused segmented scans (by head flags, by key, by offsets) and of
// reduce_by_key. It is shared_tile_scan with the lifted operator of Sengupta, Harris, Zhang &
// Owens (2007) applied where it costs nothing: the values stay plain in shared memory, each thread
// holds the head bits of its items in one word (tile_heads.cuh), and (value, head) pairs exist
// only as thread totals, in the block scan and in the tile's carry. An exclusive scan folds its
// init into every segment's first value (init op x[h]) as it reads it, and writes init at the
// heads. reduce_by_key accumulates (value, runs begun) pairs instead (detail/runs.hpp), the run
// count taking the head's place, and writes only at the heads: the run that ends there and the
// key of the one that begins.

#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_heads.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/tile/tile_scan.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/policies/cuda_common/warp/warp_scan.cuh>

#include <pscan/detail/runs.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <iterator>
#include <type_traits>

namespace pscan::cuda_common {

// No init: the inclusive segmented scans.
struct no_init {};

// A segmented scan's input from position `position` on: values, where segments start (a head
// source of segmented_generic.hpp, by global position) and, exclusive, the init of every
// segment (a value, or a deferred init). Advanced like an iterator, so that kernels place it at
// a tile as they place a pointer.
template <class InIt, class Heads, class Init = no_init>
struct segmented_input {
  InIt values;
  Heads heads;
  Init init;
  std::int64_t position = 0;

  __host__ __device__ segmented_input operator+(std::int64_t d) const {
    return {values + d, heads, init, position + d};
  }
};

// The type a segmented scan accumulates: its init's (exclusive) or its values' (inclusive).
template <class InIt, class Init>
using segmented_value_t =
    std::conditional_t<std::is_same_v<Init, no_init>,
                       typename std::iterator_traits<InIt>::value_type,
                       pscan::detail::init_value_t<Init>>;

// Where reduce_by_key writes, from position `position` of the n inputs on: keys_out and
// values_out by run number, the number of runs to *runs_out. Advanced as segmented_input is.
template <class KeyIt, class KeyOut, class ValOut, class RunsOut>
struct run_sink {
  KeyIt keys;
  KeyOut keys_out;
  ValOut values_out;
  RunsOut runs_out;
  std::int64_t n;
  std::int64_t position = 0;

  __host__ __device__ run_sink operator+(std::int64_t d) const {
    return {keys, keys_out, values_out, runs_out, n, position + d};
  }
};

template <class T>
inline constexpr bool is_segmented_input_v = false;
template <class InIt, class Heads, class Init>
inline constexpr bool is_segmented_input_v<segmented_input<InIt, Heads, Init>> = true;

// Accumulators A: flagged<T> for the scans (Lifted = lifted_op), counted<T> for reduce_by_key
// (Lifted = counted_op), over values T in the tile.
template <class A, int BLOCK_THREADS, int ITEMS, class Barrier = block_barrier>
struct segmented_tile_scan {
  using T = decltype(A::value);
  static constexpr bool writes_runs = std::is_same_v<A, pscan::detail::counted<T>>;
  using io = tile_io<T, BLOCK_THREADS, ITEMS>;
  using block = block_scan<A, BLOCK_THREADS, Barrier>;
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;

  // reduce_by_key's: the item of each thread's j-th head, at [thread * ITEMS + j].
  struct run_heads {
    std::uint8_t items[tile_items];
  };
  struct no_run_heads {};

  struct storage {
    typename io::storage tile;
    typename block::storage scan;
    std::conditional_t<writes_runs, run_heads, no_run_heads> heads;
  };

  // Whether a tile of this total is its own inclusive prefix: a segment starts in it, and the
  // scan's results in it owe nothing to the tiles before (reduce_by_key's run numbers do).
  __device__ static bool own_prefix(const A& total) {
    if constexpr (writes_runs) {
      return false;
    } else {
      return total.head;
    }
  }

  // Scans the tile at `in` (1 <= valid <= tile_items items) into out (reduce_by_key: a
  // run_sink), as shared_tile_scan::run: every thread calls carry_of(tile_total) -> tile_carry<A>
  // once, after the block scan; the tile total has a head (runs) when a segment (run) starts in
  // the tile. Callers sync (Barrier) before reusing `s`.
  template <bool Exclusive, class In, class Out, class Lifted, class CarryOf>
  __device__ static void run(const In& in, Out out, int valid, Lifted lifted, storage& s,
                             CarryOf&& carry_of) {
    static_assert(!(Exclusive && writes_runs), "reduce_by_key has no init");
    const auto& op = lifted.op;
    const auto init = read_init<Exclusive>(in.init);
    std::uint32_t heads;
    A total;
    bool has_prefix;
    const A prefix = scan_totals<Exclusive>(in, valid, lifted, init, s, heads, total, has_prefix);
    const tile_carry<A> carry = thread_carry_in(carry_of(total), has_prefix, prefix, lifted);

    if constexpr (writes_runs) {
      write_runs(out, valid, s, heads, carry, op);
    } else {
      write_scan<Exclusive>(out, valid, s, heads, carry, init, op);
    }
  }

  // run() for the tile at `offset` of in[0 .. n).
  template <bool Exclusive, class In, class Out, class Lifted, class CarryOf>
  __device__ static void run_at(const In& in, std::int64_t n, std::int64_t offset, Out out,
                                Lifted lifted, storage& s, CarryOf&& carry_of) {
    const int valid = valid_items(n, offset, tile_items);
    run<Exclusive>(in + offset, out + offset, valid, lifted, s, carry_of);
  }

  // The total of the tile at `in` (1 <= valid <= tile_items items), to every thread, as run()
  // gives it to carry_of.
  template <bool Exclusive, class In, class Lifted>
  __device__ static A reduce(const In& in, int valid, Lifted lifted, storage& s) {
    std::uint32_t heads;
    A total;
    bool has_prefix;
    scan_totals<Exclusive>(in, valid, lifted, read_init<Exclusive>(in.init), s, heads, total,
                           has_prefix);
    return total;
  }

 private:
  // The scan's results: each thread rescans its items in place from its carry, then each warp
  // stores its segment.
  template <bool Exclusive, class OutIt, class Init, class UserOp>
  __device__ static void write_scan(OutIt out, int valid, storage& s, std::uint32_t heads,
                                    const tile_carry<A>& carry, const Init& init,
                                    const UserOp& op) {
    // Item 0 of the input is a head, so an item that is not has a carry: only heads start afresh.
    T running = carry.value.value;
    T* region = io::warp_region(s.tile);
    io::template for_thread_items<true>(region, thread_items(valid), [&](T& item, int k) {
      const bool head = (heads >> k) & 1u;
      const T x = seen<Exclusive>(item, head, init, op);
      const T next = head ? x : static_cast<T>(op(running, x));
      if constexpr (Exclusive) {
        item = head ? static_cast<T>(init) : running;
      } else {
        item = next;
      }
      running = next;
    });
    io::store_from_shared(out, valid, s.tile);
  }

  // reduce_by_key's writes, by run number: at each head the value of the run that ends before it
  // (if any) and the key of the run it begins; at the input's last item its run's value and the
  // number of runs. Written one by one, dense runs of 4-byte values would cost a 32-byte sector a
  // value; so each thread first packs the values its heads write into the front of its own
  // slots, and each head's item beside them (a byte), and the warp then writes its runs 32
  // consecutive ones a step, each lane finding the thread that holds its run by a search over
  // the warp's head counts. (Finding the item from the head bits instead, __fns, a loop in
  // software, took a quarter of the kernel's instructions at runs of one.)
  template <class Sink, class UserOp>
  __device__ static void write_runs(const Sink& out, int valid, storage& s, std::uint32_t heads,
                                    const tile_carry<A>& carry, const UserOp& op) {
    const int thread_valid = thread_items(valid);
    const int lane = lane_id();
    T* region = io::warp_region(s.tile);
    // Without a carry the thread's first item is the input's first, a head: the value packed for
    // it (running, not read from anywhere) is never written out.
    T running = carry.value.value;
    std::uint8_t* head_items = s.heads.items + threadIdx.x * ITEMS;
    int packed = 0;
    io::template for_thread_items<false>(region, thread_valid, [&](T& item, int k) {
      if ((heads >> k) & 1u) {
        head_items[packed] = static_cast<std::uint8_t>(k);
        region[io::position(lane * ITEMS + packed++)] = running;  // a slot already read
        running = item;
      } else {
        running = static_cast<T>(op(running, item));
      }
    });
    const std::int64_t runs_before = carry.has ? carry.value.runs : 0;
    if (thread_valid > 0 && out.position + std::int64_t{threadIdx.x} * ITEMS + thread_valid ==
                                out.n) {
      out.values_out[runs_before + packed - 1] = running;
      *out.runs_out = runs_before + packed;
    }
    // Heads in the lanes below (the warp's runs are numbered in lane order) and in the warp.
    const int below = warp_inclusive_scan(packed, pscan::plus<>{}) - packed;
    const int warp_runs = warp_shuffle(below + packed, warp_threads - 1);
    if (warp_runs == 0) return;
    const std::int64_t warp_first_run = warp_shuffle(runs_before, 0);  // lane 0 has items
    const std::int64_t warp_first = out.position + std::int64_t{warp_id()} * io::warp_items;
    const int warp_first_thread = warp_id() * warp_threads;
    __syncwarp();  // the packed values are visible to the warp
    for (int step = 0; step < warp_runs; step += warp_threads) {
      const int r = step + lane;  // the warp's r-th run
      int owner = 0;              // the last lane whose heads begin at or before run r
#pragma unroll
      for (int half = warp_threads / 2; half > 0; half /= 2) {
        if (__shfl_sync(full_warp_mask, below, owner + half) <= r) owner += half;
      }
      const int owner_below = __shfl_sync(full_warp_mask, below, owner);
      if (r < warp_runs) {
        const int j = r - owner_below;  // the owner's j-th head
        const int position =
            owner * ITEMS + s.heads.items[(warp_first_thread + owner) * ITEMS + j];
        const std::int64_t run = warp_first_run + r;
        if (run > 0) out.values_out[run - 1] = region[io::position(owner * ITEMS + j)];
        out.keys_out[run] = out.keys[warp_first + position];
      }
    }
  }

  __device__ static int thread_items(int valid) {
    return min(max(valid - static_cast<int>(threadIdx.x) * ITEMS, 0), ITEMS);
  }

  // The item as the scan sees it: init op x at a head, for an exclusive scan.
  template <bool Exclusive, class Init, class UserOp>
  __device__ static T seen(const T& x, bool head, const Init& init, const UserOp& op) {
    if constexpr (Exclusive) {
      if (head) return static_cast<T>(op(init, x));
    }
    return x;
  }

  // Loads the tile into shared memory and the thread's head bits, reduces each thread's items
  // (from its last head on, head set; or all of them) and scans those totals across the block:
  // returns the thread's exclusive prefix (has_prefix) and the tile's total.
  template <bool Exclusive, class In, class Lifted, class Init>
  __device__ static A scan_totals(const In& in, int valid, Lifted lifted, const Init& init,
                                  storage& s, std::uint32_t& heads, A& total, bool& has_prefix) {
    const int thread_valid = thread_items(valid);
    heads = 0u;
    io::load_to_shared(in.values, valid, s.tile, [&] {
      heads = thread_heads<ITEMS, BLOCK_THREADS>(in.heads, in.position + threadIdx.x * ITEMS,
                                                 thread_valid);
    });
    A mine{};  // threads without items pass it along; block_scan never combines it
    bool has_mine = false;
    T* region = io::warp_region(s.tile);
    io::template for_thread_items<false>(region, thread_valid, [&](T& item, int k) {
      const bool head = (heads >> k) & 1u;
      const A x{seen<Exclusive>(item, head, init, lifted.op), head};
      mine = has_mine ? static_cast<A>(lifted(mine, x)) : x;
      has_mine = true;
    });
    return block::exclusive(mine, lifted, s.scan, total, has_prefix, ceil_div(valid, ITEMS));
  }

  // The init of an exclusive scan, read once into a register (a deferred one from device
  // memory); nothing for an inclusive one.
  template <bool Exclusive, class Init>
  __device__ static auto read_init(const Init& init) {
    if constexpr (Exclusive) {
      return static_cast<pscan::detail::init_value_t<Init>>(
          static_cast<const pscan::detail::init_value_t<Init>&>(init));
    } else {
      return no_init{};
    }
  }
};

}  // namespace pscan::cuda_common
