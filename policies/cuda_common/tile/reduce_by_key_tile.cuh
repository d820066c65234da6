#pragma once
// The tile agent of reduce_by_key, on both CUDA policies: the design of CUB's reduce-by-key agent
// (a block scan over (runs begun, value) pairs, Merrill & Garland's look-back over the tiles'
// pairs, the runs written through shared memory in run order), with the tile's keys and values
// waiting in shared memory as the chained scan's tiles do, so that many tiles fit on an SM.
//   1. Each warp copies its part of the tile's keys and values in (cp.async for raw pointers).
//   2. Each thread marks its heads (a key unequal to its left neighbour's: one bit an item) and
//      reduces its items from its last head on, counting the heads.
//   3. The block scans those (runs, value) pairs with 32-bit counts; the tile's carry-in (the run
//      in progress and the runs before, 64-bit) comes from a callback, as in shared_tile_scan.
//   4. While the carry is on its way, each thread rescans its values from its prefix in the tile
//      (threads without heads skip it): at a head it leaves the value of the run that ends there
//      in the head's own value slot and the head's position in the tile's run table, under the
//      run's number in the tile. No thread writes where another reads. Of those values only the
//      tile's first (the run in progress at its start) lacks the carry.
//   5. After one barrier the block writes the tile's runs in run order, consecutive threads
//      consecutive runs: run r's key and the value of run r - 1, both read at the position the
//      table gives, the carry added to the first. The input's last item writes the last run's
//      value and the number of runs.
// op sees input values and results of op only; the keys are read once from memory.

#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_input.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/tile/tile_scan.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

#include <pscan/detail/runs.hpp>

#include <cstdint>
#include <iterator>
#include <type_traits>

namespace pscan::cuda_common {

// reduce_by_key's input from position `position` of keys and values on (both given from the
// input's start), with the keys' equality. Advanced like an iterator, so that kernels place it at
// a tile as they place a pointer.
template <class KeyIt, class InIt, class KeyEq>
struct run_input {
  static constexpr tile_input tile_kind = tile_input::runs;
  using key_type = std::remove_cv_t<typename std::iterator_traits<KeyIt>::value_type>;
  KeyIt keys;
  InIt values;
  KeyEq eq;
  std::int64_t position = 0;

  __host__ __device__ run_input operator+(std::int64_t d) const {
    return {keys, values, eq, position + d};
  }
};

// Where reduce_by_key writes, from position `position` of the n inputs on: keys_out and
// values_out by run number, the number of runs to *runs_out. Advanced as run_input is.
template <class KeyOut, class ValOut, class RunsOut>
struct run_sink {
  KeyOut keys_out;
  ValOut values_out;
  RunsOut runs_out;
  std::int64_t n;
  std::int64_t position = 0;

  __host__ __device__ run_sink operator+(std::int64_t d) const {
    return {keys_out, values_out, runs_out, n, position + d};
  }
};

// Items a thread of tiles that keep at most BYTES a thread in shared memory (each item's key,
// value and run table entry): the most whole 16-byte units of both keys and values, at most 32.
template <class K, class T, int BYTES>
inline constexpr int run_items_v = [] {
  const int step = unit_items_v<K> > unit_items_v<T> ? unit_items_v<K> : unit_items_v<T>;
  const int fit = BYTES / static_cast<int>(sizeof(K) + sizeof(T) + sizeof(std::uint16_t));
  const int items = (fit < 32 ? fit : 32) / step * step;
  return items > step ? items : step;
}();

template <class T, class K, int BLOCK_THREADS, int ITEMS, class Barrier = block_barrier>
struct reduce_by_key_tile {
  using A = pscan::detail::counted<T>;
  using key_io = tile_io<K, BLOCK_THREADS, ITEMS>;
  using value_io = tile_io<T, BLOCK_THREADS, ITEMS>;
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;
  static constexpr int warp_items = warp_threads * ITEMS;
  static_assert(tile_items <= 65536, "the run table holds 16-bit positions");
  static_assert(ITEMS <= 32, "a thread's head bits fit one 32-bit word");

  // A stretch of the tile (a thread's items, the threads before one): its reduction from its
  // last head on, and its heads, counted in int.
  using stretch = pscan::detail::counted<T, int>;
  using block = block_scan<stretch, BLOCK_THREADS, Barrier>;

  struct storage {
    typename key_io::storage keys;
    typename value_io::storage values;
    typename block::storage scan;
    std::uint16_t run_table[tile_items];  // a run's head, by the run's number in the tile
  };

