#pragma once
// Per-device properties, read once per device and cached by libpscan (cudaDeviceGetAttribute, not
// the slow cudaGetDeviceProperties), and a cache of kernel occupancies for sizing grids.

#include <cuda_runtime.h>

namespace pscan::runtime {

struct device_info {
  int sm_count = 0;
  bool pageable_memory_access = false;  // the device may read pageable host memory (HMM/ATS)
  // Device memory where kernels report bad input only the device sees (segmented_reduce's
  // offsets): the lowest bad index found since a policy's synchronize() last took it, ~0 when
  // none.
  unsigned long long* bad_offsets_report = nullptr;
};

// The properties of the calling thread's current device (cudaGetDevice). Thread-safe; the
// reference stays valid for the life of the process. Callable while a stream captures a graph.
const device_info& current_device_info();

// Resident blocks per SM of `kernel` (a __global__ function's address) launched with
// `block_threads` threads and `dynamic_shared_bytes`, on the current device; cached per (device,
// kernel, configuration).
int max_active_blocks_per_sm(const void* kernel, int block_threads, int dynamic_shared_bytes = 0);

// Lets `kernel` launch with `bytes` of dynamic shared memory on the current device, past the
// default 48 KiB (once per device, kernel and size).
void allow_dynamic_shared_memory(const void* kernel, int bytes);

// Asks for the largest shared-memory carveout for `kernel` on the current device (once per
// device and kernel): kernels whose occupancy is bound by shared memory.
void prefer_shared_memory(const void* kernel);

// The most blocks of `kernel` (launched with `block_threads` threads) one thread block cluster
// may hold on the current device, non-portable sizes allowed (16 on H100/H200). Only for a kernel
// whose loaded code is sm_90's or later (loaded_target, runtime/target.cuh): the device's
// capability does not say what was compiled. Cached per (device, kernel, configuration).
int max_cluster_blocks(const void* kernel, int block_threads);

}  // namespace pscan::runtime
