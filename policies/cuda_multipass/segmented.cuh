#pragma once
// Segmented algorithms of pscan::cuda_multipass. Segmented scans by head flags and by key run the
// fused segmented tile agent (cuda_common/tile/segmented_tile_scan.cuh) in this backend's
// reduce-then-scan: the upsweep reduces each tile to (aggregate, head), the levels above scan
// those pairs with the lifted operator, the downsweep rescans each tile from its carry.
// segmented_reduce is the one both CUDA backends share
// (cuda_common/algorithms/segmented_reduce.cuh).

#include <cuda_multipass/policy.cuh>
#include <cuda_multipass/scan.cuh>

#include <cuda_common/algorithms/segmented_reduce.cuh>
#include <cuda_common/runtime/temporary.cuh>
#include <cuda_common/tile/segmented_tile_scan.cuh>

#include <pscan/detail/segmented_generic.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::multipass {
namespace impl {

// T: the values' type (inclusive) or the init's (exclusive).
template <bool Exclusive, class T, class InIt, class Heads, class OutIt, class Init, class Op>
void segmented_scan(const policy& p, InIt values, std::int64_t n, Heads heads, OutIt out,
                    const Init& init, Op op) {
  using A = pscan::detail::flagged<T>;
  using Input = cuda::segmented_input<InIt, Heads, Init>;
  const std::int64_t scratch = scratch_elements<A>(n, level_tile_for<A, Input>::tile_items);
  cuda::temporary_buffer<A> totals(static_cast<std::size_t>(scratch), p);
  scan_level<Exclusive, false, A>(Input{values, heads, init}, n, out, A{},
                                  pscan::detail::lifted_op<Op>{op}, totals.data(), p.stream);
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

}  // namespace pscan::multipass