  // Reduces in[0 .. valid) (1 <= valid <= tile_items) and writes its runs to out: every thread
  // calls carry_of(tile_total, meanwhile) -> tile_carry<A> once, after the block scan (the
  // total's runs: the heads in the tile); carry_of calls meanwhile() (the rescan, which needs no
  // carry) before it waits for the carry. Callers sync (Barrier) before reusing `s`.
  template <bool Exclusive, class In, class Out, class Lifted, class CarryOf>
  __device__ static void run(const In& in, Out out, int valid, Lifted lifted, storage& s,
                             CarryOf&& carry_of) {
    static_assert(!Exclusive, "reduce_by_key has no init");
    if (valid == tile_items) {
      run_tile<true>(in, out, valid, lifted.op, s, carry_of);
    } else {
      run_tile<false>(in, out, valid, lifted.op, s, carry_of);
    }
  }

  // run() for the tile at `offset` of in[0 .. n).
  template <bool Exclusive, class In, class Out, class Lifted, class CarryOf>
  __device__ static void run_at(const In& in, std::int64_t n, std::int64_t offset, Out out,
                                Lifted lifted, storage& s, CarryOf&& carry_of) {
    run<Exclusive>(in + offset, out + offset, valid_items(n, offset, tile_items), lifted, s,
                   carry_of);
  }

  // The total of the tile at `in` (1 <= valid <= tile_items items), to every thread, as run()
  // gives it to carry_of.
  template <bool Exclusive, class In, class Lifted>
  __device__ static A reduce(const In& in, int valid, Lifted lifted, storage& s) {
    std::uint32_t heads;
    stretch prefix, total;
    bool has_prefix;
    if (valid == tile_items) {
      scan_heads<true>(in, valid, lifted.op, s, heads, prefix, total, has_prefix);
    } else {
      scan_heads<false>(in, valid, lifted.op, s, heads, prefix, total, has_prefix);
    }
    return A{total.value, total.runs};
  }

 private:
  __device__ static int thread_items(int valid) {
    return min(max(valid - static_cast<int>(threadIdx.x) * ITEMS, 0), ITEMS);
  }

  // Where item p of the tile lives in io's storage; the same place for keys and values where
  // their units hold as many items and are laid out alike.
  template <class Io>
  __device__ static int region_index(int p) {
    return p / warp_items * warp_items + Io::position(p % warp_items);
  }
  static constexpr bool same_layout =
      key_io::unit_items == value_io::unit_items && key_io::swizzled == value_io::swizzled;

  // The run table's slot of the tile's r-th run. Where every item is a head, thread t's j-th run
  // is t * ITEMS + j: XORing t's low 5 bits into bits 1-5 (a bank's two entries) spreads the 32
  // lanes' stores of one j over the banks. A bijection within each 64 slots (bits 1-5 only take
  // higher bits).
  static constexpr int items_shift = [] {
    int shift = 0;
    while ((2 << shift) <= ITEMS) ++shift;
    return shift < 2 ? 2 : shift;
  }();
  __device__ static int table_slot(int r) { return r ^ (((r >> items_shift) & 31) << 1); }

  // Steps 1-3 up to the block scan: the thread's head bits, its exclusive (has_prefix) prefix in
  // the tile and the tile's total.
  template <bool Full, class In, class Op>
  __device__ static void scan_heads(const In& in, int valid, const Op& op, storage& s,
                                    std::uint32_t& heads, stretch& prefix, stretch& total,
                                    bool& has_prefix) {
    const int lane = lane_id();
    const int thread_valid = Full ? ITEMS : thread_items(valid);
    const std::int64_t warp_first = in.position + std::int64_t{warp_id()} * warp_items;
    // Lane 0's left neighbour is the last key of the warp before (or of the tile before): read
    // from memory while the copies are in flight.
    K left{};
    key_io::load_to_shared(in.keys + in.position, valid, s.keys, [&] {
      value_io::load_to_shared(in.values + in.position, valid, s.values, [&] {
        if (lane == 0 && warp_first > 0 && thread_valid > 0) left = in.keys[warp_first - 1];
      });
    });
    K* keys = key_io::warp_region(s.keys);
    T* values = value_io::warp_region(s.values);
    if (lane > 0 && thread_valid > 0) left = keys[key_io::position(lane * ITEMS - 1)];
    const bool first_is_head = lane == 0 && warp_first == 0;

    heads = 0u;
    stretch mine{};  // threads without items pass it along; block_scan never combines it
    K key_unit[key_io::unit_items];
    T value_unit[value_io::unit_items];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      constexpr int ku = key_io::unit_items, vu = value_io::unit_items;
      if (Full || k < thread_valid) {
        if (k % ku == 0) key_io::read_unit(keys, lane * key_io::thread_units + k / ku, key_unit);
        if (k % vu == 0) {
          value_io::read_unit(values, lane * value_io::thread_units + k / vu, value_unit);
        }
        const K& key = key_unit[k % ku];
        const bool head = (k == 0 && first_is_head) || !in.eq(left, key);
        left = key;
        const T& x = value_unit[k % vu];
        mine.value = k == 0 || head ? x : static_cast<T>(op(mine.value, x));
        heads |= static_cast<std::uint32_t>(head) << k;
      }
    }
    mine.runs = __popc(heads);
    prefix = block::exclusive(mine, pscan::detail::counted_op<Op>{op}, s.scan, total, has_prefix,
                              ceil_div(valid, ITEMS));
  }

