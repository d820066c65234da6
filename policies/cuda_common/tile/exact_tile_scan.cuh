#pragma once
// Tile level of the exact_plus scans (algorithms/exact_scan.cuh), one block a tile of
// pscan::detail::exact_block_items values: a tile's exact sum as a row of the table's chunk
// columns (tile_sums), a column's exclusive prefix sums (column_scan), and a tile's outputs
// from its exact prefix (tile_outputs). kernels/exact_scan_kernels.cuh launches them.

#include <pscan/policies/cuda_common/block/block_exact_sum.cuh>
#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_heads.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>

#include <pscan/detail/exact.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::cuda_common {

namespace exact_scan_impl {

using pscan::detail::exact_extent;
using pscan::detail::exact_prefix_window;
using pscan::detail::exact_sum;
using pscan::detail::exact_term;
using pscan::detail::exact_window;

inline constexpr int threads = exact_scan_tuning::threads;
inline constexpr int items = exact_scan_tuning::items;
inline constexpr int tile_items = exact_scan_tuning::tile_items;

// The table's columns: the chunks, then the special counts; the segmented scans add one more,
// not scanned: whether the tile holds a segment's start (its row then sums from its last one).
template <class T>
inline constexpr int columns = exact_window<T>::chunk_count + 4;

// The head source of the plain scans: no segments. The segmented scans take those of
// pscan/detail/segmented_generic.hpp.
struct no_heads {};
template <class Heads>
inline constexpr bool segmented_v = !std::is_same_v<Heads, no_heads>;

// The outputs a scan writes: every value's, or only each segment's last (segmented_reduce's,
// which then rounds one value a segment).
enum class exact_outputs { every, segment_ends };

// The items of this thread that are valid: the tile's from threadIdx.x * items, count of them.
__device__ __forceinline__ int own_count(int count) {
  return max(0, min(items, count - static_cast<int>(threadIdx.x) * items));
}

// Bit k: whether tile item threadIdx.x * items + k starts a segment. Every thread calls it.
template <class Heads>
__device__ __forceinline__ std::uint32_t own_heads(const Heads& heads, std::int64_t tile_start,
                                                   int count) {
  if constexpr (segmented_v<Heads>) {
    return thread_heads<items, threads>(heads, tile_start + std::int64_t{threadIdx.x} * items,
                                        own_count(count));
  } else {
    return 0u;
  }
}

// Tile `tile`'s exact sum (from its last segment start, for a segmented scan) as its row of the
// table: the chunks, the special counts, and whether it holds a start.
template <class T, class InIt, class Heads>
__device__ __forceinline__ void tile_sums(InIt first, std::int64_t n, std::int64_t tiles,
                                          const Heads& heads, std::int64_t* table,
                                          std::int64_t tile) {
  using block_sum = block_exact_sum<T, threads>;
  const std::int64_t start = tile * tile_items;
  const int count = n - start < tile_items ? static_cast<int>(n - start) : tile_items;
  __shared__ typename block_sum::storage storage;
  __shared__ int last_head;  // the tile's last segment start, -1 for none
  if (threadIdx.x == 0) last_head = -1;
  block_sum::start(storage);  // its barrier publishes last_head too
  const std::uint32_t bits = own_heads(heads, start, count);
  if (bits != 0) atomicMax(&last_head, static_cast<int>(threadIdx.x) * items + 31 - __clz(bits));
  if constexpr (segmented_v<Heads>) __syncthreads();
  const int from = last_head < 0 ? 0 : last_head;
  auto spill = block_sum::spill_of(storage);
  auto window = exact_window<T>::empty();
  T v[items];
#pragma unroll
  for (int j = 0; j < items; ++j) {
    const int i = j * threads + threadIdx.x;
    v[j] = i < count && i >= from ? static_cast<T>(first[start + i]) : T(-0.0);  // -0: identity
  }
#pragma unroll
  for (int j = 0; j < items; ++j) window.add(v[j], spill);
  block_sum::finish(window, storage);
  if (threadIdx.x < block_sum::chunks) table[threadIdx.x * tiles + tile] = storage.chunk[threadIdx.x];
  if (threadIdx.x < 4) {
    table[(block_sum::chunks + threadIdx.x) * tiles + tile] =
        static_cast<std::int64_t>(storage.specials[threadIdx.x]);
  }
  if (segmented_v<Heads> && threadIdx.x == 0) table[columns<T> * tiles + tile] = last_head >= 0;
}

// Part of a column: its entries' sum from its last reset (a tile holding a segment start), and
// whether it has one. Combining is the segmented sum's operator.
struct column_part {
  std::int64_t sum;
  int reset;
};
struct column_op {
  __device__ column_part operator()(const column_part& a, const column_part& b) const {
    return {b.reset ? b.sum : a.sum + b.sum, a.reset | b.reset};
  }
};

// Column `column`'s exclusive prefix sums, in place, `run` consecutive entries a thread a step;
// with `resets` (the segmented scans' last column), each from the last tile before it that holds
// a segment start.
__device__ __forceinline__ void column_scan(std::int64_t* column, std::int64_t tiles,
                                            const std::int64_t* resets) {
  constexpr int run = exact_scan_tuning::column_items;
  using scan = block_scan<column_part, threads>;
  __shared__ typename scan::storage storage;
  const column_op op;
  column_part carry{0, 0};
  for (std::int64_t start = 0; start < tiles; start += std::int64_t{threads} * run) {
    const std::int64_t mine = start + std::int64_t{threadIdx.x} * run;
    column_part part[run], own{0, 0};
#pragma unroll
    for (int j = 0; j < run; ++j) {
      const bool valid = mine + j < tiles;
      part[j] = {valid ? column[mine + j] : 0, valid && resets != nullptr && resets[mine + j]};
      own = op(own, part[j]);
    }
    column_part step_total;
    bool has_prefix;
    const column_part within = scan::exclusive(own, op, storage, step_total, has_prefix);
    column_part before = has_prefix ? op(carry, within) : carry;
#pragma unroll
    for (int j = 0; j < run; ++j) {
      if (mine + j < tiles) column[mine + j] = before.sum;
      before = op(before, part[j]);
    }
    carry = op(carry, step_total);
    __syncthreads();  // the scan's storage is reused by the next step
  }
}

// Shared-memory position of a tile's value i: one pad a 16 values, so that thread t's 16
// consecutive values (at 17 t) fall in different banks from its neighbours'.
__device__ __forceinline__ int padded(int i) { return i + i / items; }

// Part of a tile in exact_prefix_window's units: the scaled sum of its values from its last
// segment start, their terms that are not -0, and whether it holds a start. Combining is the
// segmented sum's operator.
struct window_part {
  __int128 l;
  std::int64_t not_negative_zero;
  int head;
};
struct window_op {
  __device__ window_part operator()(const window_part& a, const window_part& b) const {
    if (b.head) return b;
    return {a.l + b.l, a.not_negative_zero + b.not_negative_zero, a.head};
  }
};

// Tile `tile`'s outputs from its row of the scanned table and init (a value of T, or a deferred
// one, a future_value, read here): through exact_prefix_window where the tile's values and its
// prefix fit one, else one thread walking the tile with an exact sum.
template <class T, exact_outputs Outputs, class InIt, class Init, class Heads, class OutIt>
__device__ __forceinline__ void tile_outputs(InIt first, std::int64_t n, std::int64_t tiles,
                                             const std::int64_t* table, const Init& init,
                                             bool inclusive, const Heads& heads, OutIt out,
                                             std::int64_t tile) {
  constexpr bool ends_only = Outputs == exact_outputs::segment_ends;
  static_assert(!ends_only || segmented_v<Heads>, "segment ends need segments");
  constexpr int chunks = exact_window<T>::chunk_count;
  using term = exact_term<T>;
  using scan = block_scan<window_part, threads>;
  __shared__ T values[tile_items + tile_items / items];
  __shared__ std::int64_t row[columns<T>];
  __shared__ exact_sum<T> prefix;  // before the tile's first value: init and the carried sum
  __shared__ exact_sum<T> start;   // before a segment that starts in the tile: init
  __shared__ int lowest, highest, special;  // the tile's exact_extent
  __shared__ bool in_window;
  __shared__ std::uint32_t head_bits[threads];
  __shared__ bool last_ends;  // whether the tile's last value ends a segment
  __shared__ typename scan::storage storage;

  const std::int64_t tile_start = tile * tile_items;
  const int count = n - tile_start < tile_items ? static_cast<int>(n - tile_start) : tile_items;
  for (int i = threadIdx.x; i < tile_items; i += threads) {
    values[padded(i)] = i < count ? static_cast<T>(first[tile_start + i]) : T(-0.0);
  }
  if (threadIdx.x < columns<T>) row[threadIdx.x] = table[threadIdx.x * tiles + tile];
  if (threadIdx.x == 0) {
    const exact_extent<T> none;
    lowest = none.lowest;
    highest = none.highest;
    special = 0;
    start = exact_sum<T>::of(static_cast<const T&>(init));
    if constexpr (ends_only) last_ends = tile_start + count == n || heads(tile_start + count);
  }
  const std::uint32_t bits = own_heads(heads, tile_start, count);
  head_bits[threadIdx.x] = bits;
  __syncthreads();
  // Whether tile value i (< count) is written: always, or where value i + 1 starts a segment.
  const auto written = [&](int i) {
    if constexpr (ends_only) {
      return i + 1 == count ? last_ends : ((head_bits[(i + 1) / items] >> ((i + 1) % items)) & 1u);
    } else {
      return true;
    }
  };

  exact_extent<T> own_extent;
  for (int j = 0; j < items; ++j) own_extent.take(term::of(values[padded(threadIdx.x * items + j)]));
  if (own_extent.highest >= own_extent.lowest) {
    atomicMin(&lowest, own_extent.lowest);
    atomicMax(&highest, own_extent.highest);
  }
  if (own_extent.special) atomicOr(&special, 1);
  if (threadIdx.x == 0) {
    const pscan::detail::exact_specials specials{row[chunks], row[chunks + 1], row[chunks + 2],
                                                 row[chunks + 3]};
    prefix = start + exact_sum<T>::of_chunks(row, specials);
  }
  __syncthreads();
  exact_extent<T> extent;
  extent.lowest = lowest;
  extent.highest = highest;
  extent.special = special != 0;
  if (threadIdx.x == 0) {
    // A segment that starts in the tile starts from init alone.
    in_window = exact_prefix_window<T>::applies(prefix, extent) &&
                (!segmented_v<Heads> || exact_prefix_window<T>::applies(start, extent));
  }
  __syncthreads();

  if (in_window) {
    // Both windows share the tile's base, so a running sum l is in the units of either.
    const exact_prefix_window<T> carried(prefix, extent), started(start, extent);
    window_part own{0, 0, 0};
    for (int j = 0; j < items; ++j) {
      const term t = term::of(values[padded(threadIdx.x * items + j)]);
      if ((bits >> j) & 1u) own = {0, 0, 1};
      own.l += carried.scaled(t);
      own.not_negative_zero += t.specials.not_negative_zero;
    }
    window_part total;
    bool has_prefix;
    const window_part within = scan::exclusive(own, window_op{}, storage, total, has_prefix);
    // The running sum from the start of this thread's segment, and whether that is in the tile.
    bool from_init = segmented_v<Heads> && has_prefix && within.head;
    __int128 l = has_prefix ? within.l : 0;
    std::int64_t zeros = (has_prefix ? within.not_negative_zero : 0) +
                         (from_init ? start : prefix).specials.not_negative_zero;
    for (int j = 0; j < items; ++j) {
      T& slot = values[padded(threadIdx.x * items + j)];
      const term t = term::of(slot);
      if (segmented_v<Heads> && ((bits >> j) & 1u)) {
        from_init = true;
        l = 0;
        zeros = start.specials.not_negative_zero;
      }
      if (inclusive) {
        l += carried.scaled(t);
        zeros += t.specials.not_negative_zero;
      }
      const bool rounds = written(static_cast<int>(threadIdx.x) * items + j);
      const T r = rounds ? (from_init ? started : carried).rounded(l, zeros) : T{};
      if (!inclusive) {
        l += carried.scaled(t);
        zeros += t.specials.not_negative_zero;
      }
      if (rounds) slot = r;
    }
  } else if (threadIdx.x == 0) {
    exact_sum<T> sum = prefix;
    for (int i = 0; i < count; ++i) {
      if ((head_bits[i / items] >> (i % items)) & 1u) sum = start;
      const T x = values[padded(i)];
      if (inclusive) sum.add(x);
      if (written(i)) values[padded(i)] = sum.rounded();
      if (!inclusive) sum.add(x);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < count; i += threads) {
    if (written(i)) out[tile_start + i] = values[padded(i)];
  }
}

}  // namespace exact_scan_impl

}  // namespace pscan::cuda_common
