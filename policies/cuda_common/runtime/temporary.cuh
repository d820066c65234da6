#pragma once
// Temporary device memory, stream-ordered: from the policy's resource when one is set (.with(r):
// a device_resource, or a resource of CCCL's stream-ordered shape, asked for 256-byte alignment),
// else from libpscan's per-device memory pool (cudaMallocFromPoolAsync with a release threshold
// that keeps freed memory cached, so steady-state calls neither call cudaMalloc/cudaFree nor
// synchronise the device). Out of memory throws pscan::cuda_error(cudaErrorMemoryAllocation).
// The pool can be emptied (release_device_pool) and capped (limit_device_pool).

#include <cuda_common/policy.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace pscan::cuda_common {

// Returns the current device's idle pool memory to the system: the memory pscan keeps cached
// for the temporaries of calls without a resource, and the scratch buffers it keeps per stream
// (runtime/call_scratch.cuh; dropped: a call in progress on another thread keeps its own until
// it has been enqueued). Waits for the device first (cudaDeviceSynchronize), so that the memory of work
// already queued is released too; not while a stream of the device is capturing a graph.
// Later calls allocate again as they need. Throws pscan::cuda_error.
void release_device_pool();

// The most idle memory the current device's pool keeps cached (its release threshold): freed
// memory beyond it goes back to the system when a stream, an event or the device is
// synchronised. Default: all of it (no limit); limit_device_pool(0) keeps nothing between
// calls, limit_device_pool(SIZE_MAX) restores the default. The scratch buffers kept per
// stream are in use, not idle: release_device_pool() drops them.
// Throws pscan::cuda_error.
void limit_device_pool(std::size_t bytes);

// libpscan internals (lib/memory_pool.cu).

// `bytes` from the current device's pool, stream-ordered on `stream` (not capturing: the pool
// serves no graph); free it with cudaFreeAsync (or cudaFree once no work uses it).
void* allocate_from_device_pool(std::size_t bytes, cudaStream_t stream);
// The bytes the current device's pool has reserved from the system
// (cudaMemPoolAttrReservedMemCurrent); 0 before the first use.
std::size_t device_pool_reserved_bytes();

// bytes == 0 gives nullptr.
void* allocate_temporary(std::size_t bytes, cudaStream_t stream, resource_handle resource);
// Never throws: runs in destructors; a failed stream-ordered free leaves the memory to the pool.
void deallocate_temporary(void* p, std::size_t bytes, cudaStream_t stream,
                          resource_handle resource) noexcept;

// `count` uninitialised objects of T in device memory, released (stream-ordered, after the work
// queued on the stream) when the buffer goes out of scope. `resource`: the policy's (a
// device_resource* converts; nullptr: libpscan's pool).
template <class T>
class temporary_buffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "device temporaries hold trivially-copyable types");

 public:
  temporary_buffer(std::size_t count, cudaStream_t stream, resource_handle resource)
      : data_(static_cast<T*>(
            allocate_temporary(count * sizeof(T), explicit_stream(stream), resource))),
        count_(count),
        stream_(explicit_stream(stream)),
        resource_(resource) {}

  template <class Derived>
  temporary_buffer(std::size_t count, const policy_base<Derived>& policy)
      : temporary_buffer(count, policy.stream, policy.resource) {}

  temporary_buffer(const temporary_buffer&) = delete;
  temporary_buffer& operator=(const temporary_buffer&) = delete;

  ~temporary_buffer() { deallocate_temporary(data_, count_ * sizeof(T), stream_, resource_); }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }

 private:
  T* data_;
  std::size_t count_;
  cudaStream_t stream_;
  resource_handle resource_;
};

}  // namespace pscan::cuda_common

namespace pscan {
// Controls of libpscan's per-device pool of temporaries (the current device's).
using cuda_common::limit_device_pool;
using cuda_common::release_device_pool;
}  // namespace pscan
