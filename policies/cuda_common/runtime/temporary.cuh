#pragma once
// Temporary device memory, stream-ordered: from the policy's device_resource when one is set, else
// from libpscan's per-device memory pool (cudaMallocFromPoolAsync with a release threshold that
// keeps freed memory cached, so steady-state calls neither call cudaMalloc/cudaFree nor
// synchronise the device). Out of memory throws pscan::cuda_error(cudaErrorMemoryAllocation).

#include <cuda_common/policy.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace pscan::cuda_common {

// Implemented in libpscan (lib/memory_pool.cu). bytes == 0 gives nullptr.
void* allocate_temporary(std::size_t bytes, cudaStream_t stream, device_resource* resource);
// Never throws: runs in destructors; a failed stream-ordered free leaves the memory to the pool.
void deallocate_temporary(void* p, std::size_t bytes, cudaStream_t stream,
                          device_resource* resource) noexcept;

// `count` uninitialised objects of T in device memory, released (stream-ordered, after the work
// queued on the stream) when the buffer goes out of scope.
template <class T>
class temporary_buffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "device temporaries hold trivially-copyable types");

 public:
  temporary_buffer(std::size_t count, cudaStream_t stream, device_resource* resource)
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
  device_resource* resource_;
};

}  // namespace pscan::cuda_common