  template <bool Full, class In, class Out, class Op, class CarryOf>
  __device__ static void run_tile(const In& in, const Out& out, int valid, const Op& op,
                                  storage& s, CarryOf&& carry_of) {
    std::uint32_t heads;
    stretch prefix, total;
    bool has_prefix;
    scan_heads<Full>(in, valid, op, s, heads, prefix, total, has_prefix);

    // Step 4, while the carry is on its way: only the tile's first run (the one in progress at
    // its start) needs the tiles before, so every thread rescans from its tile-local prefix and
    // the writes add the carry to that run alone.
    const int thread_valid = Full ? ITEMS : thread_items(valid);
    const int first_item = static_cast<int>(threadIdx.x) * ITEMS;
    const bool ends_input =
        thread_valid > 0 && out.position + first_item + thread_valid == out.n;
    int run = has_prefix ? prefix.runs : 0;  // the tile's number of the thread's next head
    T running = prefix.value;                // the run in progress, from the tile's start on
    const auto rescan = [&] {
      // A thread without heads ends no run: only the input's last item needs its running value.
      if (heads == 0u && !ends_input) return;
      T* values = value_io::warp_region(s.values);
      const int lane = lane_id();
      T unit[value_io::unit_items];
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        constexpr int vu = value_io::unit_items;
        if (Full || k < thread_valid) {
          if (k % vu == 0) {
            value_io::read_unit(values, lane * value_io::thread_units + k / vu, unit);
          }
          const T x = unit[k % vu];
          if ((heads >> k) & 1u) {
            if (k > 0 || has_prefix) unit[k % vu] = running;  // the run that ends here
            s.run_table[table_slot(run++)] = static_cast<std::uint16_t>(first_item + k);
            running = x;
          } else {
            running = k == 0 && !has_prefix ? x : static_cast<T>(op(running, x));
          }
          const bool unit_ends = k % vu == vu - 1 || k + 1 == thread_valid;
          constexpr std::uint32_t unit_mask = vu >= 32 ? ~0u : (1u << vu) - 1u;
          if (unit_ends && ((heads >> (k / vu * vu)) & unit_mask) != 0u) {
            value_io::write_unit(values, lane * value_io::thread_units + k / vu, unit);
          }
        }
      }
    };
    const tile_carry<A> carry = carry_of(A{total.value, total.runs}, rescan);
    const std::int64_t runs_before_tile = carry.has ? carry.value.runs : 0;
    if (ends_input) {
      out.values_out[runs_before_tile + run - 1] =
          run == 0 && carry.has ? static_cast<T>(op(carry.value.value, running)) : running;
      *out.runs_out = runs_before_tile + run;
    }

    // Step 5. The tile's first run ends the run in progress at its start: the tiles' carry, then
    // the items before it in the tile, if any. The input's first run ends none.
    Barrier::sync();
    const auto keys_out = out.keys_out + runs_before_tile;
    const auto values_out = out.values_out + runs_before_tile;
    for (int r = static_cast<int>(threadIdx.x); r < total.runs; r += BLOCK_THREADS) {
      const int p = s.run_table[table_slot(r)];
      const int at = region_index<value_io>(p);
      keys_out[r] = s.keys.items[same_layout ? at : region_index<key_io>(p)];
      T value = s.values.items[at];
      if (r == 0 && carry.has) {
        value = p == 0 ? carry.value.value : static_cast<T>(op(carry.value.value, value));
      }
      if (r > 0 || carry.has) values_out[r - 1] = value;
    }
  }
};

}  // namespace pscan::cuda_common
