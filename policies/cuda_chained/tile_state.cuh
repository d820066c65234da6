#pragma once
// The tile state of a chained scan: one entry per tile (or per look-back tree node), published by
// one block and polled by later ones through L2. Each entry carries a tag (the call's epoch and
// whether the value is an aggregate or an inclusive prefix), so a buffer reused across calls needs
// no clearing: an entry tagged with another epoch reads as "not yet published".
//
// Values of at most 4 bytes share one 64-bit word with their tag (one relaxed atomic store/load,
// no ordering needed: the value travels with its tag). Larger values live in separate slots,
// written before a release store of the tag and read after the tag was seen (relaxed polls,
// then one acquire fence); aggregates and prefixes get separate slots so a prefix never
// overwrites an aggregate a reader is fetching.
// Tags are epoch << 1 | is_prefix: epochs are 31-bit (cuda::max_tile_state_epoch) and never 0,
// which is what a cleared buffer holds.

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace pscan::chained {

// Counters at the head of a tile-state buffer; each returns to 0 by the end of every kernel.
struct tile_counters {
  unsigned int ticket;  // next tile id to hand out
  unsigned int done;    // blocks that finished (reduce's last-block election)
};
inline constexpr std::size_t tile_counters_bytes = 256;  // keeps the entries 256-byte aligned

enum class tile_status : std::uint32_t { empty, aggregate, prefix };

template <class T>
class tile_state {
  static_assert(std::is_trivially_copyable_v<T>,
                "pscan::cuda_chained: values must be trivially copyable");

 public:
  static constexpr bool packed = sizeof(T) <= 4;
  // ::cuda, libcu++: pscan::cuda is the shared CUDA layer.
  template <class U>
  using device_atomic = ::cuda::atomic_ref<U, ::cuda::thread_scope_device>;
  // Split slots are copied in words of this type, each with a relaxed (L2-coherent) access.
  using word = std::conditional_t<sizeof(T) % 8 == 0, std::uint64_t, std::uint32_t>;
  static constexpr int words_per_value = int((sizeof(T) + sizeof(word) - 1) / sizeof(word));

  // What one poll of an entry saw: the tag, plus the value when it is packed with it.
  struct probe {
    std::conditional_t<packed, std::uint64_t, std::uint32_t> bits;
    __device__ tile_status status(std::uint32_t epoch) const {
      const auto tag = static_cast<std::uint32_t>(packed ? std::uint64_t{bits} >> 32 : bits);
      if ((tag >> 1) != epoch) return tile_status::empty;
      return (tag & 1u) ? tile_status::prefix : tile_status::aggregate;
    }
  };

  __host__ __device__ static constexpr std::size_t round_up(std::size_t bytes) {
    return (bytes + 255) / 256 * 256;
  }

  // Where tags are must not depend on the call: a stale value left by an earlier call where a
  // later call reads a tag could pass for a valid tag. So a buffer serves one `layout` (the
  // cache keeps a buffer per layout and stream), and split layouts place their arrays by the
  // buffer's capacity, fixed for the buffer's life, not by the call's entry count.
  static constexpr int layout = packed ? 1 : 2 + (sizeof(word) == 8) + 2 * words_per_value;
  static constexpr std::size_t entry_stride =
      packed ? sizeof(std::uint64_t) : sizeof(std::uint32_t) + 2 * sizeof(word) * words_per_value;
  static constexpr std::size_t layout_slack = 3 * 256;  // rounding of the three split arrays

  // Bytes a buffer needs for `entries` entries (after the counters).
  static constexpr std::size_t buffer_bytes(std::uint64_t entries) {
    return tile_counters_bytes + layout_slack + entries * entry_stride;
  }

  tile_state() = default;
  // `buffer` (256-byte aligned) holds `bytes` >= buffer_bytes(entries used) bytes.
  __host__ __device__ tile_state(void* buffer, std::size_t bytes, std::uint32_t epoch)
      : counters_(static_cast<tile_counters*>(buffer)), epoch_(epoch) {
    auto* base = static_cast<unsigned char*>(buffer) + tile_counters_bytes;
    tags_ = base;
    if constexpr (!packed) {
      const std::size_t capacity = (bytes - tile_counters_bytes - layout_slack) / entry_stride;
      const std::size_t tag_bytes = round_up(capacity * sizeof(std::uint32_t));
      const std::size_t slot_bytes = round_up(capacity * sizeof(word) * words_per_value);
      aggregates_ = reinterpret_cast<word*>(base + tag_bytes);
      prefixes_ = reinterpret_cast<word*>(base + tag_bytes + slot_bytes);
    }
  }

  __device__ std::uint32_t epoch() const { return epoch_; }
  __device__ tile_counters* counters() const { return counters_; }

  // A tile id, in the order blocks ask (not blockIdx order); the last of `tiles` draws resets
  // the counter to 0 for the next call on this buffer.
  __device__ std::uint32_t draw_ticket(std::uint32_t tiles) const {
    return atomicInc(&counters_->ticket, tiles - 1);
  }

  __device__ void publish(std::uint64_t entry, const T& value, tile_status status) const {
    const std::uint32_t tag = epoch_ << 1 | (status == tile_status::prefix ? 1u : 0u);
    if constexpr (packed) {
      std::uint32_t value_bits = 0;
      std::memcpy(&value_bits, &value, sizeof(T));
      device_atomic<std::uint64_t>(words64()[entry])
          .store(std::uint64_t{tag} << 32 | value_bits, ::cuda::memory_order_relaxed);
    } else {
      word words[words_per_value] = {};
      std::memcpy(words, &value, sizeof(T));
      word* slot = slot_of(entry, status);
      for (int w = 0; w < words_per_value; ++w) {
        device_atomic<word>(slot[w]).store(words[w], ::cuda::memory_order_relaxed);
      }
      device_atomic<std::uint32_t>(tags32()[entry]).store(tag, ::cuda::memory_order_release);
    }
  }

  // Polls are relaxed (cheap while spinning); acquire() then orders value() reads after them.
  __device__ probe poll(std::uint64_t entry) const {
    if constexpr (packed) {
      return {device_atomic<std::uint64_t>(words64()[entry]).load(::cuda::memory_order_relaxed)};
    } else {
      return {device_atomic<std::uint32_t>(tags32()[entry]).load(::cuda::memory_order_relaxed)};
    }
  }

  // Call after polls whose values this thread will read: with the relaxed polls that saw the
  // tags it forms an acquire pattern, pairing with publish()'s release.
  __device__ void acquire() const {
    if constexpr (!packed) {
      ::cuda::atomic_thread_fence(::cuda::memory_order_acquire, ::cuda::thread_scope_device);
    }
  }

  // The value behind a probe whose status is aggregate or prefix (after acquire()).
  __device__ T value(std::uint64_t entry, const probe& seen) const {
    T value;
    if constexpr (packed) {
      const auto value_bits = static_cast<std::uint32_t>(seen.bits);
      std::memcpy(&value, &value_bits, sizeof(T));
    } else {
      word words[words_per_value];
      word* slot = slot_of(entry, seen.status(epoch_));
      for (int w = 0; w < words_per_value; ++w) {
        words[w] = device_atomic<word>(slot[w]).load(::cuda::memory_order_relaxed);
      }
      std::memcpy(&value, words, sizeof(T));
    }
    return value;
  }

 private:
  __device__ std::uint64_t* words64() const { return static_cast<std::uint64_t*>(tags_); }
  __device__ std::uint32_t* tags32() const { return static_cast<std::uint32_t*>(tags_); }
  __device__ word* slot_of(std::uint64_t entry, tile_status status) const {
    return (status == tile_status::prefix ? prefixes_ : aggregates_) + entry * words_per_value;
  }

  tile_counters* counters_ = nullptr;
  void* tags_ = nullptr;
  word* aggregates_ = nullptr;
  word* prefixes_ = nullptr;
  std::uint32_t epoch_ = 0;
};

}  // namespace pscan::chained
