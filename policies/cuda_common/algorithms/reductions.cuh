#pragma once
// reduce and reduce_into of the CUDA policies (found by argument-dependent lookup through their
// common base, cuda_common::policy_base): both run the backend's kernels::reduce, whose one result
// goes to a sink (device_result.cuh): pinned host memory the host then waits for (reduce), or
// *result on the device, stream-ordered (reduce_into). An empty input launches one thread that
// publishes init. reduce_by_key_into is one scan by the backend's kernels with reduce_by_key's
// tile agent (tile/reduce_by_key_tile.cuh), whose accumulators count the runs begun;
// reduce_by_key brings its run count home as reduce does. exact_plus's reductions run
// exact_reduce.cuh's kernel, its reduce_by_key segmented_reduce's exact scan.

#include <pscan/policies/cuda_common/algorithms/exact_reduce.cuh>
#include <pscan/policies/cuda_common/algorithms/scans.cuh>
#include <pscan/policies/cuda_common/algorithms/segmented_reduce.cuh>
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
#include <pscan/reduce.hpp>
#include <pscan/reduce_by_key.hpp>

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
  return with_build([&](auto build) {
    return kernels_of<P>::template reduce<decltype(build)>(static_cast<const P&>(p), first, n,
                                                        init, op, make_sink);
  });
}

// exact_plus's reductions (the exact_algorithm hook, pscan/detail/dispatch.hpp): exact_reduce.cuh's
// kernel. init: a value, as its exact sum, or a future_value, read on the device.
template <class Init>
auto exact_kernel_init(const Init& init) {
  if constexpr (pscan::detail::is_deferred_init_v<Init>) {
    return init;
  } else {
    return pscan::detail::exact_init<Init>(init);
  }
}

template <class P, class InIt, class Init>
pscan::detail::init_value_t<Init> exact_algorithm(const policy_base<P>& p,
                                                  pscan::detail::algorithm::reduce, InIt first,
                                                  InIt last, const Init& init) {
  using T = pscan::detail::init_value_t<Init>;
  reject_graph_capture(p.stream, "pscan::reduce");
  return exact_reduce_to_sink(p, first, last - first, exact_kernel_init(init),
                              &host_result<pscan::detail::exact_sum<T>>::acquire)
      .wait(p.stream)
      .rounded();
}

template <class P, class InIt, class OutIt, class Init>
void exact_algorithm(const policy_base<P>& p, pscan::detail::algorithm::reduce_into, InIt first,
                     InIt last, OutIt result, const Init& init) {
  const auto rounded = pscan::detail::exact_out<pscan::detail::init_value_t<Init>>(result);
  exact_reduce_to_sink(p, first, last - first, exact_kernel_init(init),
                       [rounded] { return device_result<decltype(rounded)>{rounded}; });
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

// Element i of the positions: i.
struct position_of {
  PSCAN_HOST_DEVICE std::int64_t operator()(std::int64_t i) const { return i; }
};

// exact_plus's reduce_by_key (the exact_algorithm hook, pscan/detail/dispatch.hpp): the runs'
// first keys, and their starts (each run's least position) as offsets, by reduce_by_key itself;
// then each run's exact sum, as segmented_reduce's (segmented_reduce.cuh), over offsets valid
// and without empty segments by construction. Returns the runs.
template <class P, class KeyIt, class KeyEq, class KeyOut, class InIt, class ValOut>
std::int64_t exact_runs(const policy_base<P>& p, KeyIt keys_first, KeyIt keys_last, KeyEq eq,
                        KeyOut keys_out, InIt values, ValOut values_out) {
  const std::int64_t n = keys_last - keys_first;
  if (n == 0) return 0;
  const temporary_buffer<std::int64_t> starts(static_cast<std::size_t>(n + 1), p);
  const auto positions = pscan::detail::make_index_iterator(position_of{});
  const std::int64_t runs = reduce_by_key(p, keys_first, keys_last, positions, keys_out,
                                          starts.data(), eq, pscan::minimum<>{})
                                .second -
                            starts.data();
  // The last run ends at n (a pageable copy: n is read before the call returns).
  PSCAN_CUDA_CHECK(cudaMemcpyAsync(starts.data() + runs, &n, sizeof n, cudaMemcpyHostToDevice,
                                   p.stream));
  using T = typename std::iterator_traits<InIt>::value_type;
  exact_segment_sums(p, starts.data(), runs + 1, 0, n, values, values_out, T(-0.0));  // -0: none
  return runs;
}

template <class P, class KeyIt, class KeyEq, class KeyOut, class InIt, class ValOut>
std::pair<KeyOut, ValOut> exact_algorithm(const policy_base<P>& p,
                                          pscan::detail::algorithm::reduce_by_key,
                                          KeyIt keys_first, KeyIt keys_last, KeyEq eq,
                                          KeyOut keys_out, InIt values, ValOut values_out) {
  reject_graph_capture(p.stream, "pscan::reduce_by_key");
  const std::int64_t runs =
      exact_runs(p, keys_first, keys_last, eq, keys_out, values, values_out);
  return {keys_out + runs, values_out + runs};
}

// With exact_plus reduce_by_key_into waits for the count of runs, as reduce_by_key does.
template <class P, class KeyIt, class KeyEq, class KeyOut, class RunsOut, class InIt,
          class ValOut>
void exact_algorithm(const policy_base<P>& p, pscan::detail::algorithm::reduce_by_key_into,
                     KeyIt keys_first, KeyIt keys_last, KeyEq eq, KeyOut keys_out,
                     RunsOut runs_out, InIt values, ValOut values_out) {
  reject_graph_capture(p.stream, "pscan::reduce_by_key_into with exact_plus");
  publish_init(p.stream, device_result<RunsOut>{runs_out},
               exact_runs(p, keys_first, keys_last, eq, keys_out, values, values_out));
}

}  // namespace pscan::cuda_common
