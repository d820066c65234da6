#pragma once
// segmented_reduce of both CUDA backends, balanced by elements rather than by segments (Merrill &
// Garland's merge-based SpMV, 2016): the segment ends and the elements, merged, are cut into one
// contiguous stretch a block for one wave of blocks, so the time follows the bytes whatever the
// segment lengths.
// One kernel, segmented_reduce_kernel (kernels/segmented_reduce_kernel.cuh), whose walks check the
// offsets as they arrive; bad ones go to the device's report (policy_base::synchronize). The
// checked mode queues the kernel behind check_offsets_kernel, which it skips when the check found
// a bad offset, and waits for the check's result only (the two run back to back). The combination
// order depends only on the sizes and the grid, so results are the same bits from run to run.

#include <pscan/policies/cuda_common/algorithms/checked_offsets.cuh>
#include <pscan/policies/cuda_common/algorithms/exact_scan.cuh>
#include <pscan/policies/cuda_common/kernels/segmented_reduce_kernel.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/runtime/call_scratch.cuh>
#include <pscan/policies/cuda_common/target.cuh>
#include <pscan/policies/cuda_common/tuning.cuh>
#include <pscan/runtime/check.cuh>
#include <pscan/runtime/device_info.cuh>

#include <pscan/detail/index_iterator.hpp>
#include <pscan/detail/segmented_generic.hpp>
#include <pscan/segmented.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace pscan::cuda_common {

// segmented_reduce of the CUDA policies (found by argument-dependent lookup through their common
// base), on the policy's stream with its resource. `init`: a value, or a deferred init read in
// the kernel. One kernel; unchecked, no wait: bad offsets are reported by a later synchronize() of
// a policy; checked, they are thrown here after a wait for the check only, the kernel having
// written nothing.
template <class Derived, class InIt, class OffIt, class OutIt, class Init, class Op>
void segmented_reduce(const policy_base<Derived>& p, InIt values, OffIt offsets_first,
                      OffIt offsets_last, OutIt out, Init init, Op op) {
  using A = pscan::detail::init_value_t<Init>;
  const std::int64_t count = offsets_last - offsets_first;
  std::optional<offsets_check_in_flight> check;
  if (p.is_checked) {
    check.emplace(p, "pscan::segmented_reduce", offsets_first, count,
                  "; capture the call without .checked()");
  }
  const std::int64_t segments = count - 1;
  with_build([&](auto build) {
    using Build = decltype(build);
    using cfg = segmented_reduce_tuning<A, Build::target>;
    using warp = segmented_reduce_warp<A, cfg::items>;
    const auto kernel =
        &segmented_reduce_kernel<typename Build::archs, A, InIt, OffIt, OutIt, Op, Init>;
    constexpr int shared_bytes =
        static_cast<int>(sizeof(typename warp::storage)) * (cfg::block_threads / warp_threads);
    runtime::allow_dynamic_shared_memory(reinterpret_cast<const void*>(kernel), shared_bytes);
    // One wave: the element count is the device's to read.
    const runtime::device_info& device = runtime::current_device_info();
    const std::int64_t blocks =
        std::int64_t{device.sm_count} *
        std::max(1, runtime::max_active_blocks_per_sm(reinterpret_cast<const void*>(kernel),
                                             cfg::block_threads, shared_bytes));
    // The counters at the head, then the blocks' records.
    static_assert(sizeof(segmented_reduce_state) <= scratch_head_bytes);
    const call_scratch scratch(
        p, scratch_head_bytes + sizeof(stretch_record<A>) * static_cast<std::size_t>(blocks),
        untagged_layout);
    kernel<<<static_cast<unsigned>(blocks), cfg::block_threads, shared_bytes, p.stream>>>(
        values, offsets_first, segments, scratch.entries<stretch_record<A>>(),
        static_cast<segmented_reduce_state*>(scratch.data()), device.bad_offsets_report,
        check ? check->gate() : nullptr, out, init, op);
    PSCAN_CUDA_CHECK_LAUNCH();
  });
  if (check) check->wait();
}

// Each non-empty segment's exact sum from init, for offsets[0 .. count) known to be valid and
// to cover values [first, last): exact_scan.cuh's inclusive scan over the segments, rounding and
// writing each one's last output only. init: a value or a future_value.
template <class P, class OffIt, class InIt, class OutIt, class Init>
void exact_segment_sums(const policy_base<P>& p, OffIt offsets_first, std::int64_t count,
                        std::int64_t first, std::int64_t last, InIt values, OutIt out,
                        const Init& init) {
  const exact_scan_impl::segment_sums_output<OffIt, OutIt> sums{{offsets_first, count, first},
                                                                  out};
  exact_scan_from<exact_outputs::segment_ends>(
      p, values + first, last - first, pscan::detail::make_index_iterator(sums), true,
      pscan::detail::offset_heads<OffIt>{offsets_first, count, first}, init);
}

// exact_plus's segmented_reduce (the exact_algorithm hook, pscan/detail/dispatch.hpp): the
// offsets checked first (a wait), the empty segments' init, then the others' exact sums.
template <class P, class OffIt, class InIt, class OutIt, class Init>
OutIt exact_algorithm(const policy_base<P>& p, pscan::detail::algorithm::segmented_reduce,
                      OffIt offsets_first, OffIt offsets_last, InIt values, OutIt out,
                      const Init& init) {
  using T = pscan::detail::init_value_t<Init>;
  const std::int64_t count = offsets_last - offsets_first;
  const std::int64_t segments = count - 1;
  const offsets_check range =
      check_offsets(p, "pscan::segmented_reduce", offsets_first, count,
                    "; with exact_plus segmented_reduce checks them first, so it cannot be "
                    "captured");
  const std::int64_t blocks = std::min<std::int64_t>(
      ceil_div(segments, std::int64_t{exact_scan_impl::threads}),
      std::int64_t{runtime::current_device_info().sm_count} * 8);
  exact_scan_impl::empty_segments_kernel<compiled_archs, T>
      <<<static_cast<unsigned>(blocks), exact_scan_impl::threads, 0, p.stream>>>(
          offsets_first, segments, init, out);
  PSCAN_CUDA_CHECK_LAUNCH();
  exact_segment_sums(p, offsets_first, count, range.first, range.last, values, out, init);
  return out + segments;
}

}  // namespace pscan::cuda_common
