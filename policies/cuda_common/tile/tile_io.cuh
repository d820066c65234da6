#pragma once
// Tile level: moving a tile of BLOCK_THREADS * ITEMS items between global memory and a per-thread
// *blocked* register array (thread t holds items t*ITEMS .. t*ITEMS+ITEMS-1 of the tile).
// Global accesses are warp-striped, so each access instruction of a warp touches consecutive
// memory, in 16-byte units where the type allows (LDG/STG.128 for aligned raw pointers, plain
// first[i] for any other iterator); each warp transposes its own part of the tile through shared
// memory (__syncwarp only, no block barrier). A partial tile moves only its first `valid` items.
// The input of a transform_ algorithm over a raw pointer (detail/transformed.hpp) moves as that
// pointer's units do, f applied to each item on the way.

#include <pscan/policies/cuda_common/tile/async_copy.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

#include <pscan/detail/transformed.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace pscan::cuda_common {

// Items of T per 16-byte unit (1 when T does not divide 16: such types move one by one).
template <class T>
inline constexpr int unit_items_v =
    (sizeof(T) < 16 && 16 % sizeof(T) == 0) ? int(16 / sizeof(T)) : 1;
// Whether a unit is exactly 16 bytes, so it can move as one int4.
template <class T>
inline constexpr bool has_16_byte_units_v = sizeof(T) * unit_items_v<T> == 16;
// Items per thread of tiles of about 64 bytes per thread (16 int32/float, 8 int64/double, 4
// 16-byte structs): enough independent 16-byte loads in flight per thread to cover memory
// latency. A multiple of unit_items_v, so that units never straddle threads.
template <class T>
inline constexpr int items_per_64_bytes_v =
    std::max(unit_items_v<T>, std::clamp(static_cast<int>(64 / sizeof(T)), 1, 16) /
                                  unit_items_v<T> * unit_items_v<T>);
// Whether It is a raw pointer to T, so its memory may be accessed as int4 when 16-byte aligned.
template <class It, class T>
inline constexpr bool is_pointer_to_v =
    std::is_pointer_v<It> && std::is_same_v<std::remove_cv_t<std::remove_pointer_t<It>>, T>;

// The memory behind an input iterator of T that tiles move in 16-byte units: a raw pointer to T,
// or a transform_ input over a raw pointer to raw_type of T's size (detail/transformed.hpp),
// whose items become T's through f on the way. Other iterators have none (available = false).
template <class It, class T, class = void>
struct unit_source {
  static constexpr bool available = false;
  static constexpr bool transforms = false;
};
template <class It, class T>
struct unit_source<It, T, std::enable_if_t<is_pointer_to_v<It, T>>> {
  static constexpr bool available = true;
  static constexpr bool transforms = false;
  using raw_type = T;
  __device__ static const T* memory(It first) { return first; }
  __device__ static T item(It, const T& raw) { return raw; }
};
template <class It, class T>
struct unit_source<It, T, std::enable_if_t<pscan::detail::is_transformed_pointer_v<It, T>>> {
  using pointer = pscan::detail::transformed_pointer<It, T>;
  static constexpr bool available = true;
  static constexpr bool transforms = true;
  using raw_type = typename pointer::source_type;
  __device__ static const raw_type* memory(const It& first) { return pointer::memory(first); }
  __device__ static T item(const It& first, const raw_type& raw) {
    return pointer::item(first, raw);
  }
};

namespace detail {

template <class P>
__device__ __forceinline__ bool is_aligned_16(P p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0;
}
template <class T>
__device__ __forceinline__ int4 pack_unit(const T* items) {
  int4 v;
  std::memcpy(&v, items, 16);
  return v;
}
// By value: a reference into global memory would make memcpy read it byte by byte.
template <class T>
__device__ __forceinline__ void unpack_unit(int4 v, T* items) {
  std::memcpy(items, &v, 16);
}

}  // namespace detail

