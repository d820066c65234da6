#pragma once
// offsets_scan_kernel, the one launch of cuda_chained's scans by offsets (offsets_scan.cuh, which
// says how it works): each block a stretch (tile/offsets_scan_stretch.cuh).

#include <pscan/policies/cuda_chained/tile/offsets_scan_stretch.cuh>

#include <pscan/policies/cuda_common/target.cuh>

#include <cstdint>

namespace pscan::cuda_chained_backend {

template <class Archs, bool Exclusive, class T, class InIt, class OffIt, class OutIt, class Init,
          class Op>
__global__ void __launch_bounds__(
    offsets_scan_block<cuda_common::compiled_target, T>::threads,
    cuda_common::min_blocks_hint(offsets_scan_block<cuda_common::compiled_target, T>::min_blocks_per_sm,
                                        offsets_scan_block<cuda_common::compiled_target, T>::threads))
    offsets_scan_kernel(InIt values, OffIt offsets, std::int64_t count, OutIt out, Init init,
                        Op op, tile_state<pscan::detail::flagged<T>> state,
                        unsigned long long* report) {
  scan_offsets_stretch<Exclusive, T>(values, offsets, count, out, init, op, state, report);
}

}  // namespace pscan::cuda_chained_backend
