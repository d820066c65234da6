#pragma once
// pscan::distributed's reduce and reduce_into: each rank reduces its range with the local policy,
// the totals cross in one MPI_Allgather, and every rank folds init and all totals in rank order,
// so every rank has the same value and op need not be commutative. reduce returns it; reduce_into
// has the local policy write it to the rank's *result (wherever that lives: a CUDA local policy
// writes device memory, in its stream's order) as the reduce_into of an empty range from that
// value.

#include <pscan/policies/distributed/totals.hpp>
#include <pscan/reduce.hpp>

#include <cstdint>
#include <vector>

namespace pscan::distributed_backend {

template <class Local, class InIt, class T, class Op>
T reduce(const policy<Local>& p, InIt first, InIt last, T init, Op op) {
  const detail::place where = detail::place_in(p.comm);
  const std::vector<detail::partial<T>> totals =
      detail::exchange_totals<T>(p, where, "pscan::reduce", true, first, last, op);
  return detail::fold(detail::partial<T>{true, init}, totals.begin(), totals.end(), op).value;
}

template <class Local, class InIt, class OutIt, class T, class Op>
void reduce_into(const policy<Local>& p, InIt first, InIt last, OutIt result, T init, Op op) {
  constexpr const char* name = "pscan::reduce_into";
  detail::transferable<T>();
  const detail::place where = detail::place_in(p.comm);
  // As exchange_totals, with `result` checked too: it is written whatever n is.
  const std::vector<detail::partial<T>> totals =
      detail::exchange<detail::partial<T>>(p.comm, where, name, [&] {
        const std::int64_t n =
            pscan::detail::checked_range(p.local, name, pscan::detail::arg("first", first),
                                         pscan::detail::arg("last", last));
        pscan::detail::check_argument(p.local, name, "result", result, 1);
        if (n == 0) return detail::partial<T>{};
        return detail::partial<T>{true, detail::local_total<T>(p.local, first, n, op)};
      });
  const T value =
      detail::fold(detail::partial<T>{true, init}, totals.begin(), totals.end(), op).value;
  pscan::reduce_into(p.local, first, first, result, value, op);
}

}  // namespace pscan::distributed_backend