// One warp's segment of up to 32*ITEMS items, warp-striped in units of K = unit_items_v<T>:
// lane l holds units l, l+32, l+64, ... in items[0..K), items[K..2K), ... (unit u = items
// u*K .. u*K+K-1 of the segment). Only items < valid are read; the others are left untouched.
template <int ITEMS, class T, class InIt>
__device__ __forceinline__ void load_warp_striped(InIt first, int valid, T (&items)[ITEMS]) {
  constexpr int K = unit_items_v<T>;
  static_assert(ITEMS % K == 0, "ITEMS must be a multiple of the items in a 16-byte unit");
  const int lane = lane_id();
  using source = unit_source<InIt, T>;
  if constexpr (source::available && has_16_byte_units_v<T>) {
    const auto* memory = source::memory(first);
    if (valid >= warp_threads * ITEMS && detail::is_aligned_16(memory)) {
      const int4* units = reinterpret_cast<const int4*>(memory);
#pragma unroll
      for (int j = 0; j < ITEMS / K; ++j) {
        if constexpr (source::transforms) {
          typename source::raw_type raw[K];
          detail::unpack_unit(units[lane + warp_threads * j], raw);
#pragma unroll
          for (int k = 0; k < K; ++k) items[j * K + k] = source::item(first, raw[k]);
        } else {
          detail::unpack_unit(units[lane + warp_threads * j], items + j * K);
        }
      }
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS / K; ++j) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int i = (lane + warp_threads * j) * K + k;
      if (i < valid) items[j * K + k] = static_cast<T>(first[i]);
    }
  }
}

// The inverse of load_warp_striped: writes items < valid of the warp's segment.
template <int ITEMS, class T, class OutIt>
__device__ __forceinline__ void store_warp_striped(OutIt out, int valid, const T (&items)[ITEMS]) {
  constexpr int K = unit_items_v<T>;
  static_assert(ITEMS % K == 0, "ITEMS must be a multiple of the items in a 16-byte unit");
  const int lane = lane_id();
  if constexpr (is_pointer_to_v<OutIt, T> && has_16_byte_units_v<T>) {
    if (valid >= warp_threads * ITEMS && detail::is_aligned_16(out)) {
      int4* units = reinterpret_cast<int4*>(out);
#pragma unroll
      for (int j = 0; j < ITEMS / K; ++j) {
        units[lane + warp_threads * j] = detail::pack_unit(items + j * K);
      }
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS / K; ++j) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int i = (lane + warp_threads * j) * K + k;
      if (i < valid) out[i] = items[j * K + k];
    }
  }
}

template <class T, int BLOCK_THREADS, int ITEMS>
struct tile_io {
  static_assert(BLOCK_THREADS % warp_threads == 0, "BLOCK_THREADS must be a multiple of 32");
  static constexpr int tile_items = BLOCK_THREADS * ITEMS;
  static constexpr int warp_items = warp_threads * ITEMS;
  static constexpr int unit_items = unit_items_v<T>;
  static constexpr int thread_units = ITEMS / unit_items;

  struct storage {
    uninitialized_array<T, tile_items> items;
  };

