#pragma once
// inclusive_scan / exclusive_scan of pscan::cuda_chained: one kernel launch per call, reading
// the input once and writing the output once (2n of memory traffic, like a copy). What fits one
// register-resident tile goes to the one-block kernel; more to the chained kernel with the
// stream's cached tile state, in small tiles while those number at most tuning's
// small_tiles_per_sm per SM, else in large ones.

#include <cuda_chained/call_state.cuh>
#include <cuda_chained/lookback_tree.cuh>
#include <cuda_chained/policy.cuh>
#include <cuda_chained/scan_kernels.cuh>
#include <cuda_chained/tile_state.cuh>
#include <cuda_chained/tuning.cuh>

#include <cuda_common/check.cuh>
#include <cuda_common/device_info.cuh>
#include <cuda_common/utility.cuh>

#include <pscan/error.hpp>

#include <cstdint>
#include <iterator>
#include <string>

namespace pscan::chained {
namespace impl {

// The chained kernel over tiles of ITEMS items per thread.
template <int ITEMS, bool Exclusive, bool HasInit, class A, class InIt, class OutIt, class Op>
void chained_scan(const policy& p, InIt first, std::int64_t n, OutIt out, const A& init, Op op) {
  using block = chained_block<A, ITEMS>;
  const std::int64_t tiles = cuda::ceil_div<std::int64_t>(n, block::tile::tile_items);
  // Tile ids are 32-bit tickets, the grid is one-dimensional, the tree has 5 levels: all far
  // beyond any GPU's memory.
  if (static_cast<std::uint64_t>(tiles) >= tree_max_tiles) {
    throw invalid_argument("pscan::cuda_chained: " + std::to_string(n) + " elements is too many");
  }
  const std::uint64_t entries = p.is_deterministic ? tree_entries(tiles) : tiles;
  call_state scratch(p, tile_state<A>::buffer_bytes(entries), tile_state<A>::layout);
  const tile_state<A> state(scratch.data(), scratch.epoch());
  const auto launch = [&](auto kernel) {
    cuda::prefer_shared_memory(reinterpret_cast<const void*>(kernel));  // tiles live there
    kernel<<<static_cast<unsigned int>(tiles), block::threads, 0, p.stream>>>(
        first, n, out, init, op, state, static_cast<std::uint32_t>(tiles));
    PSCAN_CUDA_CHECK_LAUNCH();
  };
  if (p.is_deterministic) {
    launch(&chained_scan_kernel<Exclusive, HasInit, true, ITEMS, A, InIt, OutIt, Op>);
  } else {
    launch(&chained_scan_kernel<Exclusive, HasInit, false, ITEMS, A, InIt, OutIt, Op>);
  }
}

template <bool Exclusive, bool HasInit, class A, class InIt, class OutIt, class Op>
void scan(const policy& p, InIt first, InIt last, OutIt out, const A& init, Op op) {
  using cfg = tuning<A>;
  const std::int64_t n = last - first;
  if (n <= cfg::single_block_tile_items) {
    single_block_scan_kernel<Exclusive, HasInit, A>
        <<<1, cfg::scan_threads, 0, p.stream>>>(first, n, out, init, op);
    PSCAN_CUDA_CHECK_LAUNCH();
    return;
  }
  const std::int64_t small_tiles = cuda::ceil_div<std::int64_t>(n, cfg::small_tile_items);
  if (small_tiles <= std::int64_t{cfg::small_tiles_per_sm} * cuda::current_device_info().sm_count) {
    chained_scan<cfg::small_scan_items, Exclusive, HasInit>(p, first, n, out, init, op);
  } else {
    chained_scan<cfg::scan_items, Exclusive, HasInit>(p, first, n, out, init, op);
  }
}

}  // namespace impl

template <class InIt, class OutIt, class Op>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op) {
  using A = typename std::iterator_traits<InIt>::value_type;
  impl::scan<false, false, A>(p, first, last, out, A{}, op);
}

template <class InIt, class OutIt, class Op, class T>
void inclusive_scan(const policy& p, InIt first, InIt last, OutIt out, Op op, T init) {
  impl::scan<false, true, T>(p, first, last, out, init, op);
}

template <class InIt, class OutIt, class T, class Op>
void exclusive_scan(const policy& p, InIt first, InIt last, OutIt out, T init, Op op) {
  impl::scan<true, true, T>(p, first, last, out, init, op);
}

}  // namespace pscan::chained
