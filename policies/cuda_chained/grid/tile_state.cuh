#pragma once
// The tile state of a chained scan: one entry per tile (or per look-back tree node), published by
// one block and polled by later ones through L2. Each entry carries a tag (the call's epoch and
// whether the value is an aggregate or an inclusive prefix), so a buffer reused across calls needs
// no clearing: an entry tagged with another epoch reads as "not yet published".
//
// An entry is one 64-bit word per 4-byte chunk of the value: (tag << 32 | chunk), each stored and
// loaded with one relaxed atomic, at the start of its own 128-byte line. A reader takes the value
// only when every chunk carries the same tag; an (epoch, status) pair is written once per entry,
// so equal tags mean the chunks come from one publication (a prefix overwriting an aggregate shows
// mixed tags: not yet). Values thus travel with their tags: one L2 round trip per poll, no fences,
// for any size.
// Tags are epoch << 1 | is_prefix: epochs are 31-bit (runtime::max_scratch_epoch) and never
// 0, which is what a cleared buffer holds.

#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace pscan::cuda_chained_backend {

// Counters at the head of a tile-state buffer; each returns to 0 by the end of every kernel.
struct tile_counters {
  unsigned int ticket;  // next tile id to hand out
  unsigned int done;    // blocks that finished (reduce's last-block election)
};
inline constexpr std::size_t tile_counters_bytes = cuda_common::scratch_head_bytes;

enum class tile_status : std::uint32_t { empty, aggregate, prefix };

template <class T>
class tile_state {
  static_assert(std::is_trivially_copyable_v<T>,
                "pscan::cuda_chained: values must be trivially copyable");

 public:
  // ::cuda, libcu++: pscan::cuda_common is the shared CUDA layer.
  using device_atomic = ::cuda::atomic_ref<std::uint64_t, ::cuda::thread_scope_device>;
  static constexpr int chunks = static_cast<int>((sizeof(T) + 3) / 4);

  // What one poll of an entry saw.
  struct probe {
    std::uint64_t words[chunks];

    __device__ tile_status status(std::uint32_t epoch) const {
      const auto tag = static_cast<std::uint32_t>(words[0] >> 32);
      bool whole = (tag >> 1) == epoch;
#pragma unroll
      for (int c = 1; c < chunks; ++c) {
        whole = whole && static_cast<std::uint32_t>(words[c] >> 32) == tag;
      }
      if (!whole) return tile_status::empty;
      return (tag & 1u) ? tile_status::prefix : tile_status::aggregate;
    }
    // The value, when status() is aggregate or prefix.
    __device__ T value() const {
      std::uint32_t bits[chunks];
#pragma unroll
      for (int c = 0; c < chunks; ++c) bits[c] = static_cast<std::uint32_t>(words[c]);
      T v;
      std::memcpy(&v, bits, sizeof(T));
      return v;
    }
  };

  // Entries of different sizes must not share a buffer (a stale chunk could sit where another
  // layout's tag goes): the cache keeps a buffer per layout and stream.
  static constexpr int layout = chunks;
  // Every entry gets its own 128-byte line(s). All look-backs poll the entries just behind the
  // prefix frontier: packed together, the polls of hundreds of warps queue at the same few L2
  // slices (docs/algorithms.md, "Tile state: one 128-byte line per entry").
  static constexpr std::size_t entry_stride = (chunks * sizeof(std::uint64_t) + 127) / 128 * 128;
  static constexpr std::size_t entry_words = entry_stride / sizeof(std::uint64_t);

  // Bytes a buffer needs for `entries` entries (after the counters).
  static constexpr std::size_t buffer_bytes(std::uint64_t entries) {
    return tile_counters_bytes + entries * entry_stride;
  }

  tile_state() = default;
  // `buffer` (256-byte aligned) holds at least buffer_bytes(entries used) bytes.
  __host__ __device__ tile_state(void* buffer, std::uint32_t epoch)
      : counters_(static_cast<tile_counters*>(buffer)),
        words_(reinterpret_cast<std::uint64_t*>(static_cast<unsigned char*>(buffer) +
                                                tile_counters_bytes)),
        epoch_(epoch) {}

  __device__ std::uint32_t epoch() const { return epoch_; }

  // A tile id, in the order blocks ask (not blockIdx order); the last of `tiles` draws resets
  // the counter to 0 for the next call on this buffer.
  __device__ std::uint32_t draw_ticket(std::uint32_t tiles) const {
    return atomicInc(&counters_->ticket, tiles - 1);
  }

  __device__ void publish(std::uint64_t entry, const T& value, tile_status status) const {
    const std::uint32_t tag = epoch_ << 1 | (status == tile_status::prefix ? 1u : 0u);
    std::uint32_t bits[chunks] = {};
    std::memcpy(bits, &value, sizeof(T));
#pragma unroll
    for (int c = 0; c < chunks; ++c) {
      device_atomic(words_[entry * entry_words + c])
          .store(tagged_word(tag, bits[c]), ::cuda::memory_order_relaxed);
    }
  }

  // (tag << 32 | chunk), joined by a PTX move the compiler cannot look through. A chunk may hold
  // a value's padding, whose bits C++ leaves indeterminate: joined with integer arithmetic, the
  // compiler may let them reach the tag's bits (seen with 16-byte (value, head) pairs: a flipped
  // tag bit, an entry that never reads as published, a look-back that waits forever).
  __device__ static std::uint64_t tagged_word(std::uint32_t tag, std::uint32_t chunk) {
    std::uint64_t word;
    asm("mov.b64 %0, {%1, %2};" : "=l"(word) : "r"(chunk), "r"(tag));
    return word;
  }

  __device__ probe poll(std::uint64_t entry) const {
    probe seen;
#pragma unroll
    for (int c = 0; c < chunks; ++c) {
      seen.words[c] =
          device_atomic(words_[entry * entry_words + c]).load(::cuda::memory_order_relaxed);
    }
    return seen;
  }

 private:
  tile_counters* counters_ = nullptr;
  std::uint64_t* words_ = nullptr;
  std::uint32_t epoch_ = 0;
};

}  // namespace pscan::cuda_chained_backend
