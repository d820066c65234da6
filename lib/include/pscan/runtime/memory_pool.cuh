#pragma once
// Temporary device memory, stream-ordered: from the policy's resource when one is set, else from
// libpscan's per-device memory pool (cudaMallocFromPoolAsync with a release threshold that keeps
// freed memory cached, so steady-state calls neither call cudaMalloc/cudaFree nor synchronise
// the device). Out of memory throws pscan::cuda_error(cudaErrorMemoryAllocation). The pool can be
// emptied (release_device_pool) and capped (limit_device_pool).

#include <pscan/runtime/resource.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace pscan::runtime {

// Returns the current device's idle pool memory to the system: the memory pscan keeps cached
// for the temporaries of calls without a resource, and the scratch buffers it keeps per stream
// (runtime/scratch_cache.cuh; dropped: a call in progress on another thread keeps its own
// until it has been enqueued). Waits for the device first (cudaDeviceSynchronize), so that the
// memory of work already queued is released too; not while a stream of the device is capturing a
// graph. Later calls allocate again as they need. Throws pscan::cuda_error.
void release_device_pool();

// The most idle memory the current device's pool keeps cached (its release threshold): freed
// memory beyond it goes back to the system when a stream, an event or the device is
// synchronised. Default: all of it (no limit); limit_device_pool(0) keeps nothing between
// calls, limit_device_pool(SIZE_MAX) restores the default. The scratch buffers kept per
// stream are in use, not idle: release_device_pool() drops them.
// Throws pscan::cuda_error.
void limit_device_pool(std::size_t bytes);

// `bytes` from the current device's pool, stream-ordered on `stream` (not capturing: the pool
// serves no graph); free it with cudaFreeAsync (or cudaFree once no work uses it).
void* allocate_from_device_pool(std::size_t bytes, cudaStream_t stream);
// The bytes the current device's pool has reserved from the system
// (cudaMemPoolAttrReservedMemCurrent); 0 before the first use.
std::size_t device_pool_reserved_bytes();

// `bytes` from `resource`, or from the pool when it is empty (while `stream` captures a graph,
// from the device's default pool as a graph memory node); bytes == 0 gives nullptr. `stream`
// is explicit (never 0: what 0 names depends on the caller's translation unit).
void* allocate_temporary(std::size_t bytes, cudaStream_t stream, resource_handle resource);
// Never throws: runs in destructors; a failed stream-ordered free leaves the memory to the pool.
void deallocate_temporary(void* p, std::size_t bytes, cudaStream_t stream,
                          resource_handle resource) noexcept;

}  // namespace pscan::runtime
