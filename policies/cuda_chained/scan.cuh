#pragma once
// The scans of pscan::cuda_chained (cuda_common::kernels<policy>::scan): one kernel launch per
// call, reading the input once and writing the output once (2n of memory traffic, like a copy).
// What fits one register-resident tile goes to the one-block kernel; up to tuning's
// max_cluster_tiles such tiles (half-size ones where those suffice) to the cluster kernel; more to
// the chained kernel with the stream's cached tile state, in small tiles while those number at most
// tuning's small_tiles_per_sm per SM, else in large ones. A segmented input (the segmented scans
// and scans by key) goes to the chained kernel with the segmented tile agent, which reads values,
// flags or keys once each; the look-back carries (aggregate, head) pairs, so a tile that starts a
// segment is its own inclusive prefix.

#include <pscan/policies/cuda_chained/grid/tile_state.cuh>
#include <pscan/policies/cuda_chained/kernels/scan_kernels.cuh>
#include <pscan/policies/cuda_chained/policy.cuh>
#include <pscan/policies/cuda_chained/tuning.cuh>
#include <pscan/policies/cuda_chained/warp/warp_tree_lookback.cuh>

#include <pscan/policies/cuda_common/grouping.cuh>
#include <pscan/policies/cuda_common/tile/tile_input.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/utility.cuh>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>

#include <pscan/error.hpp>
#include <pscan/functional.hpp>
#include <pscan/future_value.hpp>

#include <cstdint>
#include <string>

namespace pscan::cuda_chained_backend {
namespace impl {

// The chained kernel over tiles of ITEMS items per thread.
template <class Build, int ITEMS, bool Exclusive, bool HasInit, class P, class Init, class InIt,
          class OutIt, class Op>
void chained_scan(const P& p, InIt first, std::int64_t n, OutIt out, const Init& init, Op op) {
  using A = pscan::detail::init_value_t<Init>;
  using block = chained_block<Build::target, A, ITEMS, InIt>;
  const std::int64_t tiles = cuda_common::ceil_div<std::int64_t>(n, block::tile::tile_items);
  // Tile ids are 32-bit tickets, the grid is one-dimensional, the tree has at most 5 levels: all
  // far beyond any GPU's memory.
  if (static_cast<std::uint64_t>(tiles) >= tree_max_tiles) {
    throw invalid_argument("pscan::cuda_chained: " + std::to_string(n) + " elements is too many");
  }
  // The tree where the policy asks for determinism and the grouping changes the bits.
  constexpr bool tree = P::is_deterministic && !cuda_common::grouping_free_v<A, Op>;
  const std::uint64_t entries = tree ? tree_entries(tiles) : tiles;
  cuda_common::call_scratch scratch(p, tile_state<A>::buffer_bytes(entries), tile_state<A>::layout);
  const tile_state<A> state(scratch.data(), scratch.epoch());
  const auto launch = [&](auto kernel) {
    runtime::prefer_shared_memory(reinterpret_cast<const void*>(kernel));  // tiles live there
    if constexpr (block::dynamic_shared_bytes > 0) {
      runtime::allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel),
                                               block::dynamic_shared_bytes);
    }
    kernel<<<static_cast<unsigned int>(tiles), block::threads, block::dynamic_shared_bytes,
             p.stream>>>(first, n, out, init, op, state, static_cast<std::uint32_t>(tiles));
    PSCAN_CUDA_CHECK_LAUNCH();
  };
  if constexpr (tree) {
    with_tree_levels(tiles, [&](auto levels) {
      launch(&chained_scan_kernel<typename Build::archs, Exclusive, HasInit, levels, ITEMS, A, InIt, OutIt, Op,
                                  Init>);
    });
  } else {
    launch(&chained_scan_kernel<typename Build::archs, Exclusive, HasInit, 0, ITEMS, A, InIt, OutIt, Op, Init>);
  }
}

// The cluster kernel over tiles of ITEMS items a thread; false (nothing launched) when those
// number more than max_cluster_tiles (0 where the build has no clusters) or than the device can
// hold in one cluster.
template <class Build, int ITEMS, bool Exclusive, bool HasInit, class Init, class InIt,
          class OutIt, class Op>
bool cluster_scan(const cuda_common::policy_state& p, InIt first, std::int64_t n, OutIt out,
                  const Init& init, Op op) {
  using A = pscan::detail::init_value_t<Init>;
  using cfg = tuning<A, Build::target>;
  const std::int64_t tiles = cuda_common::ceil_div(n, std::int64_t{cfg::scan_threads} * ITEMS);
  if (tiles > cfg::max_cluster_tiles) return false;
  const auto kernel =
      &cluster_scan_kernel<typename Build::archs, Exclusive, HasInit, ITEMS, A, InIt, OutIt, Op, Init>;
  if (tiles >
      runtime::max_cluster_blocks(reinterpret_cast<const void*>(kernel), cfg::scan_threads)) {
    return false;
  }
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim = {static_cast<unsigned int>(tiles), 1, 1};
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned int>(tiles));
  config.blockDim = dim3(cfg::scan_threads);
  config.stream = p.stream;
  config.attrs = &cluster;
  config.numAttrs = 1;
  PSCAN_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, first, n, out, init, op));
  return true;
}

}  // namespace impl

}  // namespace pscan::cuda_chained_backend

namespace pscan::cuda_common {

// Init: a value of the accumulator type, or a deferred init (read in the kernel) of that type.
// Register tiles take plain inputs only; a segmented input and reduce_by_key's go to the chained
// kernel.
template <>
template <class Build, bool Exclusive, bool HasInit, class P, class InIt, class OutIt, class Init,
          class Op>
void kernels<cuda_chained_backend::chained>::scan(const P& p, InIt first, std::int64_t n,
                                                  OutIt out, const Init& init, Op op) {
  using namespace cuda_chained_backend;
  using A = pscan::detail::init_value_t<Init>;
  if constexpr (cuda_common::tile_input_v<InIt> == cuda_common::tile_input::values) {
    using cfg = tuning<A, Build::target>;
    if (n <= cfg::register_tile_items) {
      single_block_scan_kernel<typename Build::archs, Exclusive, HasInit, A>
          <<<1, cfg::scan_threads, 0, p.stream>>>(first, n, out, init, op);
      PSCAN_CUDA_CHECK_LAUNCH();
      return;
    }
    if constexpr (cfg::half_register_items > 0) {
      if (impl::cluster_scan<Build, cfg::half_register_items, Exclusive, HasInit>(p, first, n, out,
                                                                                  init, op)) {
        return;
      }
    }
    if (impl::cluster_scan<Build, cfg::register_items, Exclusive, HasInit>(p, first, n, out, init,
                                                                           op)) {
      return;
    }
  }
  using input = chained_input<Build::target, A, InIt>;
  const std::int64_t small_tiles = cuda_common::ceil_div<std::int64_t>(
      n, std::int64_t{tuning<A, Build::target>::scan_threads} * input::small_items);
  if (small_tiles <= std::int64_t{tuning<A, Build::target>::small_tiles_per_sm} *
                         runtime::current_device_info().sm_count) {
    impl::chained_scan<Build, input::small_items, Exclusive, HasInit>(p, first, n, out, init, op);
  } else {
    impl::chained_scan<Build, input::items, Exclusive, HasInit>(p, first, n, out, init, op);
  }
}

}  // namespace pscan::cuda_common
