#pragma once
// The device's report of bad offsets: a word a device, the lowest bad index any kernel found
// (atomicMin), no_bad_offset when none; policy_base::synchronize() takes it.

namespace pscan::cuda_common {

inline constexpr unsigned long long no_bad_offset = ~0ull;

// Takes the device's report of bad offsets (leaving "none"), so that no report is lost to a
// kernel reporting at the same time.
template <int = 0>
__global__ void take_bad_offsets_report_kernel(unsigned long long* report,
                                               unsigned long long* taken) {
  *taken = atomicExch(report, no_bad_offset);
}

}  // namespace pscan::cuda_common
