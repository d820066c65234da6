#pragma once
// The small reduce of both CUDA backends, and the multi-pass one's last pass: one block reduces
// first[0..n), init first, into the call's sink (device_result.cuh), in a kernel that holds
// nothing else. A one-block call is all latency, and on H100 the multi-block kernel spent a third
// of a small call's cycles waiting for instructions to be fetched (ncu, no-instruction stalls);
// a kernel this compact waits on its loads, as CUB's DeviceReduceSingleTileKernel does.

#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/runtime/check.cuh>

#include <pscan/future_value.hpp>

#include <cuda_runtime.h>

#include <cstdint>

namespace pscan::cuda_common {

// Range: the block_range_reduce of Build's tuning.
template <class Archs, class Range, class InIt, class Init, class Op, class Sink>
__global__ void __launch_bounds__(Range::block_threads)
    single_block_reduce_kernel(InIt first, int n, Init init, Op op, Sink result) {
  using A = typename Range::value_type;
  __shared__ typename Range::storage storage;
  bool has_total;  // true: n >= 1
  const A all = Range::reduce(first, n, op, storage, has_total);
  if (threadIdx.x == 0) result.publish(static_cast<A>(op(static_cast<const A&>(init), all)));
}

// Reduces first[0..n) (1 <= n < 2^31) into sink with one block on `stream`.
template <class Build, class Range, class InIt, class Init, class Op, class Sink>
void single_block_reduce(cudaStream_t stream, InIt first, std::int64_t n, const Init& init, Op op,
                         const Sink& sink) {
  single_block_reduce_kernel<typename Build::archs, Range>
      <<<1, Range::block_threads, 0, stream>>>(first, static_cast<int>(n), init, op, sink);
  PSCAN_CUDA_CHECK_LAUNCH();
}

}  // namespace pscan::cuda_common
