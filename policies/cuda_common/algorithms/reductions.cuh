#pragma once
// reduce and reduce_into of the CUDA policies (found by argument-dependent lookup through their
// common base, cuda::policy_base): both run their backend's
// reduce_to_sink(policy, first, n, init, op, make_sink), whose one result goes to the sink
// make_sink() returns: pinned host memory the host then waits for (reduce), or *result on the
// device, stream-ordered (reduce_into).

#include <cuda_common/device_result.cuh>
#include <cuda_common/policy.cuh>
#include <cuda_common/runtime/host_result.cuh>

#include <pscan/future_value.hpp>

namespace pscan::cuda {

template <class P, class InIt, class T, class Op>
pscan::detail::init_value_t<T> reduce(const policy_base<P>& p, InIt first, InIt last, T init,
                                      Op op) {
  using A = pscan::detail::init_value_t<T>;
  reject_graph_capture(p.stream, "pscan::reduce");
  return reduce_to_sink(static_cast<const P&>(p), first, last - first, init, op,
                        &host_result<A>::acquire)
      .wait(p.stream);
}

template <class P, class InIt, class OutIt, class T, class Op>
void reduce_into(const policy_base<P>& p, InIt first, InIt last, OutIt result, T init, Op op) {
  reduce_to_sink(static_cast<const P&>(p), first, last - first, init, op,
                 [result] { return device_result<OutIt>{result}; });
}

}  // namespace pscan::cuda
