#pragma once
// The kernel that takes the device's report of bad offsets (grid/bad_offsets.cuh) for
// policy_base::synchronize().

#include <pscan/policies/cuda_common/grid/bad_offsets.cuh>

namespace pscan::cuda_common {

// Takes the device's report of bad offsets (leaving "none"), so that no report is lost to a
// kernel reporting at the same time.
template <int = 0>
__global__ void take_bad_offsets_report_kernel(unsigned long long* report,
                                               unsigned long long* taken) {
  *taken = atomicExch(report, no_bad_offset);
}

}  // namespace pscan::cuda_common
