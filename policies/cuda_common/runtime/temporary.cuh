#pragma once
// Temporary device memory, stream-ordered: from the policy's resource when one is set (.with(r):
// a device_resource, or a resource of CCCL's stream-ordered shape, asked for 256-byte alignment),
// else from libpscan's per-device memory pool (cudaMallocFromPoolAsync with a release threshold
// that keeps freed memory cached, so steady-state calls neither call cudaMalloc/cudaFree nor
// synchronise the device). Out of memory throws pscan::cuda_error(cudaErrorMemoryAllocation).
// The pool can be emptied (release_device_pool) and capped (limit_device_pool). The pool and the
// allocation are libpscan's; temporary_buffer, their owner in a call, is here.

#include <pscan/policies/cuda_common/policy.cuh>

#include <pscan/runtime/memory_pool.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace pscan::cuda_common {

// libpscan's pool and allocator (pscan/runtime/memory_pool.cuh).

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
            runtime::allocate_temporary(count * sizeof(T), explicit_stream(stream), resource))),
        count_(count),
        stream_(explicit_stream(stream)),
        resource_(resource) {}

  template <class Derived>
  temporary_buffer(std::size_t count, const policy_base<Derived>& policy)
      : temporary_buffer(count, policy.stream, policy.resource) {}

  temporary_buffer(const temporary_buffer&) = delete;
  temporary_buffer& operator=(const temporary_buffer&) = delete;

  ~temporary_buffer() {
    runtime::deallocate_temporary(data_, count_ * sizeof(T), stream_, resource_);
  }

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
using runtime::limit_device_pool;
using runtime::release_device_pool;
}  // namespace pscan
