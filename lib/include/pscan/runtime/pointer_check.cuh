#pragma once
// Rejecting memory the device cannot access before any work is queued (the CUDA policies' check of
// pointer arguments).

namespace pscan::runtime {

// Throws pscan::invalid_argument when `p` is memory the current device cannot access (pageable
// host memory without HMM/ATS), naming `algorithm` and its `argument`. Throws pscan::cuda_error.
void check_device_accessible(const char* algorithm, const char* argument, const void* p);

}  // namespace pscan::runtime
