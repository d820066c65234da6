#pragma once
// pscan::distributed's scans and reduce_into over NCCL: Blelloch's (1990) three phases with GPUs
// for processors, every phase on the device (totals.hpp). A rank with elements below it scans its
// range from a carry-in in device memory (init, when given, op the lower ranks' totals in rank
// order); the others from init or nothing, known to the host from the agreed sizes. 3n of local
// memory traffic (the last rank, whose total nobody needs, 2n), one ncclAllGather of a few bytes
// per rank, and no host synchronisation.

#include <pscan/detail/dispatch.hpp>
#include <pscan/policies/distributed/nccl/totals.hpp>
#include <pscan/scan.hpp>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

namespace pscan::distributed_backend::nccl {
namespace detail {

// The init of a local scan from its carry-in: the value of init (a host partial<T> holding one), or
// the carry-in in device memory.
template <class T>
const T& local_init(const partial<T>& carry) {
  return carry.value;
}
template <class T>
future_value<T> local_init(const future_value<T>& carry) {
  return carry;
}

// Runs scan(carry) on this rank: carry is init (a partial<T>) or, when a lower rank holds elements,
// init op their totals as a future_value in device memory.
template <class T, class Comm, class Local, class InIt, class OutIt, class Op, class Scan>
OutIt scan_after_lower_ranks(const policy<Comm, Local>& p, const char* algorithm, InIt first,
                             InIt last, OutIt out, Op op, const partial<T>& init, Scan&& scan) {
  using pscan::detail::arg;
  const distributed_backend::detail::place where{p.comm.rank(), p.comm.size()};
  std::optional<records<T>> all;
  const std::vector<std::int64_t> sizes = agree(p, where, algorithm, all, [&] {
    return pscan::detail::checked_range(p.local, algorithm, arg("first", first), arg("last", last),
                                        arg("out", out));
  });
  const std::int64_t n = last - first;
  // Totals cross when a rank below the last holds elements: every rank knows it, so every rank
  // joins the all-gather or none does.
  if (!any_elements(sizes, where.size - 1)) return scan(init);
  all_gather_totals(p, *all, where.rank + 1 < where.size, first, n, op);
  if (n == 0 || !any_elements(sizes, where.rank)) return scan(init);
  fold_records(p, *all, where.rank, all->folded(), init, op);
  return scan(all->folded_value());
}

}  // namespace detail

template <class Comm, class Local, class InIt, class OutIt, class Op>
OutIt inclusive_scan(const policy<Comm, Local>& p, InIt first, InIt last, OutIt out, Op op) {
  using T = pscan::detail::value_type_t<InIt>;
  return detail::scan_after_lower_ranks<T>(
      p, "pscan::inclusive_scan", first, last, out, op, detail::partial<T>{},
      [&](const auto& carry) {
        if constexpr (std::is_same_v<std::decay_t<decltype(carry)>, detail::partial<T>>) {
          return pscan::inclusive_scan(p.local, first, last, out, op);  // nothing before it
        } else {
          return pscan::inclusive_scan(p.local, first, last, out, op, carry);
        }
      });
}

template <class Comm, class Local, class InIt, class OutIt, class Op, class T>
OutIt inclusive_scan(const policy<Comm, Local>& p, InIt first, InIt last, OutIt out, Op op,
                     T init) {
  return detail::scan_after_lower_ranks<T>(
      p, "pscan::inclusive_scan", first, last, out, op, detail::partial<T>{true, init},
      [&](const auto& carry) {
        return pscan::inclusive_scan(p.local, first, last, out, op, detail::local_init(carry));
      });
}

template <class Comm, class Local, class InIt, class OutIt, class T, class Op>
OutIt exclusive_scan(const policy<Comm, Local>& p, InIt first, InIt last, OutIt out, T init,
                     Op op) {
  return detail::scan_after_lower_ranks<T>(
      p, "pscan::exclusive_scan", first, last, out, op, detail::partial<T>{true, init},
      [&](const auto& carry) {
        return pscan::exclusive_scan(p.local, first, last, out, detail::local_init(carry), op);
      });
}

// Every rank's *result = init op all ranks' elements in rank order, written on its GPU.
template <class Comm, class Local, class InIt, class OutIt, class T, class Op>
void reduce_into(const policy<Comm, Local>& p, InIt first, InIt last, OutIt result, T init, Op op) {
  constexpr const char* name = "pscan::reduce_into";
  using pscan::detail::arg;
  const distributed_backend::detail::place where{p.comm.rank(), p.comm.size()};
  std::optional<detail::records<T>> all;
  const std::vector<std::int64_t> sizes = detail::agree(p, where, name, all, [&] {
    const std::int64_t n =
        pscan::detail::checked_range(p.local, name, arg("first", first), arg("last", last));
    pscan::detail::check_argument(p.local, name, "result", result, 1);
    return n;
  });
  if (!detail::any_elements(sizes, where.size)) {
    pscan::reduce_into(p.local, first, first, result, init, op);  // init, on every rank
    return;
  }
  detail::all_gather_totals(p, *all, true, first, last - first, op);
  detail::fold_records(p, *all, where.size,
                       pscan::detail::make_index_iterator(detail::record_value<OutIt>{result}),
                       detail::partial<T>{true, init}, op);
}

}  // namespace pscan::distributed_backend::nccl
