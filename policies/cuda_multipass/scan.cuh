#pragma once
// The scans of pscan::cuda_multipass (cuda_common::kernels<policy>::scan): reduce-then-scan,
// recursively.
//   1. upsweep:   each tile (block_threads x items) reduces to its total      (reads n)
//   2. the tile totals are scanned by this same algorithm, as many levels as n needs (the last
//      level is one tile, scanned by a single block); init, when given, enters there
//   3. downsweep: each tile rescans its input with the carry-in from the scanned totals and
//      writes the result                                                      (reads n, writes n)
// 3n of memory traffic, against 4n for scan-then-add. No identity: tile 0 has no carry-in unless
// there is an init. In place is safe: the upsweep only writes totals, and each downsweep block
// reads its tile before writing it. A segmented input (the segmented scans and scans by key) runs
// the segmented tile agent in the same levels: the upsweep reduces each tile to (aggregate,
// head), the levels above scan those pairs with the lifted operator.

#include <pscan/policies/cuda_multipass/kernels/scan_kernels.cuh>
#include <pscan/policies/cuda_multipass/policy.cuh>
#include <pscan/policies/cuda_multipass/tuning.cuh>

#include <pscan/policies/cuda_common/launch.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/runtime/check.cuh>

#include <pscan/future_value.hpp>

#include <cstdint>

namespace pscan::cuda_multipass_backend {
namespace impl {

// Elements of the tile totals of one level, padded so that every level starts 16-byte aligned.
inline std::int64_t padded_totals(std::int64_t tiles) {
  return cuda_common::ceil_div<std::int64_t>(tiles, 16) * 16;
}

// Scratch for the totals of every level a scan of n elements in tiles of `tile_items` needs.
template <class Build, class A>
std::int64_t scratch_elements(std::int64_t n, std::int64_t tile_items) {
  std::int64_t elements = 0;
  for (std::int64_t tiles = cuda_common::ceil_div<std::int64_t>(n, tile_items); tiles > 1;
       tiles = cuda_common::ceil_div<std::int64_t>(tiles, tuning<A, Build::target>::tile_items)) {
    elements += padded_totals(tiles);
  }
  return elements;
}

// One level: upsweep into this level's totals, scan them in place (the next levels use the
// scratch after them), downsweep. A single tile needs no totals: it is scanned directly. Init: a
// value of type A, or a deferred init (read in the kernel) of that type.
template <class Build, bool Exclusive, bool HasInit, class A, class InIt, class OutIt, class Init,
          class Op>
void scan_level(InIt first, std::int64_t n, OutIt out, const Init& init, Op op, A* scratch,
                cudaStream_t stream) {
  using cfg = tuning<A, Build::target>;
  const std::int64_t tiles =
      cuda_common::ceil_div<std::int64_t>(n, level_tile_for<Build, A, InIt>::tile_items);
  A* totals = nullptr;
  if (tiles > 1) {
    totals = scratch;
    if constexpr (agent_reduces_v<InIt>) {
      segmented_upsweep_kernel<typename Build::archs, Exclusive, A>
          <<<cuda_common::grid_for(tiles), cfg::block_threads, 0, stream>>>(first, n, totals, op);
    } else {
      upsweep_kernel<typename Build::archs, A>
          <<<cuda_common::grid_for(tiles), cfg::block_threads, 0, stream>>>(first, n, totals, op);
    }
    PSCAN_CUDA_CHECK_LAUNCH();
    // totals[t] becomes init op total[0] op ... op total[t]: the carry-in of tile t + 1.
    scan_level<Build, false, HasInit, A>(totals, tiles, totals, init, op,
                                         scratch + padded_totals(tiles), stream);
  }
  downsweep_kernel<typename Build::archs, Exclusive, HasInit, A>
      <<<cuda_common::grid_for(tiles), cfg::block_threads, 0, stream>>>(first, n, out, totals, init,
                                                                        op);
  PSCAN_CUDA_CHECK_LAUNCH();
}

}  // namespace impl

}  // namespace pscan::cuda_multipass_backend

namespace pscan::cuda_common {

// The scratch holds every level's tile totals.
template <>
template <class Build, bool Exclusive, bool HasInit, class P, class InIt, class OutIt, class Init,
          class Op>
void kernels<cuda_multipass_backend::multipass>::scan(const P& p, InIt first, std::int64_t n,
                                                      OutIt out, const Init& init, Op op) {
  using namespace cuda_multipass_backend;
  using A = pscan::detail::init_value_t<Init>;
  const auto elements = static_cast<std::size_t>(
      impl::scratch_elements<Build, A>(n, impl::level_tile_for<Build, A, InIt>::tile_items));
  const cuda_common::call_scratch scratch(p, cuda_common::scratch_head_bytes + sizeof(A) * elements,
                                          cuda_common::untagged_layout);
  impl::scan_level<Build, Exclusive, HasInit, A>(first, n, out, init, op, scratch.entries<A>(),
                                                 p.stream);
}

}  // namespace pscan::cuda_common
