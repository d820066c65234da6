#pragma once
// inclusive_scan and exclusive_scan of the CUDA policies (found by argument-dependent lookup
// through their common base, cuda_common::policy_base): the backend's kernels::scan for the build
// the device runs (target.cuh); exact_plus's run exact_scan.cuh's kernels.

#include <pscan/policies/cuda_common/algorithms/exact_scan.cuh>
#include <pscan/policies/cuda_common/policy.cuh>
#include <pscan/policies/cuda_common/target.cuh>

#include <pscan/detail/exact.hpp>

#include <pscan/future_value.hpp>
#include <pscan/scan.hpp>

#include <cstdint>
#include <iterator>

namespace pscan::cuda_common {

// first[0 .. n) (n > 0, a plain or a segmented input) scanned into out by P's kernels.
template <bool Exclusive, bool HasInit, class P, class InIt, class OutIt, class Init, class Op>
void scan_with_kernels(const policy_base<P>& p, InIt first, std::int64_t n, OutIt out,
                       const Init& init, Op op) {
  with_build([&](auto build) {
    kernels_of<P>::template scan<decltype(build), Exclusive, HasInit>(static_cast<const P&>(p),
                                                                   first, n, out, init, op);
  });
}

template <class P, class InIt, class OutIt, class Op>
void inclusive_scan(const policy_base<P>& p, InIt first, InIt last, OutIt out, Op op) {
  using A = typename std::iterator_traits<InIt>::value_type;
  scan_with_kernels<false, false>(p, first, last - first, out, A{}, op);
}

template <class P, class InIt, class OutIt, class Op, class T>
void inclusive_scan(const policy_base<P>& p, InIt first, InIt last, OutIt out, Op op, T init) {
  scan_with_kernels<false, true>(p, first, last - first, out, init, op);
}

template <class P, class InIt, class OutIt, class T, class Op>
void exclusive_scan(const policy_base<P>& p, InIt first, InIt last, OutIt out, T init, Op op) {
  scan_with_kernels<true, true>(p, first, last - first, out, init, op);
}

// exact_plus's scans (the exact_algorithm hook, pscan/detail/dispatch.hpp): exact_scan.cuh's
// kernels over the values.
template <class P, class InIt, class OutIt, class... Init>
OutIt exact_algorithm(const policy_base<P>& p, pscan::detail::algorithm::inclusive_scan,
                      InIt first, InIt last, OutIt out, const Init&... init) {
  return exact_scan_from(p, first, last - first, out, true, exact_scan_impl::no_heads{}, init...);
}

template <class P, class InIt, class OutIt, class Init>
OutIt exact_algorithm(const policy_base<P>& p, pscan::detail::algorithm::exclusive_scan,
                      InIt first, InIt last, OutIt out, const Init& init) {
  return exact_scan_from(p, first, last - first, out, false, exact_scan_impl::no_heads{}, init);
}

}  // namespace pscan::cuda_common
