#pragma once
// Tile level of the exact_plus scans (algorithms/exact_scan.cuh), one block a tile of
// pscan::detail::exact_block_items values: a tile's exact sum as a row of the table's chunk
// columns (tile_sums), a column's exclusive prefix sums (column_scan), and the pieces of a tile's
// outputs from its exact prefix (kernels/exact_scan_kernels.cuh's tile_outputs_kernel, which
// launches them all).

#include <pscan/policies/cuda_common/block/block_exact_sum.cuh>
#include <pscan/policies/cuda_common/block/block_scan.cuh>
#include <pscan/policies/cuda_common/tile/tile_heads.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>

#include <pscan/detail/exact.hpp>
#include <pscan/detail/segmented_generic.hpp>

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

// Position i of the values [offsets[0], offsets[count-1]) as an inclusive scan's output, which
// the scan writes only where i ends a segment (exact_outputs::segment_ends): that segment's sum,
// to out[s]. segmented_reduce's exact sums (algorithms/segmented_reduce.cuh).
template <class OffIt, class OutIt>
struct segment_sums_output {
  struct slot {
    pscan::detail::offset_heads<OffIt> heads;
    OutIt out;
    std::int64_t i;
    template <class T>
    __device__ const slot& operator=(const T& sum) const {
      // The first offset at base + i + 1 closes the segment i is in (later ones close empty
      // segments).
      out[heads.first_at_or_after(i + 1) - 1] = sum;
      return *this;
    }
  };
  pscan::detail::offset_heads<OffIt> heads;
  OutIt out;
  __device__ slot operator()(std::int64_t i) const { return {heads, out, i}; }
};

}  // namespace exact_scan_impl

}  // namespace pscan::cuda_common
