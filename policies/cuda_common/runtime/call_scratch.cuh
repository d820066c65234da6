#pragma once
// The scratch one CUDA call runs with: a head of counters (scratch_head_bytes, 0 when the call's
// kernels start, and returned to 0 by them), then the call's entries (tile state, block totals,
// partials). Normally a cached buffer of the stream's from libpscan with a fresh epoch, the call's
// alone until the call_scratch is destroyed (after its last launch): no allocation, no memset,
// nothing but the call's launches, and host threads sharing a stream never share scratch. With a
// caller's resource (all device memory must come from it), or while the stream is captured into a
// graph (a replay must not reuse the captured epoch), a zeroed temporary.

#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/scratch_cache.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace pscan::cuda_common {

// The counters at the head of every scratch buffer; the entries after it stay 256-byte aligned.
inline constexpr std::size_t scratch_head_bytes = 256;

// The layout of scratch whose entries carry no epoch tag (reductions' partials, block totals):
// every call writes what it reads. Tagged layouts (the chained scans' tile state) number from 1;
// negative ones are counters all through, 0 when the call's kernels start and returned to 0 by
// them, as a head is.
inline constexpr int untagged_layout = 0;

class call_scratch {
 public:
  // At least `bytes` (the head included) for entries laid out as `layout` (see
  // lease_scratch).
  template <class Derived>
  call_scratch(const policy_base<Derived>& p, std::size_t bytes, int layout) {
    if (p.resource == nullptr && !runtime::is_capturing(p.stream)) {
      lease_ = runtime::lease_scratch(explicit_stream(p.stream), bytes, layout);
      data_ = lease_.data();
      epoch_ = lease_.epoch();
      return;
    }
    // A device_resource (and the capture's allocation) promises no alignment: over-allocate and
    // align to 256 bytes ourselves. A stream-ordered resource was asked for 256 bytes.
    const std::size_t slack = p.resource.alignment() % alignment == 0 ? 0 : alignment;
    fresh_.emplace(bytes + slack, p.stream, p.resource);
    const auto address = reinterpret_cast<std::uintptr_t>(fresh_->data());
    if (slack == 0 && address % alignment != 0) {
      throw pscan::invalid_argument(
          "pscan: the policy's resource gave memory not aligned to the 256 bytes asked");
    }
    data_ = fresh_->data() + (alignment - address % alignment) % alignment;
    PSCAN_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes, p.stream));
    epoch_ = 1;
  }

  // Valid until this object is destroyed, which must come after the kernel launches using it
  // (from then on the stream's next call may take the buffer).
  void* data() const { return data_; }
  // The entries after the head, as T.
  template <class T>
  T* entries() const {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(data_) + scratch_head_bytes);
  }
  std::uint32_t epoch() const { return epoch_; }

 private:
  static constexpr std::size_t alignment = 256;
  runtime::scratch_lease lease_;
  std::optional<temporary_buffer<unsigned char>> fresh_;
  void* data_ = nullptr;
  std::uint32_t epoch_ = 0;
};

}  // namespace pscan::cuda_common
