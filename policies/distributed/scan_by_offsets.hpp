#pragma once
// pscan::distributed's scans by offsets. Offsets are rank-local, as segmented_reduce's: each
// rank's segments lie in its own values and no segment spans ranks. The ranks exchange only
// whether their arguments and offsets are valid (one MPI_Allgather), then each scans its own
// segments with the local policy.

#include <pscan/policies/distributed/exchange.hpp>
#include <pscan/policies/distributed/policy.hpp>
#include <pscan/policies/distributed/segmented_reduce.hpp>
#include <pscan/segmented.hpp>

#include <cstdint>
#include <utility>

namespace pscan::distributed_backend {
namespace detail {

template <class Local, class InIt, class OffIt, class OutIt>
void check_offsets_scan(const policy<Local>& p, const char* name, InIt values, OffIt offsets_first,
                        OffIt offsets_last, OutIt out) {
  exchange<nothing>(p.comm, place_in(p.comm), name, [&] {
    const std::int64_t count = pscan::detail::checked_offsets_scan(p.local, name, values,
                                                                   offsets_first, offsets_last, out);
    if (count > 1) {
      check_offsets(p.local, name, offsets_first, count);
      check_elementwise(p.local, name, offsets_first, count,
                        std::pair<const char*, InIt>{"values", values},
                        std::pair<const char*, OutIt>{"out", out});
    }
    return nothing{};
  });
}

}  // namespace detail

template <class Local, class InIt, class OffIt, class OutIt, class Op>
OutIt inclusive_scan_by_offsets(const policy<Local>& p, InIt values, OffIt offsets_first,
                                OffIt offsets_last, OutIt out, Op op) {
  detail::check_offsets_scan(p, "pscan::inclusive_scan_by_offsets", values, offsets_first,
                             offsets_last, out);
  return pscan::inclusive_scan_by_offsets(p.local, values, offsets_first, offsets_last, out, op);
}

template <class Local, class InIt, class OffIt, class OutIt, class T, class Op>
OutIt exclusive_scan_by_offsets(const policy<Local>& p, InIt values, OffIt offsets_first,
                                OffIt offsets_last, OutIt out, T init, Op op) {
  detail::check_offsets_scan(p, "pscan::exclusive_scan_by_offsets", values, offsets_first,
                             offsets_last, out);
  return pscan::exclusive_scan_by_offsets(p.local, values, offsets_first, offsets_last, out, init,
                                          op);
}

}  // namespace pscan::distributed_backend
