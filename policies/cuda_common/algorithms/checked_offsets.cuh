#pragma once
// Offsets checked on the device before anything is written: a grid-strided pass finds the first
// offset that breaks the contract (offsets[0] < 0, one below its predecessor, or the last past the
// values' count where the policy knows it) and reads the first and last offset, the range the
// segments cover; one thread then publishes that to the host (host_result: no stream sync). The
// scans by offsets that size their kernels on the host wait for it; segmented_reduce's checked
// mode queues its kernel behind the check, gated by it, and then waits.

#include <pscan/policies/cuda_common/kernels/check_offsets_kernel.cuh>
#include <pscan/policies/cuda_common/kernels/publish_init_kernel.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/host_result.cuh>
#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>

#include <pscan/detail/host_offsets.hpp>
#include <pscan/error.hpp>
#include <pscan/future_value.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace pscan::cuda_common {

// A check of offsets[0 .. count) (count >= 1) on its way: launched by the constructor (which
// throws under graph capture, ending its message with `remedy`), its verdict on the device for
// kernels queued behind it (gate()), and its result on the host (wait(): throws
// pscan::invalid_argument naming `algorithm` and the first bad offset, else returns the range).
class offsets_check_in_flight {
 public:
  template <class Derived, class OffIt>
  offsets_check_in_flight(const policy_base<Derived>& p, const char* algorithm, OffIt offsets,
                          std::int64_t count, const char* remedy = "")
      : stream_(uncaptured(p.stream, algorithm, remedy)),
        found_(1, p),
        result_(host_result<offsets_check>::acquire()),
        algorithm_(algorithm),
        count_(count),
        values_(p.values_count) {
    PSCAN_CUDA_CHECK(cudaMemsetAsync(&found_.data()->first_bad, 0xff, sizeof(unsigned long long),
                                     p.stream));
    const std::int64_t blocks =
        std::min<std::int64_t>(ceil_div<std::int64_t>(count, check_offsets_block_threads),
                               std::int64_t{runtime::current_device_info().sm_count} * 8);
    check_offsets_kernel<<<static_cast<unsigned>(blocks), check_offsets_block_threads, 0,
                           p.stream>>>(offsets, count, values_, found_.data());
    PSCAN_CUDA_CHECK_LAUNCH();
    publish_init(p.stream, result_, pscan::future_value<offsets_check>(found_.data()));
  }

  // No bad offset when it reads no_bad_offset, on the device, for kernels queued after the check.
  const unsigned long long* gate() const { return &found_.data()->first_bad; }

  offsets_check wait() const {
    const offsets_check result = result_.wait(stream_);
    if (result.first_bad == no_bad_offset) return result;
    const auto position = static_cast<std::int64_t>(result.first_bad);
    if (position == count_ - 1 && result.last > values_) {
      throw pscan::detail::offsets_past_values_error(algorithm_, count_, result.last, values_);
    }
    throw pscan::detail::offsets_error(algorithm_, position);
  }

 private:
  // The stream, refused before any work when it is capturing a graph (the capture stays valid).
  static cudaStream_t uncaptured(cudaStream_t stream, const char* algorithm, const char* remedy) {
    if (runtime::is_capturing(stream)) {
      throw invalid_argument(std::string(algorithm) +
                             ": the check of the offsets waits for the device, which a stream "
                             "capturing a CUDA graph cannot" + remedy);
    }
    return stream;
  }

  cudaStream_t stream_;
  temporary_buffer<offsets_check> found_;
  host_result<offsets_check> result_;
  const char* algorithm_;
  std::int64_t count_;
  std::int64_t values_;
};

// Checks offsets[0 .. count) (count >= 1) and waits: throws as offsets_check_in_flight::wait()
// does, before any write; else returns the range the segments cover.
template <class Derived, class OffIt>
offsets_check check_offsets(const policy_base<Derived>& p, const char* algorithm, OffIt offsets,
                            std::int64_t count, const char* remedy = "") {
  return offsets_check_in_flight(p, algorithm, offsets, count, remedy).wait();
}

}  // namespace pscan::cuda_common
