#pragma once
// The reduction of an empty range: one thread publishes init (read on the device when deferred)
// into the call's sink (device_result.cuh).

#include <pscan/runtime/check.cuh>

#include <pscan/future_value.hpp>

#include <cuda_runtime.h>

namespace pscan::cuda_common {

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
