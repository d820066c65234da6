#pragma once
// pscan::distributed's reduce: each rank reduces its range with the local policy, the totals cross
// in one MPI_Allgather, and every rank folds init and all totals in rank order, so every rank
// returns the same value and op need not be commutative.

#include "totals.hpp"

#include <vector>

namespace pscan::mpi {

template <class Local, class InIt, class T, class Op>
T reduce(const policy<Local>& p, InIt first, InIt last, T init, Op op) {
  const detail::place where = detail::place_in(p.comm);
  const std::vector<detail::maybe<T>> totals =
      detail::exchange_totals<T>(p, where, "pscan::reduce", true, first, last, op);
  return detail::fold(detail::maybe<T>{init, true}, totals.begin(), totals.end(), op).value;
}

}  // namespace pscan::mpi