  // items[i] = tile_first[t*ITEMS + i] for t*ITEMS + i < valid; other items untouched.
  template <class InIt>
  __device__ static void load(InIt tile_first, int valid, T (&items)[ITEMS], storage& s) {
    const int warp_valid = min(max(valid - warp_id() * warp_items, 0), warp_items);
    if (warp_valid == 0) return;
    const int lane = lane_id();
    const bool full = warp_valid == warp_items;
    T striped[ITEMS];
    load_warp_striped(tile_first + warp_id() * warp_items, warp_valid, striped);
    T* region = s.items.data() + warp_id() * warp_items;
    __syncwarp();  // the warp's previous use of its region is over
#pragma unroll
    for (int j = 0; j < thread_units; ++j) {
      const int unit = lane + warp_threads * j;
      if (full || unit * unit_items < warp_valid) {
        write_unit(region, unit, striped + j * unit_items);
      }
    }
    __syncwarp();
    if (full) {
      read_blocked(region, items);
    } else {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        if (lane * ITEMS + i < warp_valid) items[i] = region[position(lane * ITEMS + i)];
      }
    }
  }

  // tile_out[t*ITEMS + i] = items[i] for t*ITEMS + i < valid.
  template <class OutIt>
  __device__ static void store(OutIt tile_out, int valid, const T (&items)[ITEMS], storage& s) {
    const int warp_valid = min(max(valid - warp_id() * warp_items, 0), warp_items);
    if (warp_valid == 0) return;
    const int lane = lane_id();
    const bool full = warp_valid == warp_items;
    T* region = s.items.data() + warp_id() * warp_items;
    __syncwarp();  // the warp's previous use of its region is over
    if (full) {
#pragma unroll
      for (int j = 0; j < thread_units; ++j) {
        write_unit(region, lane * thread_units + j, items + j * unit_items);
      }
    } else {
#pragma unroll
      for (int i = 0; i < ITEMS; ++i) {
        if (lane * ITEMS + i < warp_valid) region[position(lane * ITEMS + i)] = items[i];
      }
    }
    __syncwarp();
    T striped[ITEMS];
#pragma unroll
    for (int j = 0; j < thread_units; ++j) {
      const int unit = lane + warp_threads * j;
      if (full) {
        read_unit(region, unit, striped + j * unit_items);
      } else {
#pragma unroll
        for (int k = 0; k < unit_items; ++k) {
          const int i = unit * unit_items + k;
          if (i < warp_valid) striped[j * unit_items + k] = region[position(i)];
        }
      }
    }
    store_warp_striped(tile_out + warp_id() * warp_items, warp_valid, striped);
  }

  // Items < valid of the calling warp's segment into its region of `s`, in the layout of
  // load(); the lanes' copies are visible to the whole warp on return. while_loading() runs
  // while the copies are in flight, so that the tile's other loads (head flags, keys) overlap
  // them instead of following them.
  template <class InIt, class WhileLoading>
  __device__ static void load_to_shared(InIt tile_first, int valid, storage& s,
                                        WhileLoading&& while_loading) {
    const int warp_valid = min(max(valid - warp_id() * warp_items, 0), warp_items);
    const InIt first = tile_first + warp_id() * warp_items;
    T* region = warp_region(s);
    const int lane = lane_id();
    __syncwarp();  // the warp's previous use of its region is over
    // The source's bytes copy asynchronously (cp.async) in 16-byte chunks; under a transform,
    // each lane then applies f in place to the units it copied (complete after its own wait).
    using source = unit_source<InIt, T>;
    if constexpr (source::available && (!source::transforms || has_16_byte_units_v<T>)) {
      const auto* memory = source::memory(first);
      if (warp_valid == warp_items && detail::is_aligned_16(memory)) {
        copy_segment_async(memory, region);
        while_loading();
        wait_async_copies();
        if constexpr (source::transforms) {
#pragma unroll
          for (int c = lane; c < warp_items / unit_items; c += warp_threads) {
            T* unit = region + slot(c) * unit_items;
            typename source::raw_type raw[unit_items];
            std::memcpy(raw, unit, sizeof raw);
#pragma unroll
            for (int k = 0; k < unit_items; ++k) unit[k] = source::item(first, raw[k]);
          }
        }
        __syncwarp();
        return;
      }
    }
    while_loading();
#pragma unroll
    for (int j = 0; j < thread_units; ++j) {
#pragma unroll
      for (int k = 0; k < unit_items; ++k) {
        const int i = (lane + warp_threads * j) * unit_items + k;
        if (i < warp_valid) region[position(i)] = static_cast<T>(first[i]);
      }
    }
    __syncwarp();
  }

  template <class InIt>
  __device__ static void load_to_shared(InIt tile_first, int valid, storage& s) {
    load_to_shared(tile_first, valid, s, [] {});
  }

  // Items < valid of the calling warp's segment from its region of `s` to tile_out.
  template <class OutIt>
  __device__ static void store_from_shared(OutIt tile_out, int valid, storage& s) {
    const int warp_valid = min(max(valid - warp_id() * warp_items, 0), warp_items);
    const OutIt out = tile_out + warp_id() * warp_items;
    T* region = warp_region(s);
    const int lane = lane_id();
    __syncwarp();  // every lane's writes to the region are visible
    if constexpr (is_pointer_to_v<OutIt, T> && has_16_byte_units_v<T>) {
      if (warp_valid == warp_items && detail::is_aligned_16(out)) {
        int4* units = reinterpret_cast<int4*>(out);
        const int4* slots = reinterpret_cast<const int4*>(region);
#pragma unroll
        for (int j = 0; j < thread_units; ++j) {
          units[lane + warp_threads * j] = slots[slot(lane + warp_threads * j)];
        }
        return;
      }
    }
#pragma unroll
    for (int j = 0; j < thread_units; ++j) {
#pragma unroll
      for (int k = 0; k < unit_items; ++k) {
        const int i = (lane + warp_threads * j) * unit_items + k;
        if (i < warp_valid) out[i] = region[position(i)];
      }
    }
  }

 private:
  // Thread t's ITEMS of a full warp segment in `region`.
  __device__ static void read_blocked(T* region, T (&items)[ITEMS]) {
#pragma unroll
    for (int j = 0; j < thread_units; ++j) {
      read_unit(region, lane_id() * thread_units + j, items + j * unit_items);
    }
  }

 public:
  // The layout of a warp's region, for code that works on a tile left in shared memory.
  // 16-byte units are XOR-swizzled within each 128-byte row (8 units): unit u goes to slot
  // u ^ (row % 8). Shared memory serves 8 lanes' 16-byte accesses at a time; with a power-of-two
  // thread_units both the striped pass (8 consecutive units) and the blocked pass (8 lanes'
  // units, thread_units apart) then hit 8 different bank groups.
  static constexpr bool swizzled =
      has_16_byte_units_v<T> && (thread_units & (thread_units - 1)) == 0;

  __device__ static int slot(int unit) { return swizzled ? unit ^ ((unit >> 3) & 7) : unit; }

  // Starts copying the warp's whole segment from `source` (16-byte aligned, the segment's bytes)
  // to its region, asynchronously; wait_async_copies() waits for the calling lane's copies. A
  // warp segment is 32 * ITEMS items, a multiple of 32 bytes, so 16-byte chunks never straddle
  // segments.
  __device__ static void copy_segment_async(const void* source, T* region) {
    constexpr int chunks = static_cast<int>(warp_items * sizeof(T) / 16);
    const auto* src = static_cast<const unsigned char*>(source);
    auto* dst = reinterpret_cast<unsigned char*>(region);
#pragma unroll
    for (int c = lane_id(); c < chunks; c += warp_threads) {
      copy_async_16(dst + 16 * (has_16_byte_units_v<T> ? slot(c) : c), src + 16 * c);
    }
    commit_async_copies();
  }
  // Where item i of the warp's segment lives in its region.
  __device__ static int position(int i) {
    return slot(i / unit_items) * unit_items + i % unit_items;
  }

  // The calling warp's region of `s`: its 32 * ITEMS items.
  __device__ static T* warp_region(storage& s) { return s.items.data() + warp_id() * warp_items; }

  __device__ static void write_unit(T* region, int unit, const T* src) {
    if constexpr (has_16_byte_units_v<T>) {
      reinterpret_cast<int4*>(region)[slot(unit)] = detail::pack_unit(src);
    } else {
      region[unit] = src[0];
    }
  }
  __device__ static void read_unit(T* region, int unit, T* dst) {
    if constexpr (has_16_byte_units_v<T>) {
      detail::unpack_unit(reinterpret_cast<const int4*>(region)[slot(unit)], dst);
    } else {
      dst[0] = region[unit];
    }
  }

  // f(item, k) on the calling thread's items k < thread_valid (its k-th item of the tile) in its
  // warp's region, in order, reading (WriteBack: and rewriting) them a 16-byte unit at a time.
  template <bool WriteBack, class F>
  __device__ static void for_thread_items(T* region, int thread_valid, F&& f) {
    if (thread_valid <= 0) return;
    const int first_unit = lane_id() * thread_units;
#pragma unroll
    for (int j = 0; j < thread_units; ++j) {
      T unit[unit_items];
      read_unit(region, first_unit + j, unit);
#pragma unroll
      for (int k = 0; k < unit_items; ++k) {
        if (j * unit_items + k < thread_valid) f(unit[k], j * unit_items + k);
      }
      if constexpr (WriteBack) write_unit(region, first_unit + j, unit);
    }
  }
};

}  // namespace pscan::cuda_common
