#pragma once
// The scans by offsets of pscan::cuda_chained, sized on the device: the elements' range
// [offsets[0], offsets[count-1]) is read by the kernel, so the host waits for nothing and the call
// can be captured into a graph. One wave of blocks, each drawing a stretch by ticket (so every
// earlier stretch's block already runs), learning the stretch's carry by the decoupled look-back
// over the stretches before it, and publishing what the stretches after it need:
//  - up to a tile a block (inputs up to ~4M 4-byte elements on an H200): stretches of at most a
//    tile, in shares of two warps' at least, spread over the blocks; the tile's total is the
//    stretch's aggregate, published and looked back from within the segmented tile agent, as in
//    the chained kernel;
//  - longer: stretches of whole tiles, one a block. The block first reduces its stretch's tail,
//    from its last segment start (found in the offsets) to its end, all of it where none starts
//    in it, and publishes it (a tail that begins a segment is its own inclusive prefix); then
//    looks back and scans its tiles one after another, carrying from tile to tile. A tail is as
//    long as the stretch's last segment: the stretch is read twice only where one segment
//    covers it, and past its first tile the tail holds no segment start, so it is read as a
//    plain reduce reads (block_range_reduce), not through the segmented agent.
// The offsets are checked in the same kernel, each block reporting the first bad one of its share
// (policy_base::synchronize): for short inputs, every block an equal share by index (those
// without a stretch too); for long ones, each block the offsets of its own positions (bounds that
// meet end to end, as neighbours compute the same ones; bounds out of order mean offsets out of
// order, and that block names the first bad one of all), each tile an equal slice of them. Bad
// offsets never move a read or write outside [offsets[0], offsets[count-1])
// (nothing at all when those two are bad).

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/kernels/offsets_scan_kernel.cuh>
#include <pscan/policies/cuda_chained/policy.cuh>

#include <pscan/policies/cuda_common/grouping.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/runtime/device_info.cuh>

#include <pscan/detail/segmented_generic.hpp>

#include <cstdint>

namespace pscan::cuda_common {

// A deterministic policy over an operator whose grouping changes the bits is declined: the
// stretches' look-back groups as timing has it, the chained kernel's tree does not.
template <>
template <class Build, bool Exclusive, class P, class InIt, class OffIt, class OutIt, class Init,
          class Op>
bool kernels<cuda_chained_backend::chained>::scan_by_offsets(const P& p, InIt values,
                                                             OffIt offsets, std::int64_t count,
                                                             OutIt out, const Init& init, Op op) {
  using namespace cuda_chained_backend;
  using T = segmented_value_t<InIt, Init>;
  using A = pscan::detail::flagged<T>;
  using block = offsets_scan_block<Build::target, T>;
  if constexpr (P::is_deterministic && !grouping_free_v<A, pscan::detail::lifted_op<Op>>) {
    return false;
  }
  const auto kernel = &offsets_scan_kernel<typename Build::archs, Exclusive, T, InIt, OffIt, OutIt, Init, Op>;
  runtime::prefer_shared_memory(reinterpret_cast<const void*>(kernel));  // tiles live there
  // One wave: the element count is the device's to read.
  const runtime::device_info& device = runtime::current_device_info();
  const std::int64_t blocks =
      std::int64_t{device.sm_count} *
      std::max(1, runtime::max_active_blocks_per_sm(reinterpret_cast<const void*>(kernel),
                                                    block::threads));
  const call_scratch scratch(p, tile_state<A>::buffer_bytes(static_cast<std::uint64_t>(blocks)),
                             tile_state<A>::layout);
  kernel<<<static_cast<unsigned>(blocks), block::threads, 0, p.stream>>>(
      values, offsets, count, out, init, op, tile_state<A>(scratch.data(), scratch.epoch()),
      device.bad_offsets_report);
  PSCAN_CUDA_CHECK_LAUNCH();
  return true;
}

}  // namespace pscan::cuda_common
