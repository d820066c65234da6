#pragma once
// libpscan's cache of scratch buffers per (device, stream, layout), the single-pass scans' tile
// state: a fresh epoch per call instead of a memset (call_scratch.cuh takes its leases).

#include <pscan/runtime/tile_state_cache.cuh>

namespace pscan::cuda_common {

using runtime::drop_cached_tile_states;
using runtime::lease_tile_state;
using runtime::max_tile_state_epoch;
using runtime::tile_state_lease;

}  // namespace pscan::cuda_common
