#pragma once
// reduce and reduce_into of the CUDA policies (found by argument-dependent lookup through their
// common base, cuda_common::policy_base): both run the backend's kernels::reduce, whose one result
// goes to a sink (device_result.cuh): pinned host memory the host then waits for (reduce), or
// *result on the device, stream-ordered (reduce_into). An empty input launches one thread that
// publishes init. reduce_by_key_into is one scan by the backend's kernels with reduce_by_key's
// tile agent (tile/reduce_by_key_tile.cuh), whose accumulators count the runs begun;
// reduce_by_key brings its run count home as reduce does. exact_plus's reductions come as exact
// sums of blocks of values (pscan/detail/exact.hpp) and run exact_reduce.cuh's kernel.

#include <pscan/policies/cuda_common/algorithms/exact_reduce.cuh>
#include <pscan/policies/cuda_common/algorithms/scans.cuh>
#include <pscan/policies/cuda_common/device_result.cuh>
#include <pscan/policies/cuda_common/kernels/publish_init_kernel.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/host_result.cuh>
#include <pscan/policies/cuda_common/runtime/temporary.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tile/reduce_by_key_tile.cuh>

#include <pscan/detail/exact.hpp>
#include <pscan/detail/runs.hpp>
#include <pscan/functional.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <iterator>
#include <utility>

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
  if constexpr (pscan::detail::is_exact_block_iterator_v<InIt>) {
    // exact_plus: the kernel sums the values of the blocks itself.
    const auto& values = first.function();
    return exact_reduce_to_sink(p, values.first, values.n, init, make_sink);
  } else {
    return with_build([&](auto build) {
      return kernels_of<P>::template reduce<decltype(build)>(static_cast<const P&>(p), first, n,
                                                          init, op, make_sink);
    });
  }
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

// reduce_by_key's own tile agent (tile/reduce_by_key_tile.cuh) in the backend's scan kernels:
// the accumulators are (value, runs begun) pairs of the values' type.
template <class P, class KeyIt, class InIt, class KeyOut, class ValOut, class RunsOut,
          class KeyEq, class Op>
void reduce_by_key_into(const policy_base<P>& p, KeyIt keys_first, KeyIt keys_last, InIt values,
                        KeyOut keys_out, ValOut values_out, RunsOut runs_out, KeyEq eq, Op op) {
  const std::int64_t n = keys_last - keys_first;
  if (n == 0) {
    publish_init(p.stream, device_result<RunsOut>{runs_out}, std::int64_t{0});
    return;
  }
  using T = typename std::iterator_traits<InIt>::value_type;
  using sink = run_sink<KeyOut, ValOut, RunsOut>;
  scan_with_kernels<false, false>(p, run_input<KeyIt, InIt, KeyEq>{keys_first, values, eq}, n,
                                  sink{keys_out, values_out, runs_out, n},
                                  pscan::detail::counted<T>{}, pscan::detail::counted_op<Op>{op});
}

// The runs as reduce_by_key_into writes them, their count into a device word that a reduce of
// that one word brings to the host: no second pass over the keys to count the runs.
template <class P, class KeyIt, class InIt, class KeyOut, class ValOut, class KeyEq, class Op>
std::pair<KeyOut, ValOut> reduce_by_key(const policy_base<P>& p, KeyIt keys_first, KeyIt keys_last,
                                        InIt values, KeyOut keys_out, ValOut values_out, KeyEq eq,
                                        Op op) {
  reject_graph_capture(p.stream, "pscan::reduce_by_key");
  const std::int64_t n = keys_last - keys_first;
  if (n == 0) return {keys_out, values_out};
  const temporary_buffer<std::int64_t> runs(1, p);
  cuda_common::reduce_by_key_into(p, keys_first, keys_last, values, keys_out, values_out,
                                  runs.data(), eq, op);
  const std::int64_t count = reduce_to_sink(p, runs.data(), 1, std::int64_t{0}, pscan::plus<>{},
                                            &host_result<std::int64_t>::acquire)
                                 .wait(p.stream);
  return {keys_out + count, values_out + count};
}

}  // namespace pscan::cuda_common
