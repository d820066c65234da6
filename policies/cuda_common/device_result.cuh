#pragma once
// Where a reduction's value goes. The kernel that finishes a reduction takes a sink by value and
// one of its threads calls sink.publish(value) once: cuda_common::host_result (reduce: into host
// memory, for the host to wait on) or device_result (reduce_into: through an output iterator,
// ordered on the stream like any other write, with nothing for the host to wait on). And the
// reduction of an empty range, init, published the same way.

#include <pscan/runtime/check.cuh>

#include <pscan/future_value.hpp>

#include <cuda_runtime.h>

namespace pscan::cuda_common {

template <class OutIt>
struct device_result {
  OutIt out;

  template <class A>
  __device__ void publish(const A& value) const {
    *out = value;
  }
};

template <class Sink, class Init>
__global__ void __launch_bounds__(1) publish_init_kernel(Sink sink, Init init) {
  sink.publish(static_cast<const pscan::detail::init_value_t<Init>&>(init));
}

// One thread publishes init (read on the device when deferred) into `sink`, on `stream`.
template <class Sink, class Init>
void publish_init(cudaStream_t stream, const Sink& sink, const Init& init) {
  publish_init_kernel<<<1, 1, 0, stream>>>(sink, init);
  PSCAN_CUDA_CHECK_LAUNCH();
}

}  // namespace pscan::cuda_common
