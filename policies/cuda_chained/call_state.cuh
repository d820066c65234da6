#pragma once
// The scratch buffer one chained call runs with (counters + tile state, or reduce partials).
// Normally the stream's cached buffer from libpscan with a fresh epoch: no allocation, no memset,
// one launch. With a caller's resource (all device memory must come from it), or while the stream
// is captured into a graph (a replay must not reuse the captured epoch), a zeroed temporary.

#include <cuda_chained/policy.cuh>

#include <cuda_common/check.cuh>
#include <cuda_common/runtime/temporary.cuh>
#include <cuda_common/runtime/tile_state_cache.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace pscan::cuda_chained_backend {

class call_state {
 public:
  // At least `bytes` for entries laid out as `layout` (see lease_tile_state).
  call_state(const policy& p, std::size_t bytes, int layout) {
    if (p.resource == nullptr && !cuda_common::is_capturing(p.stream)) {
      lease_ = cuda_common::lease_tile_state(cuda_common::explicit_stream(p.stream), bytes, layout);
      data_ = lease_.data;
      epoch_ = lease_.epoch;
      return;
    }
    // A resource promises no alignment: over-allocate and align to 256 bytes ourselves.
    fresh_.emplace(bytes + alignment, p.stream, p.resource);
    const auto address = reinterpret_cast<std::uintptr_t>(fresh_->data());
    data_ = fresh_->data() + (alignment - address % alignment) % alignment;
    PSCAN_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes, p.stream));
    epoch_ = 1;
  }

  // Valid until this object is destroyed, which must come after the kernel launch using it.
  void* data() const { return data_; }
  std::uint32_t epoch() const { return epoch_; }

 private:
  static constexpr std::size_t alignment = 256;
  cuda_common::tile_state_lease lease_;
  std::optional<cuda_common::temporary_buffer<unsigned char>> fresh_;
  void* data_ = nullptr;
  std::uint32_t epoch_ = 0;
};

}  // namespace pscan::cuda_chained_backend
