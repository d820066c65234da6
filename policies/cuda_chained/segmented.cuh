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
#include <cuda_common/runtime/device_info.cuh>
#include <cuda_common/tile/segmented_tile_scan.cuh>

#include <pscan/detail/segmented_generic.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::chained {
namespace impl {

// T: the values' type (inclusive) or the init's (exclusive). One launch of the chained kernel,
// in small tiles while those number at most small_tiles_per_sm per SM.
template <bool Exclusive, class T, class InIt, class Heads, class OutIt, class Init, class Op>
void segmented_scan(const policy& p, InIt values, std::int64_t n, Heads heads, OutIt out,
                    const Init& init, Op op) {
  using cfg = tuning<T>;
  using A = pscan::detail::flagged<T>;
  const cuda::segmented_input<InIt, Heads, Init> in{values, heads, init};
  const pscan::detail::lifted_op<Op> lifted{op};
  const std::int64_t small_tiles = cuda::ceil_div<std::int64_t>(n, cfg::small_tile_items);
  if (small_tiles <= std::int64_t{cfg::small_tiles_per_sm} * cuda::current_device_info().sm_count) {
    chained_scan<cfg::small_scan_items, Exclusive, false>(p, in, n, out, A{}, lifted);
  } else {
    chained_scan<cfg::scan_items, Exclusive, false>(p, in, n, out, A{}, lifted);
  }
}

}  // namespace impl

template <class InIt, class FlagIt, class OutIt, class Op>
void segmented_inclusive_scan(const policy& p, InIt first, InIt last, FlagIt head_flags,
                              OutIt out, Op op) {
  using T = typename std::iterator_traits<InIt>::value_type;
  impl::segmented_scan<false, T>(p, first, last - first,
                                 pscan::detail::flag_heads<FlagIt>{head_flags}, out,
                                 cuda::no_init{}, op);
}

template <class InIt, class FlagIt, class OutIt, class Init, class Op>
void segmented_exclusive_scan(const policy& p, InIt first, InIt last, FlagIt head_flags,
                              OutIt out, Init init, Op op) {
  using T = pscan::detail::init_value_t<Init>;
  impl::segmented_scan<true, T>(p, first, last - first,
                                pscan::detail::flag_heads<FlagIt>{head_flags}, out, init, op);
}

template <class KeyIt, class InIt, class OutIt, class Op, class KeyEq>
void inclusive_scan_by_key(const policy& p, KeyIt keys_first, KeyIt keys_last, InIt values,
                           OutIt out, Op op, KeyEq eq) {
  using T = typename std::iterator_traits<InIt>::value_type;
  impl::segmented_scan<false, T>(p, values, keys_last - keys_first,
                                 pscan::detail::key_heads<KeyIt, KeyEq>{keys_first, eq}, out,
                                 cuda::no_init{}, op);
}

template <class KeyIt, class InIt, class OutIt, class Init, class Op, class KeyEq>
void exclusive_scan_by_key(const policy& p, KeyIt keys_first, KeyIt keys_last, InIt values,
                           OutIt out, Init init, Op op, KeyEq eq) {
  using T = pscan::detail::init_value_t<Init>;
  impl::segmented_scan<true, T>(p, values, keys_last - keys_first,
                                pscan::detail::key_heads<KeyIt, KeyEq>{keys_first, eq}, out, init,
                                op);
}

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  cuda::reduce_segments(p, values, offsets_first, offsets_last, out, init, op);
}

}  // namespace pscan::chained
