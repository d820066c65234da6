#pragma once
// The segmented scans of the CUDA policies (found by argument-dependent lookup through their
// common base, cuda_common::policy_base): each names its segments by a head source of
// include/pscan/detail/segmented_generic.hpp and scans the segmented input
// (tile/segmented_tile_scan.cuh: values and heads read once each, (value, head) accumulators)
// with the lifted operator, by the backend's kernels::scan. init is cuda_common::no_init for the
// inclusive scans. The returning scans by offsets first check the offsets and wait, learning the
// range that sizes the kernels (and the end they return); those returning nothing, where the
// backend sizes them on the device (cuda_chained: offsets_scan.cuh), are one launch that checks
// the offsets as it reads them.

#include <pscan/policies/cuda_common/algorithms/checked_offsets.cuh>
#include <pscan/policies/cuda_common/algorithms/exact_scan.cuh>
#include <pscan/policies/cuda_common/algorithms/scans.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/tile/segmented_tile_scan.cuh>

#include <pscan/detail/segmented_generic.hpp>
#include <pscan/segmented.hpp>

#include <cstdint>
#include <type_traits>

namespace pscan::cuda_common {

template <class P, class InIt, class Heads, class OutIt, class Init, class Op>
void scan_segments(const policy_base<P>& p, InIt values, std::int64_t n, Heads heads, OutIt out,
                   const Init& init, Op op) {
  using A = pscan::detail::flagged<segmented_value_t<InIt, Init>>;
  scan_with_kernels<!std::is_same_v<Init, no_init>, false>(
      p, segmented_input<InIt, Heads, Init>{values, heads, init}, n, out, A{},
      pscan::detail::lifted_op<Op>{op});
}

template <class P, class InIt, class FlagIt, class OutIt, class Op>
void segmented_inclusive_scan(const policy_base<P>& p, InIt first, InIt last, FlagIt head_flags,
                              OutIt out, Op op) {
  scan_segments(p, first, last - first, pscan::detail::flag_heads<FlagIt>{head_flags}, out,
                no_init{}, op);
}

template <class P, class InIt, class FlagIt, class OutIt, class Init, class Op>
void segmented_exclusive_scan(const policy_base<P>& p, InIt first, InIt last, FlagIt head_flags,
                              OutIt out, Init init, Op op) {
  scan_segments(p, first, last - first, pscan::detail::flag_heads<FlagIt>{head_flags}, out, init,
                op);
}

template <class P, class KeyIt, class InIt, class OutIt, class Op, class KeyEq>
void inclusive_scan_by_key(const policy_base<P>& p, KeyIt keys_first, KeyIt keys_last,
                           InIt values, OutIt out, Op op, KeyEq eq) {
  scan_segments(p, values, keys_last - keys_first,
                pscan::detail::key_heads<KeyIt, KeyEq>{keys_first, eq}, out, no_init{}, op);
}

template <class P, class KeyIt, class InIt, class OutIt, class Init, class Op, class KeyEq>
void exclusive_scan_by_key(const policy_base<P>& p, KeyIt keys_first, KeyIt keys_last,
                           InIt values, OutIt out, Init init, Op op, KeyEq eq) {
  scan_segments(p, values, keys_last - keys_first,
                pscan::detail::key_heads<KeyIt, KeyEq>{keys_first, eq}, out, init, op);
}

// The scan by offsets sized on the device, where P's backend has it; false when it has not (or
// declines the call), and nothing is launched.
template <class P, class InIt, class OffIt, class OutIt, class Init, class Op>
bool scan_sized_on_device(const policy_base<P>& p, InIt values, OffIt offsets, std::int64_t count,
                          OutIt out, const Init& init, Op op) {
  if constexpr (P::sizes_offsets_on_device) {
    return with_build([&](auto build) {
      return kernels_of<P>::template scan_by_offsets<decltype(build), !std::is_same_v<Init, no_init>>(
          static_cast<const P&>(p), values, offsets, count, out, init, op);
    });
  } else {
    return false;
  }
}

// The returning scans by offsets: the offsets checked first (a wait, and their range learnt),
// then the backend's segmented scan over that range, sized on the host.
template <class P, class InIt, class OffIt, class OutIt, class Init, class Op>
OutIt scan_by_offsets(const policy_base<P>& p, const char* name, const char* remedy, InIt values,
                      OffIt offsets, std::int64_t count, OutIt out, const Init& init, Op op) {
  const offsets_check range = check_offsets(p, name, offsets, count, remedy);
  if (range.last > range.first) {
    scan_segments(p, values + range.first, range.last - range.first,
                  pscan::detail::offset_heads<OffIt>{offsets, count, range.first},
                  out + range.first, init, op);
  }
  return out + range.last;
}

// The scans by offsets returning nothing: no wait where the backend sizes them on the device,
// unless the policy is checked.
template <class P, class InIt, class OffIt, class OutIt, class Init, class Op>
void scan_by_offsets_into(const policy_base<P>& p, const char* name, InIt values, OffIt offsets,
                          std::int64_t count, OutIt out, const Init& init, Op op) {
  if (p.is_checked || !scan_sized_on_device(p, values, offsets, count, out, init, op)) {
    scan_by_offsets(p, name, "; capture the call without .checked()", values, offsets, count, out,
                    init, op);
  }
}

template <class P, class InIt, class OffIt, class OutIt, class Op>
OutIt inclusive_scan_by_offsets(const policy_base<P>& p, InIt values, OffIt offsets_first,
                                OffIt offsets_last, OutIt out, Op op) {
  return scan_by_offsets(p, "pscan::inclusive_scan_by_offsets",
                         "; inclusive_scan_by_offsets_into can be captured", values,
                         offsets_first, offsets_last - offsets_first, out, no_init{}, op);
}

template <class P, class InIt, class OffIt, class OutIt, class Init, class Op>
OutIt exclusive_scan_by_offsets(const policy_base<P>& p, InIt values, OffIt offsets_first,
                                OffIt offsets_last, OutIt out, Init init, Op op) {
  return scan_by_offsets(p, "pscan::exclusive_scan_by_offsets",
                         "; exclusive_scan_by_offsets_into can be captured", values,
                         offsets_first, offsets_last - offsets_first, out, init, op);
}

template <class P, class InIt, class OffIt, class OutIt, class Op>
void inclusive_scan_by_offsets_into(const policy_base<P>& p, InIt values, OffIt offsets_first,
                                    OffIt offsets_last, OutIt out, Op op) {
  scan_by_offsets_into(p, "pscan::inclusive_scan_by_offsets_into", values, offsets_first,
                       offsets_last - offsets_first, out, no_init{}, op);
}

template <class P, class InIt, class OffIt, class OutIt, class Init, class Op>
void exclusive_scan_by_offsets_into(const policy_base<P>& p, InIt values, OffIt offsets_first,
                                    OffIt offsets_last, OutIt out, Init init, Op op) {
  scan_by_offsets_into(p, "pscan::exclusive_scan_by_offsets_into", values, offsets_first,
                       offsets_last - offsets_first, out, init, op);
}

// exact_plus's segmented scans (the exact_algorithm hook, pscan/detail/dispatch.hpp, in its
// argument order): exact_scan.cuh's kernels over the values, in the segments their heads start.
// The scans by offsets, returning or not, check the offsets first (a wait).
template <class P, class FlagIt, class InIt, class OutIt>
OutIt exact_algorithm(const policy_base<P>& p,
                      pscan::detail::algorithm::segmented_inclusive_scan, FlagIt head_flags,
                      std::int64_t n, InIt first, OutIt out) {
  return exact_scan_from(p, first, n, out, true, pscan::detail::flag_heads<FlagIt>{head_flags});
}

template <class P, class FlagIt, class InIt, class OutIt, class Init>
OutIt exact_algorithm(const policy_base<P>& p,
                      pscan::detail::algorithm::segmented_exclusive_scan, FlagIt head_flags,
                      std::int64_t n, InIt first, OutIt out, const Init& init) {
  return exact_scan_from(p, first, n, out, false, pscan::detail::flag_heads<FlagIt>{head_flags},
                         init);
}

template <class P, class KeyIt, class KeyEq, class InIt, class OutIt>
OutIt exact_algorithm(const policy_base<P>& p, pscan::detail::algorithm::inclusive_scan_by_key,
                      KeyIt keys_first, KeyIt keys_last, KeyEq eq, InIt values, OutIt out) {
  return exact_scan_from(p, values, keys_last - keys_first, out, true,
                         pscan::detail::key_heads<KeyIt, KeyEq>{keys_first, eq});
}

template <class P, class KeyIt, class KeyEq, class InIt, class OutIt, class Init>
OutIt exact_algorithm(const policy_base<P>& p, pscan::detail::algorithm::exclusive_scan_by_key,
                      KeyIt keys_first, KeyIt keys_last, KeyEq eq, InIt values, OutIt out,
                      const Init& init) {
  return exact_scan_from(p, values, keys_last - keys_first, out, false,
                         pscan::detail::key_heads<KeyIt, KeyEq>{keys_first, eq}, init);
}

template <class P, class OffIt, class InIt, class OutIt, class... Init>
OutIt exact_scan_by_offsets(const policy_base<P>& p, const char* name, bool inclusive,
                            OffIt offsets_first, OffIt offsets_last, InIt values, OutIt out,
                            const Init&... init) {
  const std::int64_t count = offsets_last - offsets_first;
  const offsets_check range =
      check_offsets(p, name, offsets_first, count,
                    "; with exact_plus a scan by offsets checks them first, so it cannot be "
                    "captured");
  exact_scan_from(p, values + range.first, range.last - range.first, out + range.first,
                  inclusive, pscan::detail::offset_heads<OffIt>{offsets_first, count, range.first},
                  init...);
  return out + range.last;
}

template <class P, class OffIt, class InIt, class OutIt>
OutIt exact_algorithm(const policy_base<P>& p,
                      pscan::detail::algorithm::inclusive_scan_by_offsets, OffIt offsets_first,
                      OffIt offsets_last, InIt values, OutIt out) {
  return exact_scan_by_offsets(p, "pscan::inclusive_scan_by_offsets", true, offsets_first,
                               offsets_last, values, out);
}

template <class P, class OffIt, class InIt, class OutIt, class Init>
OutIt exact_algorithm(const policy_base<P>& p,
                      pscan::detail::algorithm::exclusive_scan_by_offsets, OffIt offsets_first,
                      OffIt offsets_last, InIt values, OutIt out, const Init& init) {
  return exact_scan_by_offsets(p, "pscan::exclusive_scan_by_offsets", false, offsets_first,
                               offsets_last, values, out, init);
}

template <class P, class OffIt, class InIt, class OutIt>
void exact_algorithm(const policy_base<P>& p,
                     pscan::detail::algorithm::inclusive_scan_by_offsets_into,
                     OffIt offsets_first, OffIt offsets_last, InIt values, OutIt out) {
  exact_scan_by_offsets(p, "pscan::inclusive_scan_by_offsets_into", true, offsets_first,
                        offsets_last, values, out);
}

template <class P, class OffIt, class InIt, class OutIt, class Init>
void exact_algorithm(const policy_base<P>& p,
                     pscan::detail::algorithm::exclusive_scan_by_offsets_into,
                     OffIt offsets_first, OffIt offsets_last, InIt values, OutIt out,
                     const Init& init) {
  exact_scan_by_offsets(p, "pscan::exclusive_scan_by_offsets_into", false, offsets_first,
                        offsets_last, values, out, init);
}

}  // namespace pscan::cuda_common
