#pragma once
// The tile agent of the fused segmented scans (by head flags, by key, by offsets). It is
// shared_tile_scan with the lifted operator of Sengupta, Harris, Zhang & Owens (2007) applied
// where it costs nothing: the values stay plain in shared memory, each thread holds the head bits
// of its items in one word (tile_heads.cuh), and (value, head) pairs exist only as thread totals,
// in the block scan and in the tile's carry. An exclusive scan folds its init into every
// segment's first value (init op x[h]) as it reads it, and writes init at the heads.

#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_heads.cuh>
#include <pscan/policies/cuda_common/tile/tile_input.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/tile/tile_scan.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

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
  static constexpr tile_input tile_kind = tile_input::segmented;
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

// Accumulators A = flagged<T> (Lifted = lifted_op) over values T in the tile.
template <class A, int BLOCK_THREADS, int ITEMS, class Barrier = block_barrier>
struct segmented_tile_scan {
  using T = decltype(A::value);
  using io = tile_io<T, BLOCK_THREADS, ITEMS>;
  using block = block_scan<A, BLOCK_THREADS, Barrier>;
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;

  struct storage {
    typename io::storage tile;
    typename block::storage scan;
  };

  // Whether a tile of this total is its own inclusive prefix: a segment starts in it, so the
  // scan's results in it owe nothing to the tiles before.
  __device__ static bool own_prefix(const A& total) { return total.head; }

  // Scans the tile at `in` (1 <= valid <= tile_items items) into out, as shared_tile_scan::run:
  // every thread calls carry_of(tile_total) -> tile_carry<A> once, after the block scan; the
  // tile total has a head when a segment starts in the tile. Callers sync (Barrier) before
  // reusing `s`.
  template <bool Exclusive, class In, class Out, class Lifted, class CarryOf>
  __device__ static void run(const In& in, Out out, int valid, Lifted lifted, storage& s,
                             CarryOf&& carry_of) {
    const auto& op = lifted.op;
    const auto init = read_init<Exclusive>(in.init);
    std::uint32_t heads;
    A total;
    bool has_prefix;
    const A prefix = scan_totals<Exclusive>(in, valid, lifted, init, s, heads, total, has_prefix);
    const tile_carry<A> carry = thread_carry_in(carry_of(total), has_prefix, prefix, lifted);
    write_scan<Exclusive>(out, valid, s, heads, carry, init, op);
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
