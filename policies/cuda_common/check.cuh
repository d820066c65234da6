#pragma once
// Checking CUDA runtime calls and kernel launches (PSCAN_CUDA_CHECK, PSCAN_CUDA_CHECK_LAUNCH): a
// failure throws pscan::cuda_error, formatted in libpscan, whose interface declares them.

#include <pscan/runtime/check.cuh>

namespace pscan::cuda_common {

using runtime::is_capturing;
using runtime::throw_cuda_error;

}  // namespace pscan::cuda_common
