#pragma once
// Returning a value from the GPU to the host without a copy or a stream sync (reduce). The last
// kernel writes the value into host-mapped pinned memory, then a completion word (a sequence
// number the host chose for this call) with a system-scope release; the host spins on that word,
// polling the stream now and then so that a failed or drained stream throws instead of hanging.
// When wait() returns, the value is final and all earlier work on the stream is done, but the
// publishing kernel's threads may still be exiting (cudaStreamQuery may briefly say not ready).
// One slot per host thread (lib/host_result.cu): one result in flight per thread.

#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/runtime/check.cuh>

#include <pscan/error.hpp>
#include <pscan/runtime/host_result.cuh>

#include <cuda/atomic>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace pscan::cuda_common {

// The calling thread's slot and the host's wait on it: libpscan's (lib/host_result.cu).

// Throws pscan::invalid_argument when `stream` is capturing a graph: `algorithm` returns a host
// value, which a graph cannot. Call it before any work, so that the capture stays valid.
inline void reject_graph_capture(cudaStream_t stream, const char* algorithm) {
  if (runtime::is_capturing(stream)) {
    throw invalid_argument(std::string(algorithm) +
                           ": the policy's stream is capturing a CUDA graph; a call that returns "
                           "a host value cannot be captured");
  }
}

// A result of type T on its way to the host; passed by value to the kernel that publishes it.
template <class T>
class host_result {
  static_assert(std::is_trivially_copyable_v<T>,
                "pscan: GPU value types must be trivially copyable");
  static_assert(alignof(T) <= 256, "pscan: the host result slot is only 256-byte aligned");

 public:
  // The value follows the 8-byte word at its own alignment; the word never moves, so a stale
  // value of another type can never be mistaken for a completion.
  static constexpr std::size_t value_offset =
      alignof(T) > sizeof(std::uint64_t) ? alignof(T) : sizeof(std::uint64_t);

  // Host, right before the launch that publishes: an exception between acquire() and a
  // successful wait() retires the slot (its kernel may still write it).
  static host_result acquire() {
    return host_result(runtime::acquire_host_result_slot(value_offset + sizeof(T)));
  }

  // Device, one thread, once: the value, then the word with a system-scope release.
  __device__ void publish(const T& value) const {
    *reinterpret_cast<T*>(slot_.base + value_offset) = value;
    ::cuda::atomic_ref<std::uint64_t, ::cuda::thread_scope_system> word(
        *reinterpret_cast<std::uint64_t*>(slot_.base));
    word.store(slot_.sequence, ::cuda::memory_order_release);
  }

  // Host, on the thread that called acquire(), with the stream the publishing kernel runs on.
  T wait(cudaStream_t stream) const {
    runtime::wait_host_result_slot(slot_, explicit_stream(stream));
    T value;
    std::memcpy(&value, slot_.base + value_offset, sizeof(T));
    return value;
  }

 private:
  explicit host_result(const runtime::host_result_slot& slot) : slot_(slot) {}
  runtime::host_result_slot slot_;
};

}  // namespace pscan::cuda_common
