#pragma once
// libpscan's cache of scratch buffers (runtime/call_scratch.cuh), one per (device, stream,
// layout), made for the single-pass scans' tile state: the scan kernels need it zeroed or tagged,
// and clearing it on every call would cost a memset (a second launch). Instead each call gets a
// new epoch; entries tagged with another epoch read as unpublished, so a buffer is cleared only
// when it is allocated or the epoch wraps.
// Calls on one stream are ordered, so they may share a buffer; different streams never do.
// A buffer also serves one `layout` (the caller's number for how entries are laid out): a tag
// location must never hold a value another layout left there.
// Not for a stream being captured into a graph: every replay would reuse the captured epoch.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace pscan::cuda_common {

// Epochs go from 1 to max_tile_state_epoch (31 bits, so a tag (epoch, flag) fits in 32 bits).
inline constexpr std::uint32_t max_tile_state_epoch = 0x7fffffffu;

// One call's share of a stream's buffer. `data` (256-byte aligned, `bytes` >= the request)
// holds no entry tagged with `epoch`, and its leading counters are 0 in stream order (kernels
// return the counters they use to 0). Keep the lease until the kernel is enqueued: if another
// thread grows the buffer meanwhile, the old one is freed only after this lease ends, and in
// stream order after the kernel.
struct tile_state_lease {
  std::shared_ptr<void> owner;
  void* data = nullptr;
  std::size_t bytes = 0;
  std::uint32_t epoch = 0;
};

// The buffer of the current device's `stream` for `layout`, grown (stream-ordered allocation,
// cleared with cudaMemsetAsync) when smaller than `bytes`. Thread-safe. Throws
// pscan::cuda_error.
tile_state_lease lease_tile_state(cudaStream_t stream, std::size_t bytes, int layout);

// Drops the current device's buffers (release_device_pool calls it): those no call holds are
// freed once the device has finished its work (it synchronises the device), the others when their
// call lets go. Throws pscan::cuda_error.
void drop_cached_tile_states();

}  // namespace pscan::cuda_common
