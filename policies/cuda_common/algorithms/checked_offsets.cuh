#pragma once
// Offsets checked on the device before anything is written: a grid-strided pass finds the first
// offset that breaks the contract (offsets[0] < 0, or one below its predecessor), and the host
// waits for it. The same pass reads the first and last offset, the range the segments cover.
// segmented_reduce's checked mode runs it; the scans by offsets always do (their kernels are
// sized by that range).

#include <pscan/policies/cuda_common/kernels/check_offsets_kernel.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>

#include <pscan/detail/host_offsets.hpp>
#include <pscan/error.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace pscan::cuda_common {

// Checks offsets[0 .. count) (count >= 1) and waits: throws pscan::invalid_argument for a bad
// one, naming `algorithm`, before any write; else returns the range the segments cover. Under
// graph capture it throws instead, ending its message with `remedy` (may be empty).
template <class Derived, class OffIt>
offsets_check check_offsets(const policy_base<Derived>& p, const char* algorithm, OffIt offsets,
                            std::int64_t count, const char* remedy = "") {
  if (runtime::is_capturing(p.stream)) {
    throw invalid_argument(std::string(algorithm) +
                           ": the check of the offsets waits for the device, which a stream "
                           "capturing a CUDA graph cannot" + remedy);
  }
  temporary_buffer<offsets_check> found(1, p);
  PSCAN_CUDA_CHECK(cudaMemsetAsync(&found.data()->first_bad, 0xff, sizeof(unsigned long long),
                                   p.stream));
  const std::int64_t blocks =
      std::min<std::int64_t>(ceil_div<std::int64_t>(count, check_offsets_block_threads),
                             std::int64_t{runtime::current_device_info().sm_count} * 8);
  check_offsets_kernel<<<static_cast<unsigned>(blocks), check_offsets_block_threads, 0, p.stream>>>(
      offsets, count, found.data());
  PSCAN_CUDA_CHECK_LAUNCH();
  offsets_check result{};
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(&result, found.data(), sizeof result, cudaMemcpyDeviceToHost,
                                   p.stream));
  PSCAN_CUDA_CHECK(cudaStreamSynchronize(p.stream));
  if (result.first_bad != no_bad_offset) {
    throw pscan::detail::offsets_error(algorithm, static_cast<std::int64_t>(result.first_bad));
  }
  return result;
}

}  // namespace pscan::cuda_common
