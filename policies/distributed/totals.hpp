#pragma once
// The exchange of the scans and reduce: each rank checks its arguments and reduces its range to a
// total with the local policy, and every rank's total (or nothing, for an empty range) crosses in
// the call's one MPI_Allgather.

#include <pscan/detail/dispatch.hpp>
#include <pscan/policies/distributed/exchange.hpp>
#include <pscan/policies/distributed/local.hpp>
#include <pscan/policies/distributed/policy.hpp>

#include <cstdint>
#include <vector>

namespace pscan::distributed_backend::detail {

// Every rank's total in the accumulator type T, in rank order; `needed`: whether this rank's
// total is used (a scan's last rank skips that read of its range). `others` are the iterator
// arguments besides [first, last), checked with them.
template <class T, class Local, class InIt, class Op, class... Others>
std::vector<partial<T>> exchange_totals(const policy<Local>& p, const place& where,
                                      const char* algorithm, bool needed, InIt first, InIt last,
                                      Op op, pscan::detail::named<Others>... others) {
  transferable<T>();
  return exchange<partial<T>>(p.comm, where, algorithm, [&] {
    const std::int64_t n =
        pscan::detail::checked_range(p.local, algorithm, pscan::detail::arg("first", first),
                                     pscan::detail::arg("last", last), others...);
    if (n == 0 || !needed) return partial<T>{};
    return partial<T>{true, local_total<T>(p.local, first, n, op)};
  });
}

// A scan's carry-in on this rank: init (when present) op the lower ranks' totals, in rank order.
template <class T, class Local, class InIt, class OutIt, class Op>
partial<T> carry_in(const policy<Local>& p, const char* algorithm, InIt first, InIt last, OutIt out,
                  Op op, partial<T> init) {
  const place where = place_in(p.comm);
  const std::vector<partial<T>> totals =
      exchange_totals<T>(p, where, algorithm, where.rank + 1 < where.size, first, last, op,
                         pscan::detail::arg("out", out));
  return fold(init, totals.begin(), totals.begin() + where.rank, op);
}

}  // namespace pscan::distributed_backend::detail
