#pragma once
// libpscan's cache of scratch buffers per (device, stream, layout), the CUDA policies' call
// scratch, made for the single-pass scans' tile state: the scan kernels need it zeroed or tagged,
// and clearing it on every call would cost a memset (a second launch). Instead each call gets a
// new epoch; entries tagged with another epoch read as unpublished, so a buffer is cleared only
// when it is allocated or the epoch wraps.
// Calls on one stream are ordered, so they may share a buffer, one call at a time (several host
// threads enqueueing on one stream hold one buffer each); different streams never do.
// A buffer also serves one `layout` (the caller's number for how entries are laid out): a tag
// location must never hold a value another layout left there.
// Not for a stream being captured into a graph: every replay would reuse the captured epoch.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace pscan::runtime {

// Epochs go from 1 to max_scratch_epoch (31 bits, so a tag (epoch, flag) fits in 32 bits).
inline constexpr std::uint32_t max_scratch_epoch = 0x7fffffffu;

struct stream_buffers;  // lib/scratch_cache.cu

// One call's buffer of its stream's, held by the call alone from the lease until this object is
// destroyed, which must come after the call's last launch is enqueued: a call on the same stream
// from another host thread meanwhile gets a buffer of its own, so calls that interleave their
// launches on one stream never share scratch. Given back, it serves the stream's next call,
// whose work the stream orders after this one's. `data()` (256-byte aligned, `bytes()` >= the
// request) holds no entry tagged with `epoch()`, and its leading counters are 0 in stream order
// (kernels return the counters they use to 0). If release_device_pool drops the stream's buffers
// meanwhile, this one's memory is freed on its stream, after the work queued there, once the
// lease ends.
class scratch_lease {
 public:
  scratch_lease() = default;
  scratch_lease(scratch_lease&& other) noexcept { swap(other); }
  scratch_lease& operator=(scratch_lease&& other) noexcept {
    scratch_lease(std::move(other)).swap(*this);
    return *this;
  }
  scratch_lease(const scratch_lease&) = delete;
  scratch_lease& operator=(const scratch_lease&) = delete;
  ~scratch_lease() { give_back(); }

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  std::uint32_t epoch() const { return epoch_; }

 private:
  friend scratch_lease lease_scratch(cudaStream_t stream, std::size_t bytes, int layout);
  scratch_lease(std::shared_ptr<stream_buffers> home, std::shared_ptr<void> block, void* data,
                   std::size_t bytes, std::uint32_t epoch)
      : home_(std::move(home)), block_(std::move(block)), data_(data), bytes_(bytes),
        epoch_(epoch) {}
  void swap(scratch_lease& other) noexcept {
    std::swap(home_, other.home_);
    std::swap(block_, other.block_);
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    std::swap(epoch_, other.epoch_);
  }
  void give_back() noexcept;  // to home_'s idle buffers; nothing when empty

  std::shared_ptr<stream_buffers> home_;
  std::shared_ptr<void> block_;  // the buffer's memory
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::uint32_t epoch_ = 0;
};

// A buffer of the current device's `stream` for `layout` that no other call holds: an idle one
// of at least `bytes`, or a new one (stream-ordered allocation, cleared with cudaMemsetAsync).
// Thread-safe. Throws pscan::cuda_error.
scratch_lease lease_scratch(cudaStream_t stream, std::size_t bytes, int layout);

// Drops the current device's buffers (release_device_pool calls it): those no call holds are
// freed once the device has finished its work (it synchronises the device), the others when their
// call lets go. Throws pscan::cuda_error.
void drop_cached_scratch();

}  // namespace pscan::runtime
