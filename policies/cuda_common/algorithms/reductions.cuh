#pragma once
// reduce and reduce_into of the CUDA policies (found by argument-dependent lookup through their
// common base, cuda_common::policy_base): both run the backend's kernels::reduce, whose one result
// goes to a sink (device_result.cuh): pinned host memory the host then waits for (reduce), or
// *result on the device, stream-ordered (reduce_into). An empty input launches one thread that
// publishes init.

#include <cuda_common/device_result.cuh>
#include <cuda_common/policy.cuh>
#include <cuda_common/runtime/host_result.cuh>
#include <cuda_common/target.cuh>

#include <pscan/future_value.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// Reduces first[0 .. n) (n >= 0), init first, into the sink that make_sink() returns, and
// returns the sink.
template <class P, class InIt, class Init, class Op, class MakeSink>
auto reduce_to_sink(const policy_base<P>& p, InIt first, std::int64_t n, const Init& init, Op op,
                    MakeSink make_sink) {
  if (n == 0) {
    const auto sink = make_sink();
    publish_init(p.stream, sink, init);
    return sink;
  }
  return with_build([&](auto build) {
    return kernels<P>::template reduce<decltype(build)>(static_cast<const P&>(p), first, n, init,
                                                        op, make_sink);
  });
}

template <class P, class InIt, class T, class Op>
pscan::detail::init_value_t<T> reduce(const policy_base<P>& p, InIt first, InIt last, T init,
                                      Op op) {
  using A = pscan::detail::init_value_t<T>;
  reject_graph_capture(p.stream, "pscan::reduce");
  return reduce_to_sink(p, first, last - first, init, op, &host_result<A>::acquire)
      .wait(p.stream);
}

template <class P, class InIt, class OutIt, class T, class Op>
void reduce_into(const policy_base<P>& p, InIt first, InIt last, OutIt result, T init, Op op) {
  reduce_to_sink(p, first, last - first, init, op,
                 [result] { return device_result<OutIt>{result}; });
}

}  // namespace pscan::cuda_common
