#pragma once
// A window of a long input in shared memory, CAPACITY items in a ring: item p of the input sits
// at slot (p + skew) % CAPACITY, where skew puts items that start a 16-byte unit of global memory
// at 16-byte aligned slots. A warp (or block) fetches the next items while it still works on the
// ones it holds; from a raw pointer everything goes by cp.async (held by no register, waited for
// by the next wait_async_copies), so loads stay in flight through the work between fetches.

#include <pscan/policies/cuda_common/tile/async_copy.cuh>
#include <pscan/policies/cuda_common/tile/tile_io.cuh>
#include <pscan/policies/cuda_common/utility.cuh>

#include <cstdint>

namespace pscan::cuda_common {

template <class T, int CAPACITY>
struct shared_ring {
  static_assert(CAPACITY % unit_items_v<T> == 0, "units never wrap around the ring");
  static constexpr int units = unit_items_v<T>;

  T* items;  // CAPACITY items, 16-byte aligned
  int skew;  // items of the input before its first 16-byte boundary, mod units

  // The ring for input `source`: async copies need the input aligned to its item size.
  template <class It>
  __device__ static shared_ring over(It source, T* storage) {
    int skew = 0;
    if constexpr (is_pointer_to_v<It, T> && has_16_byte_units_v<T>) {
      const auto address = reinterpret_cast<std::uintptr_t>(source);
      if (address % sizeof(T) == 0) skew = static_cast<int>((address & 15) / sizeof(T));
    }
    return {storage, skew};
  }

  // The slot of input item p.
  __device__ int slot(std::int64_t p) const {
    return static_cast<int>((p + skew) % CAPACITY);
  }

  // The first input position at or past p that starts a 16-byte unit: fetches that end there
  // leave whole units to the next.
  __device__ std::int64_t unit_boundary(std::int64_t p) const {
    return (p + skew + units - 1) / units * units - skew;
  }

  // The slot `count` (at most CAPACITY) after `slot`.
  __device__ static int advance(int slot, int count) {
    const int s = slot + count;
    return s < CAPACITY ? s : s - CAPACITY;
  }

  // Extends the fetched items source[.. end) (end at slot end_slot) to source[.. to), as fetch.
  template <int THREADS, class It>
  __device__ void extend(It source, std::int64_t& end, int& end_slot, std::int64_t to,
                         int t) const {
    if (to <= end) return;
    fetch<THREADS>(source, end, to, end_slot, t);
    end_slot = advance(end_slot, static_cast<int>(to - end));
    end = to;
  }

  // Starts copying source[lo .. hi) (at most CAPACITY items, none of them in use; lo at slot
  // lo_slot) to their slots: whole units asynchronously (commit_async_copies, then
  // wait_async_copies before a barrier), the rest through registers. Threads 0 .. THREADS-1 of
  // the group that owns the ring call it, thread t as rank t.
  template <int THREADS, class It>
  __device__ void fetch(It source, std::int64_t lo, std::int64_t hi, int lo_slot, int t) const {
    if (lo >= hi) return;
    const int count = static_cast<int>(hi - lo);
    int head = count, units_end = count;  // whole units: items [head, units_end) of the range
    bool async_items = false;             // the other items by cp.async too
    if constexpr (is_pointer_to_v<It, T> && has_16_byte_units_v<T>) {
      if (reinterpret_cast<std::uintptr_t>(source) % sizeof(T) == 0) {
        async_items = sizeof(T) >= 4;
        head = min(count, (units - lo_slot % units) % units);
        units_end = max(head, head + (count - head) / units * units);
        const int first_slot = advance(lo_slot, head);
        const T* first = source + lo + head;
        for (int u = t; u < (units_end - head) / units; u += THREADS) {
          copy_async_16(items + advance(first_slot, u * units), first + u * units);
        }
      }
    }
    // The items before the first whole unit and after the last (all of them without units).
    const int tail = count - units_end;
    for (int i = t; i < head + tail; i += THREADS) {
      const int k = i < head ? i : units_end + (i - head);
      T* slot = items + advance(lo_slot, k);
      if constexpr (is_pointer_to_v<It, T> && sizeof(T) >= 4 && 16 % sizeof(T) == 0) {
        if (async_items) {
          copy_async<static_cast<int>(sizeof(T))>(slot, source + lo + k);
          continue;
        }
      }
      *slot = static_cast<T>(source[lo + k]);
    }
  }
};

}  // namespace pscan::cuda_common
