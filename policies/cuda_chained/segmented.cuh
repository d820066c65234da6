#pragma once
// Segmented algorithms of pscan::cuda_chained. Segmented scans by head flags and by key are fused
// into the chained scan kernel: the segmented tile agent (cuda_common/tile/segmented_tile_scan.cuh)
// reads values, flags or keys once each, and the look-back carries (aggregate, head) pairs, so a
// tile that starts a segment is its own inclusive prefix. segmented_reduce is the one both CUDA
// backends share (cuda_common/algorithms/segmented_reduce.cuh), on this policy's stream and
// resource.

#include <cuda_chained/policy.cuh>
#include <cuda_chained/scan.cuh>

#include <cuda_common/algorithms/segmented_reduce.cuh>
#include <cuda_common/algorithms/segmented_scans.cuh>
#include <cuda_common/runtime/device_info.cuh>
#include <cuda_common/target.cuh>
#include <cuda_common/tile/segmented_tile_scan.cuh>

#include <pscan/detail/segmented_generic.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::chained {

// The four segmented scans (cuda_common/algorithms/segmented_scans.cuh) as one launch of the
// chained kernel, in small tiles while those number at most small_tiles_per_sm per SM.
template <class InIt, class Heads, class OutIt, class Init, class Op>
void fused_segmented_scan(const policy& p, InIt values, std::int64_t n, Heads heads, OutIt out,
                          const Init& init, Op op) {
  using T = cuda::segmented_value_t<InIt, Init>;
  using A = pscan::detail::flagged<T>;
  constexpr bool exclusive = !std::is_same_v<Init, cuda::no_init>;
  const cuda::segmented_input<InIt, Heads, Init> in{values, heads, init};
  const pscan::detail::lifted_op<Op> lifted{op};
  cuda::with_build([&](auto build) {
    using Build = decltype(build);
    using cfg = tuning<T, Build::target>;
    const std::int64_t small_tiles = cuda::ceil_div<std::int64_t>(n, cfg::small_tile_items);
    if (small_tiles <=
        std::int64_t{cfg::small_tiles_per_sm} * cuda::current_device_info().sm_count) {
      impl::chained_scan<Build, cfg::small_scan_items, exclusive, false>(p, in, n, out, A{},
                                                                         lifted);
    } else {
      impl::chained_scan<Build, cfg::scan_items, exclusive, false>(p, in, n, out, A{}, lifted);
    }
  });
}

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  cuda::reduce_segments(p, values, offsets_first, offsets_last, out, init, op);
}

}  // namespace pscan::chained
