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
#include <cuda_common/algorithms/segmented_scans.cuh>
#include <cuda_common/runtime/temporary.cuh>
#include <cuda_common/target.cuh>
#include <cuda_common/tile/segmented_tile_scan.cuh>

#include <pscan/detail/segmented_generic.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::multipass {

// The four segmented scans (cuda_common/algorithms/segmented_scans.cuh): one level of this
// backend's reduce-then-scan over the segmented input, the levels above over (aggregate, head).
template <class InIt, class Heads, class OutIt, class Init, class Op>
void fused_segmented_scan(const policy& p, InIt values, std::int64_t n, Heads heads, OutIt out,
                          const Init& init, Op op) {
  using A = pscan::detail::flagged<cuda::segmented_value_t<InIt, Init>>;
  using Input = cuda::segmented_input<InIt, Heads, Init>;
  constexpr bool exclusive = !std::is_same_v<Init, cuda::no_init>;
  cuda::with_build([&](auto build) {
    using Build = decltype(build);
    const std::int64_t scratch =
        impl::scratch_elements<Build, A>(n, impl::level_tile_for<Build, A, Input>::tile_items);
    cuda::temporary_buffer<A> totals(static_cast<std::size_t>(scratch), p);
    impl::scan_level<Build, exclusive, false, A>(Input{values, heads, init}, n, out, A{},
                                                 pscan::detail::lifted_op<Op>{op}, totals.data(),
                                                 p.stream);
  });
}

template <class InIt, class OffIt, class OutIt, class T, class Op>
void segmented_reduce(const policy& p, InIt values, OffIt offsets_first, OffIt offsets_last,
                      OutIt out, T init, Op op) {
  cuda::reduce_segments(p, values, offsets_first, offsets_last, out, init, op);
}

}  // namespace pscan::multipass
