#pragma once
// target_probe_kernel: never launched. Its module's PTX version says which of a translation
// unit's builds the current device runs (target.cuh's loaded_target).

namespace pscan::cuda_common {

template <class Archs>
__global__ void target_probe_kernel() {}

}  // namespace pscan::cuda_common
