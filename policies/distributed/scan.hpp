#pragma once
// pscan::distributed's scans: Blelloch's (1990) three phases with ranks for processors. Each rank
// reduces its range with the local policy, the totals cross in one MPI_Allgather, and each rank
// scans its range with the local policy from its carry-in (init, when given, op the lower ranks'
// totals in rank order) as that scan's init: 3n local traffic (the last rank, whose total nobody
// needs, 2n) and `rank` op calls on the host.

#include <pscan/detail/transformed.hpp>
#include <pscan/policies/distributed/totals.hpp>
#include <pscan/scan.hpp>

namespace pscan::distributed_backend {
namespace detail {

// The name in a scan's messages: the transform_ form's where the input is one's.
template <class InIt>
constexpr const char* scan_name(const char* plain, const char* transformed) {
  return pscan::detail::is_transform_input_v<InIt> ? transformed : plain;
}

}  // namespace detail

template <class Local, class InIt, class OutIt, class Op>
OutIt inclusive_scan(const policy<Local>& p, InIt first, InIt last, OutIt out, Op op) {
  using T = pscan::detail::value_type_t<InIt>;
  const detail::partial<T> carry =
      detail::carry_in(p, detail::scan_name<InIt>("pscan::inclusive_scan",
                                                  "pscan::transform_inclusive_scan"),
                       first, last, out, op, detail::partial<T>{});
  if (carry.has) return pscan::inclusive_scan(p.local, first, last, out, op, carry.value);
  return pscan::inclusive_scan(p.local, first, last, out, op);
}

template <class Local, class InIt, class OutIt, class Op, class T>
OutIt inclusive_scan(const policy<Local>& p, InIt first, InIt last, OutIt out, Op op, T init) {
  const detail::partial<T> carry = detail::carry_in(
      p, detail::scan_name<InIt>("pscan::inclusive_scan", "pscan::transform_inclusive_scan"),
      first, last, out, op, detail::partial<T>{true, init});
  return pscan::inclusive_scan(p.local, first, last, out, op, carry.value);
}

template <class Local, class InIt, class OutIt, class T, class Op>
OutIt exclusive_scan(const policy<Local>& p, InIt first, InIt last, OutIt out, T init, Op op) {
  const detail::partial<T> carry = detail::carry_in(
      p, detail::scan_name<InIt>("pscan::exclusive_scan", "pscan::transform_exclusive_scan"),
      first, last, out, op, detail::partial<T>{true, init});
  return pscan::exclusive_scan(p.local, first, last, out, carry.value, op);
}

}  // namespace pscan::distributed_backend
