#pragma once
// Per-device properties and kernel occupancies, cached by libpscan, for sizing grids.

#include <pscan/runtime/device_info.cuh>

namespace pscan::cuda_common {

using runtime::allow_dynamic_shared_memory;
using runtime::current_device_info;
using runtime::device_info;
using runtime::max_active_blocks_per_sm;
using runtime::max_cluster_blocks;
using runtime::prefer_shared_memory;

}  // namespace pscan::cuda_common
