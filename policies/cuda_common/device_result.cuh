#pragma once
// Where a reduction's value goes. The kernel that finishes a reduction takes a sink by value and
// one of its threads calls sink.publish(value) once: cuda_common::host_result (reduce: into host
// memory, for the host to wait on) or device_result (reduce_into: through an output iterator,
// ordered on the stream like any other write, with nothing for the host to wait on). The
// reduction of an empty range publishes init the same way (kernels/publish_init_kernel.cuh).

namespace pscan::cuda_common {

template <class OutIt>
struct device_result {
  OutIt out;

  template <class A>
  __device__ void publish(const A& value) const {
    *out = value;
  }
};

}  // namespace pscan::cuda_common
