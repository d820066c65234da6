#pragma once
// The CUDA backend fixtures of the conformance suite. Data lives in cudaMalloc'd device memory;
// every call runs on a non-blocking stream, so work a backend wrongly puts on the default stream
// races with it and shows; download synchronises that stream before reading back.

#include <pscan/runtime/check.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "conformance/support.hpp"

namespace conformance {

// One stream for the whole run, never destroyed on purpose: static destruction may run after the
// CUDA runtime has shut down.
inline cudaStream_t test_stream() {
  static const cudaStream_t stream = [] {
    cudaStream_t created = nullptr;
    PSCAN_CUDA_CHECK(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking));
    return created;
  }();
  return stream;
}

enum class memory_kind { device, managed };

// Owns `size` elements of device (or managed) memory. The pointer is never null, even for zero
// elements: null pointers are a case of their own (conformance_cuda.cu). New memory holds all-ones
// bytes: an element a call should write and does not reads back as that, not as whatever was
// there, and the padding of a struct type is defined when a test reads a buffer back (so
// compute-sanitizer's initcheck flags only what the library reads unwritten).
template <class T>
class device_buffer {
 public:
  explicit device_buffer(std::size_t size, memory_kind kind = memory_kind::device) : size_(size) {
    const std::size_t bytes = std::max<std::size_t>(size, 1) * sizeof(T);
    if (kind == memory_kind::managed) {
      PSCAN_CUDA_CHECK(cudaMallocManaged(&data_, bytes));
    } else {
      PSCAN_CUDA_CHECK(cudaMalloc(&data_, bytes));
    }
    PSCAN_CUDA_CHECK(cudaMemsetAsync(data_, 0xff, bytes, test_stream()));
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(test_stream()));
  }
  device_buffer(device_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(other.size_) {}
  device_buffer& operator=(device_buffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() {
    // A destructor cannot throw; a failure here repeats an error the test has already reported.
    if (data_ != nullptr) {
      if (const cudaError_t status = cudaFree(data_); status != cudaSuccess) {
        std::fprintf(stderr, "cudaFree failed: %s\n", cudaGetErrorString(status));
      }
    }
  }

  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_;
};

struct device_memory {
  template <class T>
  static device_buffer<T> upload(const std::vector<T>& values) {
    device_buffer<T> buffer(values.size());
    // From pageable memory the copy has left `values` when the call returns.
    if (!values.empty()) {
      PSCAN_CUDA_CHECK(cudaMemcpyAsync(buffer.begin(), values.data(), values.size() * sizeof(T),
                                cudaMemcpyHostToDevice, test_stream()));
    }
    return buffer;
  }
  template <class T>
  static std::vector<T> download(const device_buffer<T>& buffer) {
    std::vector<T> values(buffer.size());
    if (!values.empty()) {
      PSCAN_CUDA_CHECK(cudaMemcpyAsync(values.data(), buffer.begin(), values.size() * sizeof(T),
                                cudaMemcpyDeviceToHost, test_stream()));
    }
    PSCAN_CUDA_CHECK(cudaStreamSynchronize(test_stream()));
    return values;
  }
};

}  // namespace conformance

// The fixtures of the policies the CUDA backends list (test/cuda/CMakeLists.txt writes it).
#include "cuda_fixtures.cuh"
